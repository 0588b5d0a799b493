"""Board pictures: SVG size and render time per game and variant.

    .venv/bin/python -m bench.board_bench                 # every variant, 40 positions each
    .venv/bin/python -m bench.board_bench --positions 100 --repeat 5

For each variant, plays one seeded random match and keeps ``--positions``
positions spread over it; for each position, draws the view of the seat to
act and the spectator's with ``engine.render.board_svg`` ``--repeat`` times
each. Prints, per variant: renders timed, SVG size (median and max, KiB),
and render time (median, p99, ms of this process's CPU time). The view is
built outside the timing: it is the Match's anyway; only the drawing is
the picture's own cost.
"""

import argparse
import random
import statistics
import time

import engine
from engine.render import board_svg

VARIANTS = [
    ("anno1503", "base", {"expansion": "none"}, 4),
    ("anno1503", "pirates_aristocrats", {"expansion": "pirates_aristocrats"}, 4),
    ("anno1452", "basic standard", {"rules": "basic", "scenario": "standard"}, 4),
    ("anno1452", "expert standard", {"rules": "expert", "scenario": "standard"}, 4),
    ("anno1452", "expert ottokar_a", {"rules": "expert", "scenario": "ottokar_a"}, 2),
    ("anno1452", "basic ottokar_b", {"rules": "basic", "scenario": "ottokar_b"}, 3),
]


def positions(game, options, players, count, seed=7, max_actions=3000):
    """``count`` (state, seat) pairs spread over one seeded random match."""
    rng = random.Random(seed)
    state = game.setup(players, options, seed)
    seen = []
    while game.outcome(state) is None and len(seen) < max_actions:
        seat = game.to_act(state)[0]
        seen.append((state, seat))
        state, _ = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
    seen.append((state, None))
    step = max(1, len(seen) // count)
    return seen[::step][:count]


def percentile(values, share):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def measure(game, options, players, count, repeat):
    sizes, times = [], []
    for state, seat in positions(game, options, players, count):
        for viewer in {seat, None}:
            view = game.view(state, viewer)
            for _ in range(repeat):
                start = time.process_time()
                svg = board_svg(view, viewer)
                times.append(time.process_time() - start)
            sizes.append(len(svg.encode()))
    return sizes, times


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(
        f"{'game':9} {'variant':20} {'renders':>7} {'KiB med':>8} {'KiB max':>8} {'ms med':>7} {'ms p99':>7}"
    )
    for game_id, label, options, players in VARIANTS:
        sizes, times = measure(engine.get_game(game_id), options, players, args.positions, args.repeat)
        print(
            f"{game_id:9} {label:20} {len(times):7d} {statistics.median(sizes) / 1024:8.1f} "
            f"{max(sizes) / 1024:8.1f} {statistics.median(times) * 1000:7.2f} "
            f"{percentile(times, 0.99) * 1000:7.2f}"
        )


if __name__ == "__main__":
    main()
