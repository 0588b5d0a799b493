"""``python -m bench.ladder run|slow|cost ...``: see the package's docstring."""

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

from . import cost, matches, run, slow


def add_match_options(parser):
    """The options that fix a pairing's matches and how they are played;
    ``slow`` takes them too, so that it replays the ladder's own."""
    parser.add_argument("--matches", type=int, default=200, help="matches per pairing")
    parser.add_argument(
        "--hard-simulations",
        type=int,
        default=None,
        help="rollouts per hard decision (default: each game's own count)",
    )
    parser.add_argument(
        "--hard-step-cap",
        type=int,
        default=None,
        help="hard's cap per decision, rollout steps (default: each game's own)",
    )
    parser.add_argument(
        "--hard-wall-cap",
        type=float,
        default=None,
        help="hard's wall-clock safety cap per decision, seconds (default: the player's own, "
        "5 s; raise it for a strength run on a machine loaded many times over)",
    )
    parser.add_argument(
        "--hard-candidates",
        type=int,
        default=None,
        help="moves hard's search weighs (default: each game's own)",
    )
    parser.add_argument("--jobs", type=int, default=2, help="worker processes")
    parser.add_argument("--seed", type=int, default=1, help="first match seed")


def add_run(subparsers):
    parser = subparsers.add_parser("run", help="tournaments between the AI levels")
    parser.add_argument(
        "--variants",
        default="",
        help="comma-separated words that a variant's label must all contain, "
        "e.g. 'anno1452,expert' or 'pirates' (default: every variant)",
    )
    parser.add_argument(
        "--pairings",
        default="",
        help="comma-separated head-to-head pairings, e.g. 'medium-easy,hard-medium' (default: all)",
    )
    parser.add_argument("--no-field", action="store_true", help="skip the hard-against-the-field run")
    add_match_options(parser)
    parser.add_argument(
        "--record",
        type=Path,
        default=None,
        help="keep finished matches in this file and play only those it lacks "
        "(e.g. bench/results/ai-ladder.jsonl)",
    )
    parser.add_argument(
        "--json", action="store_true", help="one JSON object per pairing instead of the table"
    )


def add_slow(subparsers):
    parser = subparsers.add_parser("slow", help="replay one pairing and list a level's slow decisions")
    parser.add_argument("--variant", required=True, help="a variant's label as the ladder prints it")
    parser.add_argument(
        "--pairing",
        required=True,
        choices=matches.PAIRING_NAMES + ["field"],
        help="a head-to-head pairing or the hard-against-the-field run",
    )
    parser.add_argument("--level", default="medium", help="whose decisions to list")
    parser.add_argument("--over", type=float, default=0.02, help="list steady times over this (seconds)")
    parser.add_argument("--first", type=int, default=0, help="first match (index in the pairing)")
    parser.add_argument("--count", type=int, default=None, help="how many matches (default: the rest)")
    add_match_options(parser)


def add_cost_options(parser):
    parser.add_argument("--game", default="anno1452")
    parser.add_argument("--level", default="medium")
    parser.add_argument("--repeats", type=int, default=5, help="runs per decision in a round")


def add_cost(subparsers):
    parser = subparsers.add_parser("cost", help="time a level's heaviest decisions, here and at a revision")
    add_cost_options(parser)
    parser.add_argument(
        "--options",
        default="rules=expert,scenario=standard",
        help="the game's options as name=value,name=value",
    )
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--matches", type=int, default=6, help="matches played to find decisions")
    parser.add_argument("--max-actions", type=int, default=5000, help="actions per match at most")
    parser.add_argument("--seed", type=int, default=90001, help="first match seed")
    parser.add_argument("--heaviest", type=int, default=60, help="decisions kept, most legal actions first")
    parser.add_argument("--rounds", type=int, default=4, help="alternating rounds per tree")
    parser.add_argument("--against", default=None, help="a git revision to time as well")
    worker = subparsers.add_parser("cost-worker", help=argparse.SUPPRESS)
    add_cost_options(worker)
    worker.add_argument("--decisions", required=True)


def arguments():
    parser = argparse.ArgumentParser(prog="python -m bench.ladder", description=__doc__.split("\n")[0])
    subparsers = parser.add_subparsers(dest="command", required=True)
    add_run(subparsers)
    add_slow(subparsers)
    add_cost(subparsers)
    return parser


def main(argv=None, out=sys.stdout):
    args = arguments().parse_args(argv)
    started = time.time()
    if args.command == "run":
        run.run(args, out)
        if not args.json:
            print(f"total {time.time() - started:.0f} s", file=out)
    elif args.command == "slow":
        slow.slow(args, out)
    elif args.command == "cost":
        with tempfile.TemporaryDirectory() as scratch:
            cost.cost(args, out, scratch)
    else:
        print(json.dumps(cost.time_decisions(args.game, args.level, args.decisions, args.repeats)), file=out)


if __name__ == "__main__":
    main()
