"""``tabula bot run --bot module:function``: one account plays every one of
its matches as its turns come, from ONE account stream.

On each ``your_turn`` it lists the seat's legal actions with the account
token, asks the bot function (``choose(match, actions) -> action``, as
``tabula play --bot`` and examples/bots/starter.py) and posts its choice
with the listed version (and an ``Idempotency-Key``, as every
``post_action``). A turn already played, or gone by the time it is read
(409 ``version_conflict``/``not_your_turn``/``game_over``), is skipped: the
stream announces the next one. Ctrl-C stops it (exit 0).

With ``--accept-challenges`` or a ``--challenge-*`` filter it also answers
challenges: those the filter lets through are accepted, the others
declined (cli_challenges.py)."""

import argparse
from typing import Any

from .cli_challenges import ChallengeFilter, add_challenge_flags, answer, pending
from .cli_commands import MAX_REFUSALS, Bot, UsageError, call_bot, load_bot
from .cli_format import Output, compact
from .client import Client
from .errors import Forbidden, GameOver, IllegalAction, NotFound, NotYourTurn, VersionConflict
from .models import AccountEvent, Action, ActionList, Match


def add_bot_command(commands: Any, common: argparse.ArgumentParser) -> None:
    bot = commands.add_parser("bot", parents=[common], help="play an account's matches with a bot")
    actions = bot.add_subparsers(dest="bot_command", required=True, metavar="ACTION")
    run = actions.add_parser(
        "run", parents=[common], help="play every match of the token's account as its turns come"
    )
    run.add_argument(
        "--bot",
        required=True,
        metavar="PACKAGE.MODULE:FUNCTION",
        help="choose(match: dict, actions: list[dict]) -> dict",
    )
    run.add_argument(
        "--accept",
        action="append",
        metavar="GAME",
        help="play only matches of this game (repeatable; default: every game)",
    )
    run.add_argument("--sse", action="store_true", help="read the stream as SSE instead of NDJSON")
    add_challenge_flags(run)
    run.set_defaults(run=cmd_bot_run)


class AccountPlayer:
    """Plays the turns the account stream announces, match by match."""

    def __init__(
        self,
        client: Client,
        bot: Bot,
        bot_spec: str,
        out: Output,
        games: set[str] | None,
        challenges: ChallengeFilter | None = None,
    ):
        self.client, self.bot, self.bot_spec, self.out, self.games = client, bot, bot_spec, out, games
        self.challenges = challenges
        self.played: dict[str, int] = {}  # match id -> the version its last move was posted at
        self.moves = 0
        self.finished = 0

    def handle(self, event: AccountEvent) -> None:
        match_id, data = event["match_id"], event["data"]
        if event["type"] == "your_turn" and match_id is not None:
            if self.games is None or data.get("game") in self.games:
                self.turn(match_id, data.get("version"))
        elif event["type"] == "match_finished" and match_id is not None:
            self.finished += 1
            self.played.pop(match_id, None)
            self.report(event, f"{match_id} finished: {compact(data.get('result'))}", "bold")
        elif event["type"] == "challenge" and self.challenges is not None:
            self.challenge(data)
        elif event["type"] in ("seat_handed_to_ai", "webhook_disabled", "match_started"):
            self.report(event, f"{match_id or ''} {event['type']} {compact(data)}".strip(), "yellow")

    def challenge(self, challenge: Any) -> None:
        assert self.challenges is not None
        done, text = answer(self.client, self.challenges, challenge)
        self.report({"kind": f"challenge_{done}", "challenge_id": challenge["id"]}, text, "magenta")

    def turn(self, match_id: str, version: Any) -> None:
        """Play this turn unless it is already played; refused moves are retried with fresh actions."""
        if isinstance(version, int) and self.played.get(match_id, -1) >= version:
            return  # announced again (a new connection's snapshot): done already
        for _ in range(MAX_REFUSALS):
            try:
                legal = self.client.list_actions(match_id)
            except (NotFound, Forbidden) as error:
                self.report({"match_id": match_id}, f"{match_id}: skipped ({error})", "yellow")
                return
            if legal["status"] != "active" or not legal["actions"]:
                return  # stale: nothing to decide now
            if self.played.get(match_id, -1) >= legal["version"]:
                return
            if self.move(match_id, legal):
                return

    def move(self, match_id: str, legal: ActionList) -> bool:
        """Choose and post; False when refused as illegal (choose again)."""
        match = self.client.get_match(match_id)
        assert match is not None
        action = self.choose(match, legal["actions"])
        try:
            answer = self.client.post_action(match_id, action, version=legal["version"])
        except (VersionConflict, NotYourTurn, GameOver):
            return True  # the match moved on meanwhile: the stream says what is next
        except IllegalAction as error:
            self.report(
                {"kind": "refused", "match_id": match_id, "action": action, "reason": error.reason},
                f"{match_id} v{legal['version']} refused {compact(action)}: {error.reason or error.message}",
                "yellow",
            )
            return False
        self.played[match_id] = legal["version"]
        self.moves += 1
        self.report(
            {"kind": "move", "match_id": match_id, "version": answer["version"], "action": action},
            f"{match_id} v{answer['version']} played {compact(action)}",
            "cyan",
        )
        return True

    def choose(self, match: Match, actions: list[Action]) -> Action:
        return call_bot(self.bot, self.bot_spec, match, actions)

    def report(self, data: Any, text: str, style: str) -> None:
        self.out.report({"kind": data.get("type", "event"), **data}, text, style)


def _my_name(client: Client) -> str | None:
    try:
        return str(client.account()["name"])
    except Forbidden:
        return None


def cmd_bot_run(client: Client, args: argparse.Namespace, out: Output) -> int:
    if not client.token:
        raise UsageError("bot run needs an account token: tabula login, --token or TABULA_TOKEN")
    bot = load_bot(args.bot)
    rule = ChallengeFilter.from_args(args)
    player = AccountPlayer(client, bot, args.bot, out, set(args.accept) if args.accept else None, rule)
    stream = client.account_stream(sse=args.sse)
    if rule is not None:
        for waiting in pending(client, _my_name(client)):
            player.challenge(waiting)
    if not out.json:
        out.line(f"{args.bot} plays the account's matches on {client.base_url}; Ctrl-C stops", style="bold")
    try:
        for event in stream:
            player.handle(event)
    except KeyboardInterrupt:
        pass
    finally:
        stream.close()
    out.report(
        {
            "kind": "stopped",
            "moves": player.moves,
            "finished": player.finished,
            "connections": stream.connections,
        },
        f"stopped: {player.moves} moves played, {player.finished} matches finished",
        "bold green",
    )
    return 0
