"""The environment loop, with a random masked agent in place of a learner.

    .venv/bin/python -m examples.env.random_loop anno1452-basic-ottokar_a-2p --episodes 2

Each episode is a seeded match (``reset(seed=...)``); the agent picks
uniformly among the unmasked indices of the observation's ``action_mask``.
A learner would read ``obs["observation"]`` (the seat's view, flat) and the
rewards in the same loop. At the end of each episode the engine replays the
recorded actions and must reach the same outcome.
"""

import argparse

import numpy as np

import engine
import tabula_env
from engine.runner import replay


def run_episode(env, seed, rng):
    """One match to the end (or ``max_steps``); returns each agent's total reward."""
    env.reset(seed=seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        # PettingZoo: a finished agent steps None.
        action = None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"])))
        env.step(action)
    return totals


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "variant", nargs="?", default="anno1452-basic-ottokar_a-2p", choices=sorted(tabula_env.VARIANTS)
    )
    parser.add_argument("--episodes", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--max-steps", type=int, default=None, help="truncate longer matches")
    args = parser.parse_args(argv)
    env = tabula_env.aec_env(args.variant, max_steps=args.max_steps)
    rng = np.random.default_rng(args.seed)
    for episode in range(args.episodes):
        seed = args.seed + episode
        totals = run_episode(env, seed, rng)
        outcome = env.match.outcome
        if outcome is not None:  # the engine agrees on the result
            game = engine.get_game(env.variant.game)
            state, _ = replay(game, env.variant.num_players, env.match.options, env.match_seed, env.history)
            assert game.outcome(state) == outcome
        print(
            f"episode {episode} seed {seed}: {len(env.history)} actions, "
            f"rewards {totals}, outcome {outcome and outcome['winners']}"
        )
    env.close()


if __name__ == "__main__":
    main()
