"""The Gymnasium single-agent wrapper: Gymnasium's env checker, AI seats,
rewards, illegal actions, replay."""

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import engine
import tabula_env
from engine.runner import replay

SHORT_1452 = {"end_year": 1314}


@pytest.mark.parametrize(
    "name, kwargs",
    [
        ("anno1503-base-2p", {"opponent": "random"}),
        ("anno1503-pa-3p", {"opponent": "easy", "seat": 1}),
        (
            "anno1452-expert-standard-3p",
            {"opponent": "medium", "extra_options": SHORT_1452, "obs_type": "dict"},
        ),
    ],
)
def test_gymnasium_check_env_passes(name, kwargs):
    check_env(tabula_env.single_agent_env(name, **kwargs), skip_render_check=True)


def _play(env, seed):
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    rewards, steps = [], 0
    while True:
        assert obs["action_mask"].sum() == len(info["legal_actions"]) > 0
        obs, reward, terminated, truncated, info = env.step(
            int(rng.choice(np.flatnonzero(obs["action_mask"])))
        )
        rewards.append(reward)
        steps += 1
        if terminated or truncated:
            return rewards, terminated


@pytest.mark.parametrize("level", ["easy", "medium"])
def test_the_learner_plays_a_match_against_the_ai_to_the_end(level):
    env = tabula_env.single_agent_env(
        "anno1452-basic-ottokar_a-2p", opponent=level, seat=1, extra_options=SHORT_1452
    )
    rewards, terminated = _play(env, seed=4)
    outcome = env.match.outcome
    assert terminated and outcome is not None
    assert rewards[-1] == (1.0 if 1 in outcome["winners"] else -1.0) and not any(rewards[:-1])
    # Every seat's action, the AI's too, is in the history: the engine replays the match.
    game = env.match.game
    state, _ = replay(game, 2, env.match.options, env.match.seed, env.match.history)
    assert game.outcome(state) == outcome
    assert {seat for seat, _ in env.match.history} == {0, 1}


def test_the_ai_seats_play_as_the_engine_runner_would():
    """Opponents are seeded like engine.runner.play_match: the same seed and
    actions give the same match through the runner with the same players."""
    env = tabula_env.single_agent_env("anno1452-basic-standard-3p", opponent="easy", extra_options=SHORT_1452)
    _play(env, seed=9)
    learner_moves = iter([a for seat, a in env.match.history if seat == 0])

    class Recorded:
        def choose(self, game, seat, view, actions, seed=0):
            return next(learner_moves)

    easy = engine.ai.get_player("easy")
    record = engine.runner.play_match(
        env.match.game, [Recorded(), easy, easy], seed=env.match.seed, options=env.match.options
    )
    assert record.actions == env.match.history


def test_same_seed_same_episode():
    runs = []
    for _ in range(2):
        env = tabula_env.single_agent_env("anno1503-base-3p", opponent="easy", max_steps=30)
        rewards, _ = _play(env, seed=12)
        runs.append((env.match.seed, env.match.history, rewards))
    assert runs[0] == runs[1]


def test_shaped_reward_is_the_change_of_the_score_lead():
    env = tabula_env.single_agent_env(
        "anno1452-basic-standard-3p", opponent="random", reward_shaping=0.1, extra_options=SHORT_1452
    )
    obs, _ = env.reset(seed=3)
    rng = np.random.default_rng(3)
    leads = [env.match.score_lead(0)]
    total = 0.0
    while True:
        obs, reward, terminated, _, _ = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        total += reward
        if terminated:
            break
        leads.append(env.match.score_lead(0))
    final = 1.0 if 0 in env.match.outcome["winners"] else -1.0
    assert total == pytest.approx(0.1 * (env.match.score_lead(0) - leads[0]) + final)
    assert len(set(leads)) > 1  # the score moved: shaping was exercised


def test_a_masked_out_action_loses_or_raises():
    env = tabula_env.single_agent_env("anno1503-base-2p", opponent="random")
    obs, _ = env.reset(seed=1)
    before = list(env.match.history)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert (reward, terminated, info["illegal_action"]) == (-1.0, True, True)
    assert env.match.history == before
    strict = tabula_env.single_agent_env("anno1503-base-2p", opponent="random", illegal_action="raise")
    strict.reset(seed=1)
    for bad in (illegal, -1, strict.codec.size):
        with pytest.raises(ValueError, match="not legal"):
            strict.step(bad)
    assert env.step(10**6)[1:3] == (-1.0, True)


def test_bad_arguments_are_refused():
    with pytest.raises(ValueError, match="seat"):
        tabula_env.single_agent_env("anno1503-base-2p", seat=2)
    with pytest.raises(ValueError, match="level"):
        tabula_env.single_agent_env("anno1503-base-2p", opponent="grandmaster")
    with pytest.raises(ValueError, match="illegal_action"):
        tabula_env.single_agent_env("anno1503-base-2p", illegal_action="ignore")
