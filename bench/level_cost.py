"""What one AI level's heaviest decisions cost, here and at another revision.

Plays seeded matches with the level in every seat, keeps its decisions
with the most legal actions (the costly ones: hundreds of settles with 4
players in Anno 1452), and times each one (the fastest of ``--repeats``
runs on the same view and seed). With ``--against REV`` it times the same
decisions with the engine of git revision ``REV`` as well, in rounds that
alternate between the two trees, so that a shared machine's load falls on
both alike, and prints the ratio; it also says whether the two chose the
same actions (a speed-up must not change what a level plays).

    .venv/bin/python bench/level_cost.py --against HEAD~1
    .venv/bin/python bench/level_cost.py --game anno1503 --options expansion=none --players 4

Each tree is timed in a process of its own (``--time``), which imports
that tree's ``engine``.
"""

import argparse
import hashlib
import json
import pickle
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def parse_options(text):
    """``rules=expert,scenario=standard`` -> ``{"rules": "expert", "scenario": "standard"}``."""
    return dict(pair.split("=", 1) for pair in text.split(",") if pair)


def capture(args):
    """The level's decisions with the most legal actions: ``[(seat, view, actions, seed)]``."""
    sys.path.insert(0, str(ROOT))
    import engine
    from engine.runner import play_match

    game, player = engine.get_game(args.game), engine.ai.get_player(args.level)
    caught = []

    class Catcher:
        def choose(self, game, seat, view, actions, seed=0):
            caught.append((seat, view, actions, seed))
            return player.choose(game, seat, view, actions, seed=seed)

    options = parse_options(args.options)
    for seed in range(args.seed, args.seed + args.matches):
        play_match(game, [Catcher()] * args.players, seed=seed, options=options, max_actions=5000)
    caught.sort(key=lambda c: -len(c[2]))
    return caught[:args.heaviest]


def time_decisions(root, game_id, level, path, repeats):
    """Runs in its own process: each decision's fastest time with ``root``'s
    engine, and a digest of the actions chosen."""
    sys.path.insert(0, str(root))
    import engine

    game, player = engine.get_game(game_id), engine.ai.get_player(level)
    times, chosen = [], []
    for seat, view, actions, seed in pickle.loads(Path(path).read_bytes()):
        best = float("inf")
        for _ in range(repeats):
            start = time.perf_counter()
            action = player.choose(game, seat, view, actions, seed=seed)
            best = min(best, time.perf_counter() - start)
        times.append(best)
        chosen.append(action)
    digest = hashlib.sha256(json.dumps(chosen, sort_keys=True).encode()).hexdigest()[:16]
    return {"times": times, "digest": digest}


def export_tree(revision, into):
    """The engine package of ``revision``, unpacked under ``into``."""
    archive = subprocess.run(["git", "archive", revision, "engine"], cwd=ROOT, check=True,
                             capture_output=True).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return Path(into)


def timed_in_process(root, args, path):
    command = [sys.executable, __file__, "--time", str(root), "--decisions", str(path),
               "--game", args.game, "--level", args.level, "--repeats", str(args.repeats)]
    return json.loads(subprocess.run(command, check=True, capture_output=True, text=True).stdout)


def summary(label, times):
    ms = [t * 1000 for t in times]
    return (f"{label:>10}: sum {sum(ms):8.1f} ms  median {statistics.median(ms):6.2f} ms  "
            f"max {max(ms):6.2f} ms")


def compare(args, trees, path):
    """Times every tree in ``args.rounds`` alternating rounds; per decision
    the fastest time of all rounds."""
    best = {}
    digests = {}
    for _ in range(args.rounds):
        for label, root in trees.items():
            out = timed_in_process(root, args, path)
            old = best.get(label, [float("inf")] * len(out["times"]))
            best[label] = [min(a, b) for a, b in zip(old, out["times"])]
            digests.setdefault(label, set()).add(out["digest"])
    return best, digests


def report(best, digests, decisions):
    counts = [len(actions) for _, _, actions, _ in decisions]
    print(f"{len(decisions)} decisions, {min(counts)}-{max(counts)} legal actions each")
    for label, times in best.items():
        print(summary(label, times))
    if len(best) == 2:
        (_, new), (against, old) = best.items()
        ratios = [n / o for n, o in zip(new, old)]
        print(f"ratio this tree / {against}: sum {sum(new) / sum(old):.3f}  "
              f"median per decision {statistics.median(ratios):.3f}  max per decision {max(ratios):.3f}")
    same = len(set().union(*digests.values())) == 1
    print(f"same actions chosen in every tree and round: {'yes' if same else 'NO'}")


def arguments():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="anno1452")
    parser.add_argument("--options", default="rules=expert,scenario=standard",
                        help="the game's options as name=value,name=value")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--level", default="medium")
    parser.add_argument("--matches", type=int, default=6, help="matches played to find decisions")
    parser.add_argument("--seed", type=int, default=90001, help="first match seed")
    parser.add_argument("--heaviest", type=int, default=60, help="decisions kept, most legal actions first")
    parser.add_argument("--repeats", type=int, default=5, help="runs per decision in a round")
    parser.add_argument("--rounds", type=int, default=4, help="alternating rounds per tree")
    parser.add_argument("--against", default=None, help="a git revision to time as well")
    parser.add_argument("--time", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--decisions", default=None, help=argparse.SUPPRESS)
    return parser


def main(argv=None):
    args = arguments().parse_args(argv)
    if args.time:
        print(json.dumps(time_decisions(args.time, args.game, args.level, args.decisions, args.repeats)))
        return
    decisions = capture(args)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "decisions.pickle"
        path.write_bytes(pickle.dumps(decisions))
        trees = {"this tree": ROOT}
        if args.against:
            trees[args.against] = export_tree(args.against, Path(tmp) / "against")
        best, digests = compare(args, trees, path)
    report(best, digests, decisions)


if __name__ == "__main__":
    main()
