"""``tabula``: the command line of the Tabula client.

    tabula games
    tabula new anno1452 --scenario ottokar_a --seat me --seat ai:hard
    tabula watch MATCH [--svg board.svg]
    tabula play MATCH --bot mybot:choose --token TOKEN
    tabula replay MATCH --verify [--out replay.json]
    tabula login [--token TOKEN]; tabula whoami; tabula logout
    tabula token create LABEL [--scope S ...]; tabula token list; tabula token revoke ID
    tabula matches --mine [--status S] [--to-act]
    tabula bot run --bot mybot:choose [--accept GAME]
    tabula leaderboard POOL [--kind human|bot] [--established] [--page N]

The server comes from ``--url`` or ``TABULA_URL`` (default
http://127.0.0.1:8000), the bearer token from ``--token`` or
``TABULA_TOKEN``, else the one ``tabula login`` stored for that server. ``--json`` prints JSON (one object, or one per line for
``watch`` and ``play``) instead of text. An error answer prints one line and
exits 1; a usage error exits 2.

This module is the entry point (the parser and ``main``); the commands are
in ``cli_commands``, ``cli_live``, ``cli_accounts``, ``cli_bot`` and ``cli_ratings``, the output in ``cli_format``.
"""

import argparse
import os
import sys

import httpx

from . import cli_credentials
from .cli_accounts import add_account_commands
from .cli_bot import add_bot_command
from .cli_commands import (
    DEFAULT_URL,
    BotError,
    UsageError,
    cmd_games,
    cmd_new,
    cmd_replay,
)
from .cli_format import Output, describe_error
from .cli_live import cmd_play, cmd_watch
from .cli_ratings import add_leaderboard_command
from .client import Client
from .errors import TabulaError, Unauthorized


def common_options() -> argparse.ArgumentParser:
    """The options accepted before or after the command name; SUPPRESS keeps
    a subcommand's absent flag from hiding the main one's."""
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--url", default=argparse.SUPPRESS, help=f"server base URL (env TABULA_URL, default {DEFAULT_URL})"
    )
    common.add_argument("--token", default=argparse.SUPPRESS, help="bearer token (env TABULA_TOKEN)")
    common.add_argument(
        "--json", action="store_true", default=argparse.SUPPRESS, help="print JSON instead of text"
    )
    return common


def add_new(
    commands: "argparse._SubParsersAction[argparse.ArgumentParser]", common: argparse.ArgumentParser
) -> None:
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


def add_watch_play_replay(
    commands: "argparse._SubParsersAction[argparse.ArgumentParser]", common: argparse.ArgumentParser
) -> None:
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


def build_parser() -> argparse.ArgumentParser:
    common = common_options()
    parser = argparse.ArgumentParser(
        prog="tabula", parents=[common], description="Play and follow Tabula matches (Anno 1503, Anno 1452)."
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    games = commands.add_parser("games", parents=[common], help="the games, their players and options")
    games.set_defaults(run=cmd_games)
    add_new(commands, common)
    add_watch_play_replay(commands, common)
    add_account_commands(commands, common)
    add_bot_command(commands, common)
    add_leaderboard_command(commands, common)
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
        if token is None and getattr(args, "stored_token", True):
            token = cli_credentials.stored_token(url)  # what `tabula login` kept for this server
        with Client(url.rstrip("/"), token=token) as client:
            return args.run(client, args, out)
    except UsageError as error:
        sys.stderr.write(f"{parser.prog} {args.command}: error: {error}\n")
        return 2
    except (BotError, TabulaError, httpx.HTTPError, ConnectionError, OSError, ValueError) as error:
        print_error(error, out)
        return 1
    except KeyboardInterrupt:
        return 130


def print_error(error: Exception, out: Output) -> None:
    """An error in one line of text, or as one JSON error object."""
    message = describe_error(error)
    if isinstance(error, Unauthorized):
        message += " (the token is unknown, revoked or expired: `tabula login` with a valid one)"
    if not out.json:
        out.error(f"tabula: {message}")
        return
    body = {"error": getattr(error, "code", type(error).__name__), "message": message}
    if isinstance(error, TabulaError):
        body["details"] = error.details
    out.data(body)


if __name__ == "__main__":
    sys.exit(main())
