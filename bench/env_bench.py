"""Environment benchmark: PettingZoo AEC steps per second with random masked
actions, next to the bare engine in the same run, per variant.

    nice -n 10 .venv/bin/python bench/env_bench.py                 # every variant, ~3 min
    .venv/bin/python bench/env_bench.py --seconds 1 --variants anno1503-base-2p

For each variant, three loops play the same random matches (the same seeds
and the same picks, a new match when one ends): the engine loop for
``--seconds`` of this process's CPU time (``time.process_time``; the process
is pinned to one core when the OS allows it), the two environment loops for
as many steps as it took:

- engine: ``to_act``, ``legal_actions``, a uniform pick, ``apply`` (what
  ``engine.runner.play_match`` does with the random player);
- env: ``env.last(observe=False)``, ``env.action_mask(agent)``, a uniform
  pick among the unmasked indices (``env.legal_indices(agent)``: the mask's
  ones), ``env.step(index)`` (legal actions, codec, mask, decode, checked apply);
- env+obs: the same with ``env.last()`` (the full observation: the seat's
  view and its flat encoding, and the mask).

It prints steps/s of each, the env/engine ratios (goal: env >= 0.7 of the
engine) and the observation's cost per step (env+obs time per step minus
env time per step, in microseconds). The env+obs loop is timed on the first
``--obs-steps`` steps only (it is ~10x slower), and so is the env loop it is
compared with for the observation's cost.
"""

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine
import tabula_env


def engine_loop(variant, seed, seconds=None, steps=None):
    """Random play on the bare engine for ``seconds`` (CPU) or ``steps``; ``(steps, seconds)``."""
    game = engine.get_game(variant.game)
    rng = np.random.default_rng(seed)
    done, match_seed, state = 0, seed, None
    start = time.process_time()
    while (done < steps) if steps is not None else (time.process_time() - start < seconds):
        if state is None or game.outcome(state) is not None:
            state = game.setup(variant.num_players, variant.options, match_seed)
            match_seed += 1
            continue
        seat = game.to_act(state)[0]
        actions = game.legal_actions(state, seat)
        state, _ = game.apply(state, seat, actions[int(rng.integers(len(actions)))])
        done += 1
    return done, time.process_time() - start


def env_loop(variant, seed, steps, observe):
    """The same picks through the AEC environment, for ``steps``; CPU seconds taken."""
    env = tabula_env.aec_env(variant.name)
    rng = np.random.default_rng(seed)
    done, match_seed = 0, seed
    env.reset(seed=match_seed)
    start = time.process_time()
    while done < steps:
        agent = env.agent_selection
        _, _, terminated, truncated, _ = env.last(observe=observe)
        if terminated or truncated:
            match_seed += 1
            env.reset(seed=match_seed)
            continue
        if not observe:
            env.action_mask(agent)  # built every step, as a learner needs it
        # The mask's ones in legal_actions order (so the engine loop's picks, from
        # the same generator, are the same), without scanning the whole space.
        legal = env.legal_indices(agent)
        env.step(legal[int(rng.integers(len(legal)))])
        done += 1
    return time.process_time() - start


def pin_to_one_core():
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="CPU seconds of the engine loop per variant")
    parser.add_argument("--variants", nargs="*", default=list(tabula_env.VARIANTS))
    parser.add_argument("--obs-steps", type=int, default=3000, help="steps timed with observations")
    parser.add_argument("--seed", type=int, default=1000)
    args = parser.parse_args(argv)
    pin_to_one_core()
    print("| variant | engine steps/s | env steps/s | env/engine | env+obs steps/s | env+obs/engine "
          "| obs µs/step | actions in space |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    ratios = []
    for name in args.variants:
        variant = tabula_env.get_variant(name)
        tabula_env.aec_env(name)  # build the codec and the spaces outside the timed loops
        steps, engine_s = engine_loop(variant, args.seed, seconds=args.seconds)
        bare = steps / engine_s
        env = steps / env_loop(variant, args.seed, steps, observe=False)
        # Observations cost far more than a step: timed on the first --obs-steps steps only,
        # against the environment's own time for the same steps.
        head = min(steps, args.obs_steps)
        env_head = env_loop(variant, args.seed, head, observe=False)
        obs_head = env_loop(variant, args.seed, head, observe=True)
        with_obs = head / obs_head
        obs_us = max(0.0, (obs_head - env_head) / head * 1e6)
        ratios.append(env / bare)
        print(f"| {name} | {bare:,.0f} | {env:,.0f} | {env / bare:.2f} | {with_obs:,.0f} | {with_obs / bare:.2f} "
              f"| {obs_us:,.0f} | {tabula_env.codec_for(variant).size:,} |", flush=True)
    print(f"\nenv/engine ratio: min {min(ratios):.2f}, median {float(np.median(ratios)):.2f} (goal >= 0.7)")


if __name__ == "__main__":
    main()
