"""``tabula leaderboard POOL [--kind human|bot] [--established] [--page N]``:
one page of a rating pool's leaderboard (docs/ratings.md)."""

import argparse
from collections.abc import Iterator
from typing import Any

from rich.table import Table

from .cli_format import Output
from .client import Client
from .models import LeaderboardEntry

POOLS = ("anno1503-base", "anno1503-expansion", "anno1452-basic", "anno1452-expert")


def add_leaderboard_command(commands: Any, common: argparse.ArgumentParser) -> None:
    board = commands.add_parser("leaderboard", parents=[common], help="a rating pool's leaderboard")
    board.add_argument("pool", choices=POOLS)
    board.add_argument("--kind", choices=("human", "bot"), help="only people or only bots")
    board.add_argument(
        "--established", action="store_true", help="leave out provisional ratings (fewer than 10 matches)"
    )
    board.add_argument("--page", type=int, default=1)
    board.add_argument("--page-size", type=int, default=20)
    board.set_defaults(run=cmd_leaderboard)


def cmd_leaderboard(client: Client, args: argparse.Namespace, out: Output) -> int:
    entries = client.leaderboard(
        args.pool,
        kind=args.kind,
        provisional="exclude" if args.established else None,
        page=args.page,
        page_size=args.page_size,
    )
    out.listing(entries, lambda: _table(args.pool, entries), lambda: _lines(entries))
    return 0


def _mark(entry: LeaderboardEntry) -> str:
    return "?" if entry["provisional"] else ""


def _lines(entries: list[LeaderboardEntry]) -> Iterator[str]:
    for e in entries:
        yield (
            f"{e['rank']:>4} {e['name']:<24} {e['kind']:<5} {e['rating']:8.2f}{_mark(e):1} "
            f"(mu {e['mu']:.2f}, sigma {e['sigma']:.2f}, {e['matches']} matches)"
        )


def _table(pool: str, entries: list[LeaderboardEntry]) -> Table:
    table = Table(title=f"Leaderboard {pool} (rating = mu - 3 sigma; ? provisional)")
    for column in ("#", "name", "kind", "rating", "mu", "sigma", "matches"):
        table.add_column(column)
    for e in entries:
        table.add_row(
            str(e["rank"]),
            e["name"] + (" (AI)" if e["ai"] else ""),
            e["kind"],
            f"{e['rating']:.2f}{_mark(e)}",
            f"{e['mu']:.2f}",
            f"{e['sigma']:.2f}",
            str(e["matches"]),
        )
    return table
