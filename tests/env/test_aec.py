"""The PettingZoo AEC environment of every variant: PettingZoo's own API and
seed tests, seeding, truncation, rendering."""

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import tabula_env
from engine.render import board_svg
from engine.runner import replay
from tabula_env.variants import VARIANTS

from .agents import MaskedRandomAgent, play_out

# Left out by `make test-fast` (-m "not slow"): PettingZoo's api_test per variant.
pytestmark = pytest.mark.slow

# Anno 1452 ends within the API test's cycles at its earliest end year (both the
# termination and the dead-step paths run); Anno 1503 is truncated instead.
SHORT = {"anno1452": {"extra_options": {"end_year": 1314}}, "anno1503": {"max_steps": 120}}


def make(name, **kwargs):
    return tabula_env.aec_env(name, **{**SHORT[VARIANTS[name].game], **kwargs})


@pytest.mark.parametrize("name", list(VARIANTS))
def test_pettingzoo_api_and_seed_tests(name):
    api_test(make(name), num_cycles=200)
    seed_test(lambda: make(name), num_cycles=60)


@pytest.mark.parametrize("name", ["anno1503-pa-3p", "anno1452-expert-standard-3p"])
def test_pettingzoo_api_test_with_dict_observations(name):
    env = make(name, obs_type="dict")
    api_test(env, num_cycles=60)
    env.reset(seed=1)
    obs = env.observe(env.agent_selection)
    assert set(obs["observation"]) == set(env.observation_space(env.agent_selection)["observation"].spaces)


def _trajectory(env, seed, steps):
    env.reset(seed=seed)
    agent = MaskedRandomAgent(env.codec, seed)
    out = []
    for name in env.agent_iter(steps):
        obs, *_ = env.last()
        out.append((name, obs["observation"].copy(), obs["action_mask"].copy()))
        env.step(agent.act(obs["action_mask"]))
    return out, env.history


@pytest.mark.parametrize("name", ["anno1503-base-2p", "anno1452-basic-ottokar_b-3p"])
def test_reset_with_a_seed_replays_the_match(name):
    env = make(name)
    first, history = _trajectory(env, 5, 80)
    again, history_again = _trajectory(env, 5, 80)
    _, history_other = _trajectory(env, 6, 80)
    assert history == history_again and len(history) == 80
    assert all(
        a[0] == b[0] and np.array_equal(a[1], b[1]) and np.array_equal(a[2], b[2])
        for a, b in zip(first, again)
    )
    assert history_other != history
    # The engine seed is the reset seed: the same match as engine's setup(seed=5).
    env.reset(seed=5)
    game = env.match.game
    assert env.match_seed == 5
    assert game.dump(env.match.state) == game.dump(game.setup(env.variant.num_players, env.match.options, 5))


@pytest.mark.parametrize(("name", "steps"), [("anno1503-pa-2p", 80), ("anno1452-expert-ottokar_a-2p", 300)])
def test_the_state_is_the_engines_replay_of_the_history(name, steps):
    # A step applies the engine's own legal action object (Anno 1452's carry
    # null optional parameters); the history holds the decoded index (left out):
    # the engine takes both as the same action.
    env = make(name)
    _, history = _trajectory(env, 9, steps)
    game = env.match.game
    state, _ = replay(game, env.variant.num_players, env.match.options, 9, history)
    assert game.dump(state) == game.dump(env.match.state)


def test_unseeded_resets_draw_seeds_from_the_seeded_generator():
    env = make("anno1503-base-2p")
    env.reset(seed=11)
    env.reset()
    first = env.match_seed
    env.reset(seed=11)
    env.reset()
    assert env.match_seed == first and first != 11


def test_truncation_ends_every_agent():
    env = make("anno1503-base-3p", max_steps=25)
    env.reset(seed=2)
    steps, _ = play_out(env, MaskedRandomAgent(env.codec, 2))
    assert steps == 25 and env.agents == [] and env.match.outcome is None


def test_a_masked_out_action_is_refused_and_changes_nothing():
    env = make("anno1503-base-2p")
    env.reset(seed=3)
    agent = env.agent_selection
    illegal = int(np.flatnonzero(env.action_mask(agent) == 0)[0])
    before = dict(env._cumulative_rewards), dict(env.rewards)
    for bad in (illegal, -1, env.codec.size):
        with pytest.raises(ValueError, match="not legal"):
            env.step(bad)
    assert env.history == [] and env.agent_selection == agent
    assert (dict(env._cumulative_rewards), dict(env.rewards)) == before


def test_only_the_acting_agent_has_a_mask():
    env = make("anno1452-basic-standard-4p")
    env.reset(seed=1)
    acting = env.agent_selection
    for name in env.agents:
        assert (env.observe(name)["action_mask"].sum() > 0) == (name == acting)


@pytest.mark.parametrize("viewer", [None, 0, 1])
def test_svg_render_is_the_board_svg_of_the_viewer(viewer):
    env = make("anno1503-pa-2p", render_mode="svg", render_viewer=viewer)
    env.reset(seed=4)
    play_out(env, MaskedRandomAgent(env.codec, 4), max_steps=40)
    game = env.match.game
    assert env.render() == board_svg(game.view(env.match.state, viewer), viewer)


def test_rgb_render_is_a_picture_of_the_board():
    env = make("anno1452-basic-standard-3p", render_mode="rgb_array")
    env.reset(seed=1)
    picture = env.render()
    assert picture.dtype == np.uint8 and picture.ndim == 3 and picture.shape[2] == 3
    assert picture.shape[0] > 200 and picture.shape[1] > 200
    colours = picture.reshape(-1, 3).astype(np.int32) @ np.array([1 << 16, 1 << 8, 1], dtype=np.int32)
    assert len(np.unique(colours)) > 10  # drawn, not blank


def test_bad_arguments_are_refused():
    with pytest.raises(ValueError, match="obs_type"):
        tabula_env.aec_env("anno1503-base-2p", obs_type="pixels")
    with pytest.raises(ValueError, match="render_mode"):
        tabula_env.aec_env("anno1503-base-2p", render_mode="human")


def test_history_is_the_decoded_actions_and_a_copy():
    env = make("anno1503-base-2p")
    env.reset(seed=8)
    agent = MaskedRandomAgent(env.codec, 8)
    picked = []
    for _ in range(30):
        index = agent.act(env.action_mask(env.agent_selection))
        picked.append((env.match.seat_to_act, env.codec.decode(index)))
        env.step(index)
    history = env.history
    assert history == picked and env.match.num_actions == 30
    history[0][1]["type"] = "changed"
    assert env.history == picked
