"""``cost``: what one AI level's heaviest decisions cost, here and at another revision.

Plays seeded matches with the level in every seat, keeps its decisions
with the most legal actions (the costly ones: hundreds of settles with 4
players in Anno 1452), and times each one (the fastest of ``--repeats``
runs on the same view and seed). With ``--against REV`` it times the same
decisions with the engine of git revision ``REV`` as well, in rounds that
alternate between the two trees, so that a shared machine's load falls on
both alike, and prints the ratio; it also says whether the two chose the
same actions (a speed-up must not change what a level plays).

Each tree is timed in a process of its own (``cost-worker``), started in
that tree's directory so that it imports that tree's ``engine``; the
decisions go to it as a JSON file and its times come back as JSON.
"""

import hashlib
import json
import os
import statistics
import subprocess
import sys
import tarfile
import time
from io import BytesIO
from pathlib import Path

import engine
from engine.runner import play_match

ROOT = Path(__file__).resolve().parents[2]


def parse_options(text):
    """``rules=expert,scenario=standard`` -> ``{"rules": "expert", "scenario": "standard"}``."""
    return dict(pair.split("=", 1) for pair in text.split(",") if pair)


class _Catcher:
    """Plays as ``player`` and keeps every decision it is asked."""

    def __init__(self, player, caught):
        self.player, self.caught = player, caught

    def choose(self, game, seat, view, actions, seed=0):
        self.caught.append([seat, view, actions, seed])
        return self.player.choose(game, seat, view, actions, seed=seed)


def capture(args):
    """The level's decisions with the most legal actions: ``[[seat, view, actions, seed]]``."""
    game, player = engine.get_game(args.game), engine.ai.get_player(args.level)
    caught = []
    options = parse_options(args.options)
    for seed in range(args.seed, args.seed + args.matches):
        play_match(
            game,
            [_Catcher(player, caught)] * args.players,
            seed=seed,
            options=options,
            max_actions=args.max_actions,
        )
    caught.sort(key=lambda c: -len(c[2]))
    return caught[: args.heaviest]


def time_decisions(game_id, level, path, repeats):
    """Each decision's fastest time with the ``engine`` this process imports,
    a digest of the actions chosen, and (where the level searches) how many
    searches its wall-clock cap cut short."""
    game, player = engine.get_game(game_id), engine.ai.get_player(level)
    times, chosen = [], []
    for seat, view, actions, seed in json.loads(Path(path).read_text()):
        best = float("inf")
        for _ in range(repeats):
            start = time.perf_counter()
            action = player.choose(game, seat, view, actions, seed=seed)
            best = min(best, time.perf_counter() - start)
        times.append(best)
        chosen.append(action)
    digest = hashlib.sha256(json.dumps(chosen, sort_keys=True).encode()).hexdigest()[:16]
    own = player.for_game(game_id) if hasattr(player, "for_game") else None
    return {"times": times, "digest": digest, "capped": getattr(own, "capped", None)}


def export_tree(revision, into, paths=("engine",)):
    """``paths`` of ``revision`` (by default the engine package; none: the
    whole tree), unpacked under ``into``."""
    archive = subprocess.run(
        ["git", "archive", revision, *paths], cwd=ROOT, check=True, capture_output=True
    ).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return Path(into)


def timed_in_process(root, args, path):
    """``time_decisions`` in a child started in ``root``: ``python -m`` puts
    that directory first on the path, ``PYTHONPATH`` adds this tree's bench."""
    command = [
        sys.executable,
        "-m",
        "bench.ladder",
        "cost-worker",
        "--decisions",
        str(path),
        "--game",
        args.game,
        "--level",
        args.level,
        "--repeats",
        str(args.repeats),
    ]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(command, check=True, capture_output=True, text=True, cwd=root, env=env)
    return json.loads(done.stdout)


def summary(label, times):
    ms = sorted(t * 1000 for t in times)
    p95 = ms[min(len(ms) - 1, max(0, -(-95 * len(ms) // 100) - 1))]
    return (
        f"{label:>10}: sum {sum(ms):8.1f} ms  median {statistics.median(ms):6.2f} ms  "
        f"p95 {p95:6.2f} ms  max {max(ms):6.2f} ms"
    )


def compare(args, trees, path):
    """Times every tree in ``args.rounds`` alternating rounds; per decision
    the fastest time of all rounds."""
    best, digests, capped = {}, {}, {}
    for _ in range(args.rounds):
        for label, root in trees.items():
            out = timed_in_process(root, args, path)
            old = best.get(label, [float("inf")] * len(out["times"]))
            best[label] = [min(a, b) for a, b in zip(old, out["times"])]
            digests.setdefault(label, set()).add(out["digest"])
            if out["capped"] is not None:
                capped[label] = capped.get(label, 0) + out["capped"]
    return best, digests, capped


def report(best, digests, capped, decisions, out):
    counts = [len(actions) for _, _, actions, _ in decisions]
    print(f"{len(decisions)} decisions, {min(counts)}-{max(counts)} legal actions each", file=out)
    for label, times in best.items():
        print(summary(label, times), file=out)
    if len(best) == 2:
        (_, new), (against, old) = best.items()
        ratios = [n / o for n, o in zip(new, old)]
        print(
            f"ratio this tree / {against}: sum {sum(new) / sum(old):.3f}  "
            f"median per decision {statistics.median(ratios):.3f}  max per decision {max(ratios):.3f}",
            file=out,
        )
    same = len(set().union(*digests.values())) == 1
    print(f"same actions chosen in every tree and round: {'yes' if same else 'NO'}", file=out)
    for label, n in capped.items():
        print(f"{label}: searches cut short by the wall-clock cap: {n}", file=out)


def cost(args, out, scratch):
    """The whole comparison; ``scratch`` is a temporary directory."""
    decisions = capture(args)
    path = Path(scratch) / "decisions.json"
    path.write_text(json.dumps(decisions))
    trees = {"this tree": ROOT}
    if args.against:
        trees[args.against] = export_tree(args.against, Path(scratch) / "against")
    best, digests, capped = compare(args, trees, path)
    report(best, digests, capped, decisions, out)
