"""``tabula``: the command line of the Tabula client.

    tabula games
    tabula new anno1452 --scenario ottokar_a --seat me --seat ai:hard
    tabula watch MATCH [--svg board.svg]
    tabula play MATCH --bot mybot:choose --token TOKEN
    tabula replay MATCH --verify [--out replay.json]

The server comes from ``--url`` or ``TABULA_URL`` (default
http://127.0.0.1:8000), the bearer token from ``--token`` or
``TABULA_TOKEN``. ``--json`` prints JSON (one object, or one per line for
``watch`` and ``play``) instead of text. An error answer prints one line and
exits 1; a usage error exits 2.
"""

import argparse
import importlib
import json
import os
import sys
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import httpx
from rich.console import Console
from rich.table import Table
from rich.text import Text

from .cli_verify import verify
from .client import Client
from .errors import GameOver, IllegalAction, NotYourTurn, TabulaError, VersionConflict
from .models import Action, Event, GameOption, Match, Seat, StreamItem
from .stream import EventFollower

# A bot: the seat's current Match and its legal actions -> one of them.
Bot = Callable[[Match, list[Action]], Action]

DEFAULT_URL = "http://127.0.0.1:8000"
# A bot refused this many times in a row is broken: stop rather than loop.
MAX_REFUSALS = 5


class UsageError(Exception):
    """A malformed argument found after parsing (exit 2)."""


class BotError(Exception):
    """The bot function failed (exit 1)."""


class Output:
    """Text through rich (colour on a terminal, plain when piped) or JSON."""

    def __init__(self, as_json: bool):
        self.json = as_json
        # force_terminal=None: rich decides; piped output has no colour codes.
        self.console = Console(force_terminal=None, highlight=False)
        self.errors = Console(stderr=True, force_terminal=None, highlight=False)

    @property
    def terminal(self) -> bool:
        return self.console.is_terminal

    def line(self, text: str | Text, style: str | None = None) -> None:
        """One line, never parsed as markup nor wrapped."""
        if isinstance(text, str):
            text = Text(text, style=style or "")
        self.console.print(text, soft_wrap=True, markup=False, emoji=False)

    def data(self, value: Any) -> None:
        """One JSON document on one line."""
        sys.stdout.write(json.dumps(value, ensure_ascii=False) + "\n")
        sys.stdout.flush()

    def error(self, text: str) -> None:
        self.errors.print(Text(text, style="bold red"), soft_wrap=True, markup=False, emoji=False)


# -- formatting --


def compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def seat_label(seat: Seat) -> str:
    kind = seat.get("kind")
    if kind == "ai":
        who = f"AI {seat.get('level') or 'medium'}"
    elif kind == "open":
        who = "open"
    else:
        who = seat.get("name") or "human"
        if seat.get("resigned"):
            who += ", resigned"
    return f"seat {seat.get('seat')} ({who})"


def seat_names(match: Match, seats: list[int]) -> str:
    by_number = {s["seat"]: s for s in match.get("seats", [])}
    labels = [seat_label(by_number[n]) if n in by_number else f"seat {n} (human)" for n in seats]
    if match.get("you") is not None and match["you"] in seats:
        labels[seats.index(match["you"])] += " [you]"
    return ", ".join(labels) or "nobody"


def event_line(event: Event) -> str:
    """ "v12 seat 1 sold {...}": version, actor, type, data."""
    actor = "server" if event.get("seat") is None else f"seat {event['seat']}"
    data = event.get("data")
    tail = f" {compact(data)}" if data else ""
    return f"v{event.get('version')} {actor} {event.get('type')}{tail}"


def result_line(match: Match) -> str:
    result: Mapping[str, Any] = match.get("result") or {}
    winners = result.get("winners", [])
    parts = [
        f"winners: {seat_names(match, winners)}" if winners else "no winner",
        f"reason: {result.get('reason')}",
    ]
    if result.get("scores"):
        parts.append(f"scores: {compact(result['scores'])}")
    if result.get("resigned"):
        parts.append(f"resigned: {compact(result['resigned'])}")
    return "result: " + "; ".join(parts)


def match_line(match: Match) -> str:
    head = f"match {match.get('id')} ({match.get('game')}) v{match.get('version')} {match.get('status')}"
    if match.get("status") == "finished":
        return f"{head}; {result_line(match)}"
    return f"{head}; to act: {seat_names(match, match.get('to_act', []))}"


# -- arguments --


def parse_value(text: str) -> Any:
    """Integers as integers, everything else as the string."""
    try:
        return int(text)
    except ValueError:
        return text


def parse_options(pairs: list[str]) -> dict[str, Any]:
    options = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name:
            raise UsageError(f"--option {pair!r}: expected NAME=VALUE")
        options[name] = parse_value(value)
    return options


def parse_seat(spec: str, name: str) -> dict[str, Any]:
    """``me`` (or ``me:NAME``), ``ai`` (or ``ai:LEVEL``), ``open``."""
    kind, _, arg = spec.partition(":")
    if kind == "me":
        return {"kind": "human", "name": arg or name}
    if kind == "ai":
        return {"kind": "ai", "level": arg} if arg else {"kind": "ai"}
    if kind == "open" and not arg:
        return {"kind": "open"}
    raise UsageError(f"--seat {spec!r}: expected me, me:NAME, ai, ai:LEVEL or open")


def load_bot(spec: str) -> Bot:
    module_name, sep, function = spec.partition(":")
    if not sep or not module_name or not function:
        raise UsageError(f"--bot {spec!r}: expected PACKAGE.MODULE:FUNCTION")
    if os.getcwd() not in sys.path and "" not in sys.path:
        sys.path.append(os.getcwd())  # a bot module next to where tabula runs
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        raise UsageError(f"--bot {spec!r}: cannot import {module_name}: {error}") from error
    bot = getattr(module, function, None)
    if not callable(bot):
        raise UsageError(f"--bot {spec!r}: {module_name} has no function {function}")
    return bot


# -- commands --


def cmd_games(client: Client, args: argparse.Namespace, out: Output) -> int:
    games = client.list_games()
    if out.json:
        out.data(games)
        return 0
    if out.terminal:
        table = Table(title="Tabula games")
        for column in ("game", "title", "players", "AI levels", "options"):
            table.add_column(column)
        for game in games:
            table.add_row(
                game["id"],
                game.get("title", ""),
                f"{game['min_players']}-{game['max_players']}",
                ", ".join(game.get("ai_levels", [])),
                "\n".join(option_text(name, option) for name, option in game.get("options", {}).items()),
            )
        out.console.print(table)
        return 0
    for game in games:
        out.line(
            f"{game['id']}: {game.get('title', '')}, {game['min_players']}-{game['max_players']} "
            f"players, AI levels {', '.join(game.get('ai_levels', []))}"
        )
        for name, option in game.get("options", {}).items():
            out.line(f"  {option_text(name, option)}")
    return 0


def option_text(name: str, option: GameOption) -> str:
    text = f"{name}={option.get('default')}"
    if option.get("choices"):
        text += f" ({' | '.join(str(c) for c in option['choices'])})"
    elif "min" in option or "max" in option:
        text += f" ({option.get('min', '')}..{option.get('max', '')})"
    return text


def cmd_new(client: Client, args: argparse.Namespace, out: Output) -> int:
    options = parse_options(args.option)
    for name in ("rules", "scenario", "expansion"):
        if getattr(args, name) is not None:
            options[name] = parse_value(getattr(args, name))
    if not args.seat:
        raise UsageError("give the seats: --seat me --seat ai:hard ...")
    seats = [parse_seat(spec, args.name) for spec in args.seat]
    created = client.create_match(
        args.game,
        seats,
        options=options,
        seed=args.seed,
        dice="reproducible" if args.reproducible else None,
        turn_timeout_s=args.timer,
    )
    match, tokens = created["match"], created.get("tokens", {})
    url = "" if client.base_url == DEFAULT_URL else f" --url {client.base_url}"
    if out.json:
        out.data({"id": match["id"], "tokens": tokens, "match": match})
        return 0
    out.line(
        f"match {match['id']} created: {match['game']} {compact(match.get('options', {}))}, "
        f"dice {match.get('dice')}",
        style="bold green",
    )
    out.line(match_line(match))
    for seat, token in sorted(tokens.items(), key=lambda item: int(item[0])):
        out.line(f"seat {seat} token: {token}")
    out.line("next:")
    out.line(f"  tabula watch {match['id']}{url} --svg board.svg")
    for token in tokens.values():
        out.line(f"  tabula play {match['id']}{url} --token {token} --bot mybot:choose")
    return 0


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
        final = follower.match
        if final is None or final.get("status") != "finished":
            final = client.get_match(args.match)
        if out.json:
            out.data({"kind": "match", "body": final})
        elif final is not None:
            out.line(match_line(final), style="bold")
    return 0


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
    # One stream for the whole match: between turns, wait on it for anything
    # newer than the version the actions were listed at (no polling).
    follower = client.events(args.match, matches=True)
    moves = refusals = 0
    try:
        while match["status"] != "finished":
            legal = client.list_actions(args.match)
            if legal["status"] == "finished":
                break  # the stream's final Match may come later (a rematch wait)
            if legal["actions"]:
                match = client.get_match(args.match) or match
                try:
                    action = bot(match, legal["actions"])
                except Exception as error:  # the bot's bug, reported in one line
                    raise BotError(f"the bot {args.bot} failed: {type(error).__name__}: {error}") from error
                try:
                    answer = client.post_action(args.match, action, version=legal["version"])
                except IllegalAction as error:
                    refusals += 1
                    report(
                        out,
                        {
                            "kind": "refused",
                            "version": legal["version"],
                            "action": action,
                            "reason": error.reason,
                            "message": error.message,
                        },
                        f"v{legal['version']} refused {compact(action)}: "
                        f"{error.reason or error.code} ({error.message})",
                        "yellow",
                    )
                    if refusals >= MAX_REFUSALS:
                        raise
                    continue
                except (VersionConflict, NotYourTurn):
                    continue  # the match moved on meanwhile: list again
                except GameOver:
                    break
                refusals = 0
                moves += 1
                match = answer["match"]
                report(
                    out,
                    {
                        "kind": "move",
                        "version": answer["version"],
                        "action": action,
                        "events": answer["events"],
                    },
                    f"v{answer['version']} you play {compact(action)}",
                    "cyan",
                )
                if not out.json:
                    for event in answer["events"]:
                        out.line("  " + event_line(event))
                continue
            if wait_for_change(follower, legal["version"]):
                match = follower.match or match
            else:  # the stream ended without news (never expected): look, then list again
                time.sleep(1.0)
                match = client.get_match(args.match) or match
    except KeyboardInterrupt:
        if not out.json:
            out.line(f"stopped after {moves} moves", style="yellow")
        return 130
    finally:
        follower.close()
    final = client.get_match(args.match) or match
    if out.json:
        out.data({"kind": "result", "moves": moves, "match": final})
    else:
        out.line(f"{moves} moves played; {result_line(final)}", style="bold green")
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


def report(out: Output, data: dict[str, Any], text: str, style: str) -> None:
    if out.json:
        out.data(data)
    else:
        out.line(text, style=style)


def cmd_replay(client: Client, args: argparse.Namespace, out: Output) -> int:
    if args.file:
        replay = json.loads(Path(args.file).read_text(encoding="utf-8"))
    elif args.match:
        replay = client.get_replay(args.match)
    else:
        raise UsageError("give a MATCH or --file FILE")
    if args.out:
        Path(args.out).write_text(json.dumps(replay, ensure_ascii=False, indent=1), encoding="utf-8")
    if not args.verify:
        if out.json:
            out.data(replay)
            return 0
        result = replay.get("result") or {}
        out.line(
            f"{replay['game']} {compact(replay.get('options', {}))}, "
            f"{len(replay['seats'])} seats, {len(replay['actions'])} actions, "
            f"dice {replay.get('dice')}, seed {replay.get('seed')}"
        )
        out.line(f"result: {compact(result)}")
        if args.out:
            out.line(f"saved to {args.out}")
        return 0
    checks = verify(replay)
    passed = all(check.ok is not False for check in checks)
    if out.json:
        out.data({"ok": passed, "checks": [check.as_json() for check in checks]})
    else:
        for check in checks:
            mark, style = {True: ("✓", "green"), False: ("✗", "red"), None: ("-", "yellow")}[check.ok]
            out.line(Text.assemble((mark, f"bold {style}"), f" {check.name}: {check.detail}"))
        out.line(
            "verified" if passed else "verification FAILED", style="bold green" if passed else "bold red"
        )
    return 0 if passed else 1


# -- main --


def describe_error(error: Exception) -> str:
    if isinstance(error, TabulaError):
        reason = error.details.get("reason")
        return f"{error.status} {error.code}: {error.message}" + (f" (reason: {reason})" if reason else "")
    if isinstance(error, httpx.HTTPError):
        return f"network error: {type(error).__name__}: {error}"
    return f"{type(error).__name__}: {error}"


def build_parser() -> argparse.ArgumentParser:
    # The common options are accepted before or after the command name;
    # SUPPRESS keeps a subcommand's absent flag from hiding the main one's.
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--url", default=argparse.SUPPRESS, help=f"server base URL (env TABULA_URL, default {DEFAULT_URL})"
    )
    common.add_argument("--token", default=argparse.SUPPRESS, help="bearer token (env TABULA_TOKEN)")
    common.add_argument(
        "--json", action="store_true", default=argparse.SUPPRESS, help="print JSON instead of text"
    )
    parser = argparse.ArgumentParser(
        prog="tabula", parents=[common], description="Play and follow Tabula matches (Anno 1503, Anno 1452)."
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    games = commands.add_parser("games", parents=[common], help="the games, their players and options")
    games.set_defaults(run=cmd_games)

    new = commands.add_parser("new", parents=[common], help="create a match")
    new.add_argument("game")
    new.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a game option (repeatable; integers are sent as integers)",
    )
    new.add_argument("--rules", help="shortcut for --option rules=R")
    new.add_argument("--scenario", help="shortcut for --option scenario=S")
    new.add_argument("--expansion", help="shortcut for --option expansion=E")
    new.add_argument(
        "--seat",
        action="append",
        default=[],
        metavar="SPEC",
        help="me, me:NAME, ai, ai:LEVEL or open, once per seat in order",
    )
    new.add_argument("--name", default="me", help="the name of your seats (default: me)")
    new.add_argument("--seed", type=int, help="your seed, mixed into the dice")
    new.add_argument(
        "--reproducible",
        action="store_true",
        help="the seed is the engine seed (needs --seed; everyone sees it)",
    )
    new.add_argument("--timer", type=int, metavar="SECONDS", help="turn timeout (0: none)")
    new.set_defaults(run=cmd_new)

    watch = commands.add_parser("watch", parents=[common], help="follow a match live")
    watch.add_argument("match")
    watch.add_argument("--svg", metavar="PATH", help="rewrite PATH with the board after each move")
    watch.set_defaults(run=cmd_watch)

    play = commands.add_parser("play", parents=[common], help="play a seat with a bot function")
    play.add_argument("match")
    play.add_argument(
        "--bot",
        required=True,
        metavar="PACKAGE.MODULE:FUNCTION",
        help="choose(match: dict, actions: list[dict]) -> dict",
    )
    play.set_defaults(run=cmd_play)

    replay = commands.add_parser("replay", parents=[common], help="a finished match's replay")
    replay.add_argument("match", nargs="?")
    replay.add_argument(
        "--verify", action="store_true", help="check the dice and re-run the actions with the engine"
    )
    replay.add_argument("--out", metavar="FILE", help="save the replay as JSON")
    replay.add_argument("--file", metavar="FILE", help="a saved replay instead of the server's")
    replay.set_defaults(run=cmd_replay)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:  # --help (0) or a usage error (2)
        return exit_.code if isinstance(exit_.code, int) else 2
    url = getattr(args, "url", None) or os.environ.get("TABULA_URL") or DEFAULT_URL
    token = getattr(args, "token", None) or os.environ.get("TABULA_TOKEN") or None
    out = Output(getattr(args, "json", False))
    try:
        with Client(url.rstrip("/"), token=token) as client:
            return args.run(client, args, out)
    except UsageError as error:
        sys.stderr.write(f"{parser.prog} {args.command}: error: {error}\n")
        return 2
    except (BotError, TabulaError, httpx.HTTPError, ConnectionError, OSError, ValueError) as error:
        message = describe_error(error)
        if out.json:
            body = {"error": getattr(error, "code", type(error).__name__), "message": message}
            if isinstance(error, TabulaError):
                body["details"] = error.details
            out.data(body)
        else:
            out.error(f"tabula: {message}")
        return 1
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
