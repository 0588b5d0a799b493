"""Replay one pairing of the AI ladder and list a level's slow decisions.

The ladder keeps, per level and pairing, only the slowest raw and steady
(re-timed) decision time. When a steady maximum is over its target, this
replays the pairing's matches (the same tasks, seeds and players; ``hard``
is reproducible for a seed unless its wall-clock deadline cuts a search
short) and prints every decision of the level whose steady time is over
``--over``: the match, the decision seed, what was being decided and how
many legal actions it had, so it can be looked at on its own.

    .venv/bin/python bench/ladder_slow.py --variant "anno1452 rules=expert scenario=ottokar_b" \\
        --pairing hard-medium --level medium --over 0.02

``--pairing field`` replays the variant's hard-against-the-field run.
``--first`` and ``--count`` replay part of the pairing's matches.
"""

import argparse
import collections
import sys
from multiprocessing import Pool
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parent)]

import ai_ladder  # noqa: E402


class SlowLog(ai_ladder.TimedPlayer):
    """A ``TimedPlayer`` that also notes its decisions slower than ``over`` (steady)."""

    def __init__(self, level, hard_options, over):
        super().__init__(level, hard_options)
        self.over = over
        self.slow = []

    def choose(self, game, seat, view, actions, seed=0):
        timed_before = len(self.steady)
        action = super().choose(game, seat, view, actions, seed)
        if len(self.steady) > timed_before and self.steady[-1] > self.over:
            self.slow.append({
                "decision_seed": seed, "seat": seat, "raw_ms": round(self.times[-1] * 1000, 1),
                "steady_ms": round(self.steady[-1] * 1000, 1), "decision": _decision_kind(view),
                "legal_actions": dict(collections.Counter(a.get("type") for a in actions))})
        return action


def _decision_kind(view):
    return (view.get("decision") or {}).get("kind")


def replay(job):
    """(index, task, level, over) -> (index, task, result, the level's slow decisions)."""
    index, task, level, over = job
    players = {lv: SlowLog(lv, task[4], over) for lv in set(task[2])}
    result = ai_ladder.play_match(task, players)
    return index, task, result, players[level].slow


def pairing_tasks(args, game_id, options, largest):
    if args.pairing == "field":
        return ai_ladder.field_tasks(args, game_id, options, largest)
    return ai_ladder.duel_tasks(args, game_id, options, ai_ladder.PAIRING_NAMES.index(args.pairing))


def find_variant(label):
    for game_id, options, _, largest in ai_ladder.VARIANTS:
        if ai_ladder.variant_label(game_id, options) == label:
            return game_id, options, largest
    raise SystemExit(f"no variant labelled {label!r}")


def arguments():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--variant", required=True, help="a variant's label as the ladder prints it")
    parser.add_argument("--pairing", required=True, choices=ai_ladder.PAIRING_NAMES + ["field"],
                        help="a head-to-head pairing or the hard-against-the-field run")
    parser.add_argument("--level", default="medium", help="whose decisions to list")
    parser.add_argument("--over", type=float, default=0.02, help="list steady times over this (seconds)")
    parser.add_argument("--first", type=int, default=0, help="first match (index in the pairing)")
    parser.add_argument("--count", type=int, default=None, help="how many matches (default: the rest)")
    ai_ladder.add_match_options(parser)
    return parser


def main(argv=None):
    args = arguments().parse_args(argv)
    game_id, options, largest = find_variant(args.variant)
    tasks = pairing_tasks(args, game_id, options, largest)
    end = len(tasks) if args.count is None else args.first + args.count
    jobs = [(i, tasks[i], args.level, args.over) for i in range(args.first, min(end, len(tasks)))]
    worst = 0.0
    with Pool(args.jobs) as pool:
        for index, task, result, slow in pool.imap_unordered(replay, jobs):
            timing = result.timing.get(args.level)
            steady_max = timing.steady_max if timing else 0.0
            worst = max(worst, steady_max)
            print(f"match {index} seed {task[3]} levels {'/'.join(task[2])}: {args.level} steady max "
                  f"{steady_max * 1000:.1f} ms", flush=True)
            for entry in slow:
                print(f"  slow {entry}", flush=True)
    print(f"{len(jobs)} matches replayed; {args.level} steady max {worst * 1000:.1f} ms")


if __name__ == "__main__":
    main()
