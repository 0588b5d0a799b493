"""Catanatron's own random players, timed: the reference column of
``bench.engine_bench --catanatron``.

    .venv-bench/bin/python bench/catanatron_worker.py --players 4 --matches 10 --core 0

Run by the benchmark's own virtualenv (``.venv-bench``, catanatron pinned in
``bench/requirements-catanatron.txt``), never the project's: it imports
nothing of Tabula. Plays ``--matches`` seeded Catan matches of catanatron's
``RandomPlayer`` (uniform over its legal actions) to the end, pinned to
``--core``, and prints one JSON object: players, matches, actions (the
actions the game recorded) and the process's CPU seconds.
"""

import argparse
import json
import os
import time


def main():
    # Imported here: the module must import in the project's venv too (tests/bench).
    from catanatron import Color, Game, RandomPlayer

    colors = (Color.RED, Color.BLUE, Color.WHITE, Color.ORANGE)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--matches", type=int, default=10)
    parser.add_argument("--first-seed", type=int, default=1000)
    parser.add_argument("--core", type=int, default=None)
    args = parser.parse_args()
    if args.core is not None:
        os.sched_setaffinity(0, {args.core})
    actions = 0
    start = time.process_time()
    for i in range(args.matches):
        game = Game([RandomPlayer(color) for color in colors[: args.players]], seed=args.first_seed + i)
        game.play()
        actions += len(game.state.actions)
    seconds = time.process_time() - start
    print(
        json.dumps({"players": args.players, "matches": args.matches, "actions": actions, "seconds": seconds})
    )


if __name__ == "__main__":
    main()
