"""The engine's speed against an earlier revision, as ratios measured in one run.

    .venv/bin/python -m bench.engine_compare --against HEAD~1
    .venv/bin/python -m bench.engine_compare --against 46484f9 --rounds 5 --matches 6 --games anno1503

Exports the ``engine/`` package of git revision ``--against`` to a temporary
directory and runs ``bench.engine_bench --json`` (the same seeded random
matches, CPU time of one pinned process) once with this checkout's engine
and once with that one, ``--rounds`` times, alternating which goes first, so
that a shared machine's load falls on both alike. Prints per game, variant
and player count the actions/s of each tree (median over rounds) and the
ratio this tree / REV with a 95% interval over the rounds (geometric mean,
Student's t on the log ratios), then the same over every row. A ratio of 1
or more is "no slower".

Compiled rules (``engine/native.py``): when this checkout runs its build,
REV's engine is compiled too (bench/compiled_trees.py), so that compiled is
compared with compiled. ``TABULA_NATIVE=0`` compares plain with plain.
"""

import argparse
import json
import math
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from .compiled_trees import rev_rules_dir, rules_paths, tree_env
from .ladder.cost import ROOT, export_tree
from .stats import geometric_interval


def run_tree(tree, bench_args, native_dirs):
    """engine_bench's rows with the engine of ``tree`` (None: this checkout).
    ``python -m`` puts its working directory (the tree) first on the path;
    ``PYTHONPATH`` adds this checkout, for bench."""
    done = subprocess.run(
        [sys.executable, "-m", "bench.engine_bench", "--json", *bench_args],
        check=True,
        capture_output=True,
        text=True,
        cwd=tree or ROOT,
        env=tree_env(native_dirs.get(tree)),
    )
    return {(r["game"], r["variant"], r["players"]): r for r in map(json.loads, done.stdout.splitlines())}


def compare(args, old_tree, native_dirs):
    """``{row key: (this tree's rates, REV's rates)}`` over the rounds."""
    bench_args = ["--games", args.games, "--matches", str(args.matches), "--players", args.players]
    rates = {}
    for round_no in range(args.rounds):
        order = [None, old_tree] if round_no % 2 == 0 else [old_tree, None]
        rows = {tree: run_tree(tree, bench_args, native_dirs) for tree in order}
        for key, row in rows[None].items():
            new, old = rates.setdefault(key, ([], []))
            new.append(row["actions_per_s"])
            old.append(rows[old_tree][key]["actions_per_s"])
        if round_no == 0:
            ours, theirs = (next(iter(rows[tree].values()))["rules"] for tree in (None, old_tree))
            print(f"rules: this tree {ours}; REV {theirs}", file=sys.stderr, flush=True)
        print(f"round {round_no + 1}/{args.rounds} done", file=sys.stderr, flush=True)
    return rates


def report(rates, against):
    print(
        f"{'game':<10} {'variant':<20} {'players':>7} {'this tree':>10} {against[:10]:>10} "
        f"{'ratio':>6}  95% interval"
    )
    every = []
    for (game, variant, players), (new, old) in rates.items():
        logs = [math.log(n / o) for n, o in zip(new, old)]
        every.extend(logs)
        ratio, low, high = geometric_interval(logs)
        print(
            f"{game:<10} {variant:<20} {players:>7} {statistics.median(new):>10.0f} "
            f"{statistics.median(old):>10.0f} {ratio:>6.3f}  [{low:.3f}, {high:.3f}]"
        )
    ratio, low, high = geometric_interval(every)
    print(
        f"all rows: ratio this tree / {against}: {ratio:.3f}, 95% interval [{low:.3f}, {high:.3f}] "
        f"({len(every)} row-rounds)"
    )


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", required=True, help="git revision to compare with (e.g. HEAD~1)")
    parser.add_argument("--rounds", type=int, default=3, help="runs of each tree, alternating")
    parser.add_argument("--games", default="anno1503,anno1452", help="comma-separated game ids")
    parser.add_argument("--matches", type=int, default=4, help="matches per player count and round")
    parser.add_argument("--players", default="", help="comma-separated player counts (default: all)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as scratch:
        old_tree = export_tree(args.against, Path(scratch), rules_paths(args.against))
        native_dirs = {old_tree: rev_rules_dir(args.against, old_tree)}
        report(compare(args, old_tree, native_dirs), args.against)


if __name__ == "__main__":
    main()
