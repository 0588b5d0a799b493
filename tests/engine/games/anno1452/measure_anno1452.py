"""Random-match throughput of Anno 1452 per variant (not a test).

    .venv/bin/python tests/engine/games/anno1452/measure_anno1452.py --matches 10

Plays seeded matches with the uniform random player exactly as
``engine.runner.play_match`` does and prints matches/s and actions/s per
variant, in CPU seconds of this process.
"""

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[4]))

from engine.ai import RandomPlayer
from engine.games.anno1452 import Anno1452
from engine.runner import play_match

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
    parser = argparse.ArgumentParser()
    parser.add_argument("--matches", type=int, default=10)
    args = parser.parse_args(argv)
    game = Anno1452()
    print(f"{'variant':<18} {'players':>7} {'matches/s':>10} {'actions/s':>10} {'mean actions':>13}")
    for name, players, options in VARIANTS:
        start, actions = time.process_time(), 0
        for seed in range(1000, 1000 + args.matches):
            record = play_match(game, [RandomPlayer()] * players, seed=seed, options=options)
            assert record.outcome is not None
            actions += len(record.actions)
        spent = time.process_time() - start
        print(
            f"{name:<18} {players:>7} {args.matches / spent:>10.2f} {actions / spent:>10.0f} "
            f"{actions / args.matches:>13.0f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
