"""The ``tabula`` commands that follow a match live: ``watch`` (print the
stream, optionally keep an SVG of the board) and ``play`` (a bot plays a
seat to the end)."""

import argparse
import os
import threading
import time
from pathlib import Path

import httpx

from .cli_commands import MAX_REFUSALS, Bot, UsageError, call_bot, load_bot
from .cli_format import Output, compact, describe_error, event_line, match_line, result_line, seat_label
from .client import Client
from .errors import GameOver, IllegalAction, NotYourTurn, TabulaError, VersionConflict
from .models import Action, ActionList, ActionResult, Match, StreamItem
from .stream import EventFollower

# -- watch --


class BoardWriter:
    """Rewrites an SVG file with the board once each burst of events has
    settled (a background thread, so following the stream never waits)."""

    def __init__(self, client: Client, match_id: str, path: Path, settle_s: float = 0.3):
        self.client, self.match_id, self.path, self.settle_s = client, match_id, path, settle_s
        self.etag: str | None = None
        self.writes = 0
        self.error: Exception | None = None
        self._dirty = threading.Event()
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._run, name="tabula-board", daemon=True)
        self._thread.start()

    def touch(self) -> None:
        self._dirty.set()

    def close(self) -> None:
        self._stop.set()
        self._dirty.set()
        self._thread.join(timeout=10)
        self.write()

    def _run(self) -> None:
        while not self._stop.is_set():
            self._dirty.wait()
            if self._stop.is_set():
                return
            time.sleep(self.settle_s)  # let the burst end
            self._dirty.clear()
            self.write()

    def write(self) -> None:
        with self._lock:
            try:
                board = self.client.get_board(self.match_id, if_none_match=self.etag)
            except (TabulaError, httpx.HTTPError) as error:
                self.error = error
                return
            if board["svg"] is None:
                return  # unchanged
            temporary = self.path.with_name(self.path.name + ".tmp")
            temporary.write_text(board["svg"], encoding="utf-8")
            os.replace(temporary, self.path)  # a viewer never sees half a file
            self.etag = board["etag"]
            self.writes += 1
            self.error = None


def cmd_watch(client: Client, args: argparse.Namespace, out: Output) -> int:
    follower = client.events(args.match, matches=True)
    writer = BoardWriter(client, args.match, Path(args.svg)) if args.svg else None
    ended = False  # the last item was the finished Match
    try:
        if writer is not None:
            writer.touch()
        for item in follower:
            ended = item["kind"] == "match" and item["body"].get("status") == "finished"
            if out.json:
                out.data(item)
            elif item["kind"] == "match":
                out.line(match_line(item["body"]), style="bold")
            else:
                out.line(event_line(item["body"]))
            if writer is not None and item["kind"] == "event":
                writer.touch()
    except KeyboardInterrupt:
        if not out.json:
            out.line("stopped", style="yellow")
        return 0
    finally:
        follower.close()
        if writer is not None:
            writer.close()
    if writer is not None and writer.error is not None:
        out.error(f"tabula: board not written: {describe_error(writer.error)}")
    if not ended:  # the result at the end, even when the stream began with it
        print_final(client, args.match, follower, out)
    return 0


def print_final(client: Client, match_id: str, follower: EventFollower[StreamItem], out: Output) -> None:
    final = follower.match
    if final is None or final.get("status") != "finished":
        final = client.get_match(match_id)
    if out.json:
        out.data({"kind": "match", "body": final})
    elif final is not None:
        out.line(match_line(final), style="bold")


# -- play --


class Player:
    """One seat played by a bot to the match's end: list the actions, let the
    bot choose, post; between turns, wait on the one stream of the match for
    anything newer than the version the actions were listed at (no polling)."""

    def __init__(self, client: Client, match_id: str, bot: Bot, bot_spec: str, out: Output):
        self.client, self.match_id, self.out = client, match_id, out
        self.bot, self.bot_spec = bot, bot_spec
        self.follower = client.events(match_id, matches=True)
        self.moves = self.refusals = 0

    def play(self, match: Match) -> Match:
        """Play until the match is finished; the last Match seen."""
        while match["status"] != "finished":
            legal = self.client.list_actions(self.match_id)
            if legal["status"] == "finished":
                break  # the stream's final Match may come later (a rematch wait)
            if not legal["actions"]:
                match = self.wait(match, legal["version"])
                continue
            match, over = self.move(match, legal)
            if over:
                break
        return match

    def move(self, match: Match, legal: ActionList) -> tuple[Match, bool]:
        """Choose and post one action; the Match after it, and whether the game is over."""
        match = self.client.get_match(self.match_id) or match
        action = self.choose(match, legal["actions"])
        try:
            answer = self.client.post_action(self.match_id, action, version=legal["version"])
        except IllegalAction as error:
            self.refused(legal["version"], action, error)
            return match, False
        except (VersionConflict, NotYourTurn):
            return match, False  # the match moved on meanwhile: list again
        except GameOver:
            return match, True
        self.played(action, answer)
        return answer["match"], False

    def choose(self, match: Match, actions: list[Action]) -> Action:
        return call_bot(self.bot, self.bot_spec, match, actions)

    def refused(self, version: int, action: Action, error: IllegalAction) -> None:
        self.refusals += 1
        self.out.report(
            {
                "kind": "refused",
                "version": version,
                "action": action,
                "reason": error.reason,
                "message": error.message,
            },
            f"v{version} refused {compact(action)}: {error.reason or error.code} ({error.message})",
            "yellow",
        )
        if self.refusals >= MAX_REFUSALS:
            raise error

    def played(self, action: Action, answer: ActionResult) -> None:
        self.refusals = 0
        self.moves += 1
        self.out.report(
            {"kind": "move", "version": answer["version"], "action": action, "events": answer["events"]},
            f"v{answer['version']} you play {compact(action)}",
            "cyan",
        )
        if not self.out.json:
            for event in answer["events"]:
                self.out.line("  " + event_line(event))

    def wait(self, match: Match, version: int) -> Match:
        """Nothing to decide: the Match once something newer than ``version`` happened."""
        if wait_for_change(self.follower, version):
            return self.follower.match or match
        time.sleep(1.0)  # the stream ended without news (never expected): look, then list again
        return self.client.get_match(self.match_id) or match


def cmd_play(client: Client, args: argparse.Namespace, out: Output) -> int:
    if not client.token:
        raise UsageError("play needs the seat's token: --token or TABULA_TOKEN")
    bot = load_bot(args.bot)
    match = client.get_match(args.match)
    assert match is not None
    seat = match.get("you")
    if seat is None:
        raise UsageError(f"the token has no seat in match {args.match}")
    if not out.json:
        out.line(f"playing {seat_label(match['seats'][seat])} of {match_line(match)}", style="bold")
    player = Player(client, args.match, bot, args.bot, out)
    try:
        match = player.play(match)
    except KeyboardInterrupt:
        if not out.json:
            out.line(f"stopped after {player.moves} moves", style="yellow")
        return 130
    finally:
        player.follower.close()
    final = client.get_match(args.match) or match
    if out.json:
        out.data({"kind": "result", "moves": player.moves, "match": final})
    else:
        out.line(f"{player.moves} moves played; {result_line(final)}", style="bold green")
    return 0


def wait_for_change(follower: EventFollower[StreamItem], version: int) -> bool:
    """Read the stream until something newer than ``version`` or the end of
    the match (True), or until the stream ends (False)."""
    for item in follower:
        if item["kind"] == "match":
            if item["body"].get("status") == "finished" or item["body"]["version"] > version:
                return True
        elif item["body"]["version"] > version:
            return True
    return False
