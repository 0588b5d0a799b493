"""Anno 1452's random-match throughput per rules and scenario variant.

    .venv/bin/python -m bench.anno1452_bench --matches 10

Plays seeded matches (seeds 1000, 1001, ...) with the uniform random player,
through ``bench.engine_bench``'s loop (the way ``engine.runner.play_match``
plays), and prints matches/s and actions/s per variant, in CPU seconds of
this process. ``bench.engine_bench`` covers the rules at every player
count; this adds the Ottokar scenarios at the player counts they are for.
"""

import argparse

import engine

from .engine_bench import bench_count

VARIANTS = [
    ("basic", 3, {}),
    ("basic", 4, {}),
    ("expert", 3, {"rules": "expert"}),
    ("expert", 4, {"rules": "expert"}),
    ("ottokar_a", 2, {"scenario": "ottokar_a"}),
    ("ottokar_b", 3, {"scenario": "ottokar_b"}),
    ("ottokar_a+expert", 2, {"scenario": "ottokar_a", "rules": "expert"}),
]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=10)
    args = parser.parse_args(argv)
    game = engine.get_game("anno1452")
    print(f"{'variant':<18} {'players':>7} {'matches/s':>10} {'actions/s':>10} {'mean actions':>13}")
    for name, players, options in VARIANTS:
        r = bench_count(game, players, options, args.matches, with_view=False, max_actions=10**7)
        assert not r["unfinished"], f"{name}: a match did not end"
        print(
            f"{name:<18} {players:>7} {r['matches_per_s']:>10.2f} {r['actions_per_s']:>10.0f} {r['mean']:>13.0f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
