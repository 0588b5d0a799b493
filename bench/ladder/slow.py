"""``slow``: replay one pairing of the ladder and list a level's slow decisions.

The ladder keeps, per level and pairing, only the slowest raw and steady
(re-timed) decision time. When a steady maximum is over its target, this
replays the pairing's matches (the same tasks, seeds and players; ``hard``
is reproducible for a seed unless its wall-clock cap cuts a search short)
and prints every decision of the level whose steady time is over
``--over``: the match, the decision seed, what was being decided and how
many legal actions it had, so it can be looked at on its own. Each match
is replayed in a worker process; its task and findings cross as JSON.
"""

import collections
import json
from concurrent.futures import ProcessPoolExecutor

from . import matches, run


class SlowLog(matches.TimedPlayer):
    """A ``TimedPlayer`` that also notes its decisions slower than ``over`` (steady)."""

    def __init__(self, level, hard_options, over):
        super().__init__(level, hard_options)
        self.over = over
        self.slow = []

    def choose(self, game, seat, view, actions, seed=0):
        timed_before = len(self.steady)
        action = super().choose(game, seat, view, actions, seed)
        if len(self.steady) > timed_before and self.steady[-1] > self.over:
            self.slow.append(
                {
                    "decision_seed": seed,
                    "seat": seat,
                    "raw_ms": round(self.times[-1] * 1000, 1),
                    "steady_ms": round(self.steady[-1] * 1000, 1),
                    "decision": _decision_kind(view),
                    "legal_actions": dict(collections.Counter(a.get("type") for a in actions)),
                }
            )
        return action


def _decision_kind(view):
    return (view.get("decision") or {}).get("kind")


def replay_json(job_json):
    """Runs in a worker: ``{"task", "level", "over"}`` in, ``{"steady_max", "slow"}`` out (JSON)."""
    job = json.loads(job_json)
    task = job["task"]
    players = {lv: SlowLog(lv, task["hard"], job["over"]) for lv in set(task["levels"])}
    result, _ = matches.play_match(task, players)
    own = result["timing"].get(job["level"])
    return json.dumps({"steady_max": own.steady_max if own else 0.0, "slow": players[job["level"]].slow})


def pairing_tasks(args, game_id, options, largest):
    if args.pairing == "field":
        return run.field_tasks(args, game_id, options, largest)
    return run.duel_tasks(args, game_id, options, matches.PAIRING_NAMES.index(args.pairing))


def find_variant(label):
    for game_id, options, _, largest in matches.VARIANTS:
        if matches.variant_label(game_id, options) == label:
            return game_id, options, largest
    raise SystemExit(f"no variant labelled {label!r}")


def slow(args, out):
    game_id, options, largest = find_variant(args.variant)
    tasks = pairing_tasks(args, game_id, options, largest)
    end = len(tasks) if args.count is None else args.first + args.count
    picked = list(range(args.first, min(end, len(tasks))))
    worst = 0.0
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        jobs = [json.dumps({"task": tasks[i], "level": args.level, "over": args.over}) for i in picked]
        for index, found in zip(picked, pool.map(replay_json, jobs)):
            found = json.loads(found)
            worst = max(worst, found["steady_max"])
            task = tasks[index]
            print(
                f"match {index} seed {task['seed']} levels {'/'.join(task['levels'])}: {args.level} steady max "
                f"{found['steady_max'] * 1000:.1f} ms",
                file=out,
                flush=True,
            )
            for entry in found["slow"]:
                print(f"  slow {entry}", file=out, flush=True)
    print(f"{len(picked)} matches replayed; {args.level} steady max {worst * 1000:.1f} ms", file=out)
