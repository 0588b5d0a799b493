"""Environment benchmark: PettingZoo AEC steps per second with random masked
actions, next to the bare engine in the same run, per variant.

    nice -n 10 .venv/bin/python -m bench.env_bench                 # every variant, ~3 min
    .venv/bin/python -m bench.env_bench --seconds 1 --variants anno1503-base-2p

For each variant, three loops play the same random matches (the same seeds
and the same picks, a new match when one ends): the engine loop for
``--seconds`` of this process's CPU time (``time.process_time``; the process
is pinned to one core when the OS allows it), the env loop for as many
steps as it took. The two take turns, ``--chunk`` steps each (each keeps its
own match going), so that both run under the same load when other
processes share the machine; timed one after the other, a load that came or
went between them moved single ratios by +-0.2. The same for the env+obs
loop and the env loop it is compared with:

- engine: ``to_act``, ``legal_actions``, a uniform pick, ``apply`` (what
  ``engine.runner.play_match`` does with the random player);
- env: ``env.last(observe=False)``, ``env.action_mask(agent)``, a uniform
  pick among the unmasked indices (``env.legal_indices(agent)``: the mask's
  ones), ``env.step(index)`` (legal actions, codec, mask, decode, checked apply);
- env+obs: the same with ``env.last()`` (the full observation: the seat's
  view and its flat encoding, and the mask).

It prints steps/s of each, the env/engine ratios (issue 45's goal: env >= 0.8 of the
engine) and the observation's cost per step (env+obs time per step minus
env time per step, in microseconds). The env+obs loop is timed on the first
``--obs-steps`` steps only (it is ~10x slower), and so is the env loop it is
compared with for the observation's cost.
"""

import argparse
import os
import time

import numpy as np

import engine
import tabula_env


def engine_play(variant, seed):
    """Random play on the bare engine, as a coroutine: ``send(n)`` plays the
    next ``n`` steps and gives back the CPU seconds they took."""
    game = engine.get_game(variant.game)
    rng = np.random.default_rng(seed)
    match_seed, state = seed, None
    steps = yield
    while True:
        done = 0
        start = time.process_time()
        while done < steps:
            if state is None or game.outcome(state) is not None:
                state = game.setup(variant.num_players, variant.options, match_seed)
                match_seed += 1
                continue
            seat = game.to_act(state)[0]
            actions = game.legal_actions(state, seat)
            state, _ = game.apply(state, seat, actions[int(rng.integers(len(actions)))])
            done += 1
        steps = yield time.process_time() - start


def env_play(variant, seed, observe):
    """The same picks through the AEC environment, as a coroutine like ``engine_play``."""
    env = tabula_env.aec_env(variant.name)
    rng = np.random.default_rng(seed)
    match_seed = seed
    env.reset(seed=match_seed)
    steps = yield
    while True:
        done = 0
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
        steps = yield time.process_time() - start


def started(coroutine):
    next(coroutine)
    return coroutine


def alternate(first, second, chunk, seconds=None, steps=None):
    """Play ``first`` and ``second`` the same steps, in turns of ``chunk``
    steps, until ``first`` has used ``seconds`` of CPU (or for ``steps``);
    ``(steps, first's seconds, second's seconds)``. Taking turns puts both
    under the same load of a shared machine (one after the other, the load
    moves between them)."""
    done, first_s, second_s = 0, 0.0, 0.0
    while (done < steps) if steps is not None else (first_s < seconds):
        n = chunk if steps is None else min(chunk, steps - done)
        first_s += first.send(n)
        second_s += second.send(n)
        done += n
    return done, first_s, second_s


def pin_to_one_core():
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--seconds", type=float, default=1.0, help="CPU seconds of the engine loop per variant"
    )
    parser.add_argument("--variants", nargs="*", default=list(tabula_env.VARIANTS))
    parser.add_argument("--obs-steps", type=int, default=3000, help="steps timed with observations")
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--chunk", type=int, default=200, help="steps per turn of the loops taking turns")
    args = parser.parse_args(argv)
    pin_to_one_core()
    print(
        "| variant | engine steps/s | env steps/s | env/engine | env+obs steps/s | env+obs/engine "
        "| obs µs/step | actions in space |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    ratios = [measure_variant(name, args) for name in args.variants]
    print(
        f"\nenv/engine ratio: min {min(ratios):.2f}, median {float(np.median(ratios)):.2f} (issue 45's goal: >= 0.8)"
    )


def measure_variant(name, args):
    """Print the variant's row; its env/engine ratio."""
    variant = tabula_env.get_variant(name)
    tabula_env.aec_env(name)  # build the codec and the spaces outside the timed loops
    steps, engine_s, env_s = alternate(
        started(engine_play(variant, args.seed)),
        started(env_play(variant, args.seed, observe=False)),
        args.chunk,
        seconds=args.seconds,
    )
    bare, env = steps / engine_s, steps / env_s
    # Observations cost far more than a step: timed on the first --obs-steps steps only,
    # against the environment's own time for the same steps.
    head, env_head, obs_head = alternate(
        started(env_play(variant, args.seed, observe=False)),
        started(env_play(variant, args.seed, observe=True)),
        args.chunk,
        steps=min(steps, args.obs_steps),
    )
    with_obs = head / obs_head
    obs_us = max(0.0, (obs_head - env_head) / head * 1e6)
    print(
        f"| {name} | {bare:,.0f} | {env:,.0f} | {env / bare:.2f} | {with_obs:,.0f} | {with_obs / bare:.2f} "
        f"| {obs_us:,.0f} | {tabula_env.codec_for(variant).size:,} |",
        flush=True,
    )
    return env / bare


if __name__ == "__main__":
    main()
