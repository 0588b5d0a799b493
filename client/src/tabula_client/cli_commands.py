"""The ``tabula`` commands ``games``, ``new`` and ``replay``, each
``cmd_NAME(client, args, out) -> exit status``, and the argument values the
commands parse (seats, options, the bot). ``watch`` and ``play`` are in
``cli_live``."""

import argparse
import importlib
import json
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from rich.table import Table
from rich.text import Text

from .cli_format import (
    Output,
    compact,
    match_line,
    option_text,
)
from .cli_verify import verify
from .client import Client
from .models import Action, Game, Match

# A bot: the seat's current Match and its legal actions -> one of them.
Bot = Callable[[Match, list[Action]], Action]

DEFAULT_URL = "http://127.0.0.1:8000"
# A bot refused this many times in a row is broken: stop rather than loop.
MAX_REFUSALS = 5


class UsageError(Exception):
    """A malformed argument found after parsing (exit 2)."""


class BotError(Exception):
    """The bot function failed (exit 1)."""


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


def call_bot(bot: Bot, spec: str, match: Match, actions: list[Action]) -> Action:
    """The bot's choice; a failure of the bot raises ``BotError`` (one line)."""
    try:
        return bot(match, actions)
    except Exception as error:  # the bot's bug, reported in one line
        raise BotError(f"the bot {spec} failed: {type(error).__name__}: {error}") from error


# -- games, new --


def cmd_games(client: Client, args: argparse.Namespace, out: Output) -> int:
    games = client.list_games()
    out.listing(games, lambda: games_table(games), lambda: games_lines(games))
    return 0


def games_lines(games: list[Game]) -> Iterator[str]:
    for game in games:
        yield (
            f"{game['id']}: {game.get('title', '')}, {game['min_players']}-{game['max_players']} "
            f"players, AI levels {', '.join(game.get('ai_levels', []))}"
        )
        for name, option in game.get("options", {}).items():
            yield f"  {option_text(name, option)}"


def games_table(games: list[Game]) -> Table:
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
    return table


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
    if out.json:
        out.data({"id": match["id"], "tokens": tokens, "match": match})
        return 0
    url = "" if client.base_url == DEFAULT_URL else f" --url {client.base_url}"
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


# -- replay --


def cmd_replay(client: Client, args: argparse.Namespace, out: Output) -> int:
    if args.file:
        replay = json.loads(Path(args.file).read_text(encoding="utf-8"))
    elif args.match:
        replay = client.get_replay(args.match)
    else:
        raise UsageError("give a MATCH or --file FILE")
    if args.out:
        Path(args.out).write_text(json.dumps(replay, ensure_ascii=False, indent=1), encoding="utf-8")
    if args.verify:
        return print_verification(replay, out)
    if out.json:
        out.data(replay)
        return 0
    out.line(
        f"{replay['game']} {compact(replay.get('options', {}))}, "
        f"{len(replay['seats'])} seats, {len(replay['actions'])} actions, "
        f"dice {replay.get('dice')}, seed {replay.get('seed')}"
    )
    out.line(f"result: {compact(replay.get('result') or {})}")
    if args.out:
        out.line(f"saved to {args.out}")
    return 0


def print_verification(replay: dict[str, Any], out: Output) -> int:
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
