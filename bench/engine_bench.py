"""Engine benchmark: random matches through the public API, one process.

    .venv/bin/python -m bench.engine_bench                       # every game, defaults
    .venv/bin/python -m bench.engine_bench --games anno1503 --matches 20
    .venv/bin/python -m bench.engine_bench --with-view           # also build the view per step
    .venv/bin/python -m bench.engine_bench --catanatron --rounds 5 --matches 6   # against catanatron

For each game of ``VARIANTS``, each variant and each player count, plays
``--matches`` seeded matches with the uniform random player, exactly as
``engine.runner.play_match`` does (``to_act``, ``legal_actions``, the
player's ``choose``, ``apply``, until ``outcome``), and prints per player
count: matches, actions, matches/s, actions/s, mean actions per match, and
the distribution of actions per match (min / median / p90 / max). Rates are
per second of this process's CPU time (``time.process_time``), so other
work on a shared machine does not skew them much; the process is pinned to
one core when the OS allows it.

``--catanatron`` adds the reference: catanatron's own random players (Catan,
2-4 players) in the benchmark's own virtualenv ``.venv-bench`` (created on
first use with ``bench/requirements-catanatron.txt``, pinned), run by
``bench/catanatron_worker.py`` pinned to the same core. ``--rounds`` rounds
alternate which of the two goes first at each player count, and each row
prints both rates (medians over the rounds) and the ratio engine /
catanatron with a 95% interval over the rounds (issue 45: Anno 1452 at
least 1).
"""

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import time
import venv
from pathlib import Path

# The engine measured is the first on the path: this checkout's, or an
# exported earlier revision's (bench/engine_compare.py runs this module
# from that tree's directory, with this checkout on PYTHONPATH for bench).
import engine
from engine.rng import mix_seed

from .stats import geometric_interval

# game id -> [(variant label, options)]; add a variant or a game with one line.
VARIANTS = {
    "anno1503": [("base", {}), ("pirates_aristocrats", {"expansion": "pirates_aristocrats"})],
    "anno1452": [("basic", {"rules": "basic"}), ("expert", {"rules": "expert"})],
}
FIRST_SEED = 1000


def play_one(game, num_players, options, seed, player, with_view, max_actions):
    """Play one match; return ``(actions, finished)``."""
    state = game.setup(num_players, options, seed)
    step = 0
    while step < max_actions and game.outcome(state) is None:
        seat = game.to_act(state)[0]
        actions = game.legal_actions(state, seat)
        view = game.view(state, seat) if with_view else None
        action = player.choose(game, seat, view, actions, seed=mix_seed(seed, step))
        state, _events = game.apply(state, seat, action)
        step += 1
    return step, game.outcome(state) is not None


def bench_count(game, num_players, options, matches, with_view, max_actions):
    """Figures for one player count, as a dict."""
    player = engine.ai.get_player("random")
    lengths, unfinished = [], 0
    start = time.process_time()
    for i in range(matches):
        n, finished = play_one(game, num_players, options, FIRST_SEED + i, player, with_view, max_actions)
        lengths.append(n)
        unfinished += not finished
    elapsed = time.process_time() - start
    ordered = sorted(lengths)
    return {
        "players": num_players,
        "matches": matches,
        "actions": sum(lengths),
        "seconds": elapsed,
        "matches_per_s": matches / elapsed,
        "actions_per_s": sum(lengths) / elapsed,
        "mean": statistics.mean(lengths),
        "min": ordered[0],
        "median": statistics.median(ordered),
        "p90": ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))],
        "max": ordered[-1],
        "unfinished": unfinished,
    }


_HEADER = (
    f"{'game':<10} {'variant':<8} {'players':>7} {'matches':>7} {'actions':>9} "
    f"{'matches/s':>9} {'actions/s':>9} {'mean':>8} {'min':>6} {'median':>8} {'p90':>8} {'max':>8}"
)


def format_row(game_id, variant, r):
    row = (
        f"{game_id:<10} {variant:<8} {r['players']:>7} {r['matches']:>7} {r['actions']:>9} "
        f"{r['matches_per_s']:>9.2f} {r['actions_per_s']:>9.0f} {r['mean']:>8.0f} {r['min']:>6} "
        f"{r['median']:>8.0f} {r['p90']:>8} {r['max']:>8}"
    )
    if r["unfinished"]:
        row += f"  ({r['unfinished']} cut off at --max-actions)"
    return row


def pin_to_one_core():
    """Measure one core, as the target is stated (best effort); returns it."""
    if hasattr(os, "sched_setaffinity"):
        try:
            core = min(os.sched_getaffinity(0))
            os.sched_setaffinity(0, {core})
            return core
        except OSError:
            pass
    return None


BENCH_DIR = Path(__file__).resolve().parent
BENCH_VENV = BENCH_DIR.parent / ".venv-bench"


def bench_python():
    """``.venv-bench``'s interpreter, with catanatron installed (first use:
    created and installed from ``bench/requirements-catanatron.txt``)."""
    python = BENCH_VENV / "bin" / "python"
    stamp = BENCH_VENV / ".installed"
    requirements = BENCH_DIR / "requirements-catanatron.txt"
    if not stamp.exists() or stamp.read_text() != requirements.read_text():
        venv.create(BENCH_VENV, with_pip=True)
        subprocess.run([python, "-m", "pip", "install", "-q", "-r", requirements], check=True)
        stamp.write_text(requirements.read_text())
    return python


def catanatron_rate(python, num_players, matches, core):
    """Catanatron's random-play actions/s at ``num_players`` (its own process)."""
    command = [
        python,
        BENCH_DIR / "catanatron_worker.py",
        "--players",
        str(num_players),
        "--matches",
        str(matches),
    ]
    if core is not None:
        command += ["--core", str(core)]
    row = json.loads(subprocess.run(command, check=True, capture_output=True, text=True).stdout)
    return row["actions"] / row["seconds"]


def against_catanatron(rows, args, core):
    """``{(game, variant, players): ([engine rates], [catanatron rates])}``
    over ``--rounds``; at each player count the two take turns going first."""
    python = bench_python()
    rates = {}
    for round_no in range(args.rounds):
        for n in sorted({players for _, _, _, players in rows}):
            engine_first = (round_no + n) % 2 == 0
            if not engine_first:
                reference = catanatron_rate(python, n, args.matches, core)
            for game, variant, options, players in rows:
                if players == n:
                    r = bench_count(game, n, options, args.matches, args.with_view, args.max_actions)
                    rates.setdefault((game.id, variant, n), ([], []))[0].append(r["actions_per_s"])
            if engine_first:
                reference = catanatron_rate(python, n, args.matches, core)
            for key, (_, theirs) in rates.items():
                if key[2] == n:
                    theirs.append(reference)
        print(f"round {round_no + 1}/{args.rounds} done", file=sys.stderr, flush=True)
    return rates


def report_against_catanatron(rates):
    print(
        f"{'game':<10} {'variant':<20} {'players':>7} {'actions/s':>10} {'catanatron':>10} {'ratio':>6}  95% interval"
    )
    for (game, variant, players), (ours, theirs) in rates.items():
        ratio, low, high = geometric_interval([math.log(a / b) for a, b in zip(ours, theirs)])
        print(
            f"{game:<10} {variant:<20} {players:>7} {statistics.median(ours):>10.0f} "
            f"{statistics.median(theirs):>10.0f} {ratio:>6.2f}  [{low:.2f}, {high:.2f}]",
            flush=True,
        )


def rules_build():
    """Which Anno 1452 rules this process runs: compiled (engine/native.py) or not."""
    try:
        from engine import native
    except ImportError:  # a revision before the compiled rules (engine_compare)
        return "plain Python"
    return "compiled (build/native)" if native.active() else "plain Python (no fresh build)"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default=",".join(VARIANTS), help="comma-separated game ids")
    parser.add_argument("--matches", type=int, default=10, help="matches per player count")
    parser.add_argument("--players", default="", help="comma-separated player counts (default: all)")
    parser.add_argument("--with-view", action="store_true", help="also build the seat's view per step")
    parser.add_argument("--max-actions", type=int, default=10**7, help="cut a match off after this many")
    parser.add_argument("--json", action="store_true", help="one JSON object per row instead of the table")
    parser.add_argument("--catanatron", action="store_true", help="ratios against catanatron (2-4 players)")
    parser.add_argument("--rounds", type=int, default=3, help="with --catanatron: rounds, alternating")
    args = parser.parse_args(argv)
    core = pin_to_one_core()
    counts = {int(n) for n in args.players.split(",") if n}
    if args.catanatron:
        counts = (counts or {2, 3, 4}) & {2, 3, 4}  # Catan's player counts
    rows = []
    for game_id in args.games.split(","):
        if game_id not in VARIANTS:
            parser.error(f"no benchmark variants for {game_id!r}; known: {', '.join(VARIANTS)}")
        game = engine.get_game(game_id)
        for variant, options in VARIANTS[game_id]:
            rows += [
                (game, variant, options, n)
                for n in range(game.min_players, game.max_players + 1)
                if not counts or n in counts
            ]
    if not args.json:
        print(f"Anno 1452's rules: {rules_build()}")
    if args.catanatron:
        report_against_catanatron(against_catanatron(rows, args, core))
        return
    if not args.json:
        print(_HEADER)
    build = rules_build()
    for game, variant, options, n in rows:
        r = bench_count(game, n, options, args.matches, args.with_view, args.max_actions)
        line = json.dumps({"game": game.id, "variant": variant, "rules": build, **r}) if args.json else None
        print(line or format_row(game.id, variant, r), flush=True)


if __name__ == "__main__":
    main()
