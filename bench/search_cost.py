"""hard's CPU per searched decision, this tree against an earlier revision, in one run.

    .venv/bin/python -m bench.search_cost --against 4b959df
    .venv/bin/python -m bench.search_cost --against 4b959df --game anno1503 --options expansion=none --players 2

Plays ``--matches`` seeded matches of ``hard`` (one seat, rotating with the
seed) against ``medium`` with this tree's engine and keeps hard's searched
decisions (view, legal actions, seed), at most ``--decisions`` of them,
spread over the matches. Then times every decision with this tree's engine
and with the ``engine/`` of git revision ``--against`` (exported, each tree in
a process of its own started in its directory, as ``bench.engine_compare``
does), in ``--rounds`` rounds alternating which tree goes first, pinned to
one core. A decision's time is the searching thread's CPU time
(``time.thread_time``), so other processes' load moves it little.

Prints each tree's median, p95 and maximum CPU per decision; the ratio of
this tree's total to REV's with a 95% interval over the rounds; whether both
trees chose the same actions (a speed-up must not change what hard plays);
and, for this tree, the rollout steps per search (the work its step cap
counts: median, p95, max), the CPU per rollout step and per simulation.
"""

import argparse
import hashlib
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from .compiled_trees import rev_rules_dir, rules_paths, tree_env
from .ladder.cost import ROOT, export_tree
from .stats import geometric_interval


def parse_options(text):
    out = {}
    for part in filter(None, text.split(",")):
        name, value = part.split("=", 1)
        out[name] = value
    return out


def capture(args):
    """hard's searched decisions in seeded hard-vs-medium matches."""
    import engine
    from engine.rng import mix_seed

    game, options = engine.get_game(args.game), parse_options(args.options)
    caught = []
    for seed in range(args.seed, args.seed + args.matches):
        hard, medium = engine.ai.get_player("hard", wall_cap=600.0), engine.ai.get_player("medium")
        search = hard.for_game(args.game)
        state, step = game.setup(args.players, options, seed), 0
        while game.outcome(state) is None and step < args.max_actions:
            seat = game.to_act(state)[0]
            actions, view = game.legal_actions(state, seat), game.view(state, seat)
            player = hard if seat == seed % args.players else medium
            before = getattr(search, "searches", 0)
            action = player.choose(game, seat, view, actions, seed=mix_seed(seed, step))
            if player is hard and search.searches > before:
                caught.append([seat, view, actions, mix_seed(seed, step)])
            state, _ = game.apply(state, seat, action)
            step += 1
    every = max(1, math.ceil(len(caught) / args.decisions))
    return caught[::every][: args.decisions]


def time_decisions(game_id, path):
    """Each decision's CPU seconds with the ``engine`` this process imports,
    a digest of the choices, and the rollout steps where the player counts them."""
    import engine

    game = engine.get_game(game_id)
    cpu, steps, chosen = [], [], []
    for seat, view, actions, seed in json.loads(Path(path).read_text()):
        player = engine.ai.get_player("hard", wall_cap=600.0)
        start = time.thread_time()
        chosen.append(player.choose(game, seat, view, actions, seed=seed))
        cpu.append(time.thread_time() - start)
        steps.append(getattr(player.for_game(game_id), "last_steps", None))
    digest = hashlib.sha256(json.dumps(chosen, sort_keys=True).encode()).hexdigest()[:16]
    return {"cpu": cpu, "steps": steps, "digest": digest}


def run_worker(root, game_id, path, native_dir=None):
    """The worker's timings in a child started in ``root``; ``native_dir``:
    the compiled rules that tree runs (bench/compiled_trees.py), if any."""
    command = [sys.executable, "-m", "bench.search_cost", "--worker", str(path), "--game", game_id]
    done = subprocess.run(
        command, check=True, capture_output=True, text=True, cwd=root, env=tree_env(native_dir)
    )
    return json.loads(done.stdout)


def quantile(values, q):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def report(args, runs, simulations):
    """``runs``: {"this"|REV: [worker output per round]}."""
    print(
        f"{args.game} {args.options or 'default'} {args.players}p: {len(runs['this'][0]['cpu'])} searched decisions"
    )
    for label, outs in runs.items():
        per_decision = [min(out["cpu"][i] for out in outs) for i in range(len(outs[0]["cpu"]))]
        ms = [t * 1000 for t in per_decision]
        print(
            f"{label:>10}: CPU per decision median {statistics.median(ms):7.1f} ms  "
            f"p95 {quantile(ms, 0.95):7.1f} ms  max {max(ms):7.1f} ms  (fastest of {len(outs)} rounds)"
        )
    logs = [math.log(sum(a["cpu"]) / sum(b["cpu"])) for a, b in zip(runs["this"], runs[args.against])]
    ratio, low, high = geometric_interval(logs)
    print(
        f"CPU this tree / {args.against}: {ratio:.3f}, 95% interval [{low:.3f}, {high:.3f}] ({len(logs)} rounds)"
    )
    digests = {label: {out["digest"] for out in outs} for label, outs in runs.items()}
    same = len(set().union(*digests.values())) == 1
    print(f"same choices in every tree and round: {'yes' if same else 'NO'} {digests}")
    steps = [s for s in runs["this"][0]["steps"] if s is not None]
    if steps:
        total_cpu = sum(min(out["cpu"][i] for out in runs["this"]) for i in range(len(steps)))
        print(
            f"this tree: rollout steps per search median {statistics.median(steps):.0f}, "
            f"p95 {quantile(steps, 0.95)}, max {max(steps)}; "
            f"{1e6 * total_cpu / max(1, sum(steps)):.0f} µs of CPU per rollout step, "
            f"{1000 * total_cpu / (len(steps) * simulations):.2f} ms per simulation ({simulations:.0f} per decision)"
        )


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", default=None, help="git revision to compare with")
    parser.add_argument("--game", default="anno1452")
    parser.add_argument("--options", default="rules=expert,scenario=standard", help="name=value,...")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--matches", type=int, default=2)
    parser.add_argument("--max-actions", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--decisions", type=int, default=40, help="searched decisions timed at most")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    if args.worker:
        print(json.dumps(time_decisions(args.game, args.worker)))
        return
    if not args.against:
        parser.error("--against REV is required")
    decisions = capture(args)
    import engine

    view = decisions[0][1]
    search = engine.ai.get_player("hard").for_game(args.game)
    simulations = search.simulations_for(view)
    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / "decisions.json"
        path.write_text(json.dumps(decisions))
        old = export_tree(args.against, Path(scratch) / "old", rules_paths(args.against))
        old_rules = rev_rules_dir(args.against, old)  # compiled against compiled
        runs = {"this": [], args.against: []}
        for round_no in range(args.rounds):
            order = [("this", ROOT, None), (args.against, old, old_rules)]
            for label, root, rules in order if round_no % 2 == 0 else order[::-1]:
                runs[label].append(run_worker(root, args.game, path, rules))
            print(f"round {round_no + 1}/{args.rounds} done", file=sys.stderr, flush=True)
        report(args, runs, simulations)


if __name__ == "__main__":
    main()
