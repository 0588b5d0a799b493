"""Observations carry only the observing seat's view: states that differ
only in what that seat cannot see give it identical observations, while the
seat that can see the difference gets a different one."""

import numpy as np
import pytest

import engine
import tabula_env
from tabula_env.observations import encoder_for
from tabula_env.variants import get_variant

from .agents import MaskedRandomAgent, play_out

CASES = ["anno1503-base-3p", "anno1503-pa-2p", "anno1452-basic-standard-4p", "anno1452-expert-ottokar_a-3p"]


def _observations(env, seat):
    return env.observe(f"player_{seat}")["observation"], env.match.observation(seat, flat=False)


def _same(a, b):
    flat_a, groups_a = a
    flat_b, groups_b = b
    return np.array_equal(flat_a, flat_b) and all(np.array_equal(groups_a[k], groups_b[k]) for k in groups_a)


@pytest.mark.parametrize("name", CASES)
def test_hidden_parts_never_reach_an_observation(name):
    env = tabula_env.aec_env(name)
    env.reset(seed=3)
    play_out(env, MaskedRandomAgent(env.codec, 3), max_steps=60)
    game, state, history = env.match.game, env.match.state, env.history
    differing_seats = set()
    for seat in range(env.variant.num_players):
        view = game.view(state, seat)
        mine = _observations(env, seat)
        for sample in range(3):
            # A state this seat cannot tell apart: other hands, face-down tiles,
            # deck orders and the dice generator drawn anew.
            world = engine.ai.sample_state(game, view, seat, seed=sample)
            assert world is not None and game.view(world, seat) == view
            assert game.dump(world) != game.dump(state)
            env.match.load(world, history)
            assert _same(_observations(env, seat), mine)
            # The others see the hidden parts that are theirs: the states differ for real.
            differing_seats.update(
                other
                for other in range(env.variant.num_players)
                if other != seat
                and game.view(world, other) != game.view(state, other)
                and not _same(_observations(env, other), _observations_at(env, state, other))
            )
            env.match.load(state, history)
    assert differing_seats, "no sampled state differed visibly for any seat: the check proves nothing"


def _observations_at(env, state, seat):
    saved = env.match.state, env.history
    env.match.load(state, saved[1])
    try:
        return _observations(env, seat)
    finally:
        env.match.load(*saved)


def test_another_seats_hand_is_not_observed_but_its_size_is():
    """A direct edit: seat 1's Anno 1452 hand swapped for other cards (same count)."""
    env = tabula_env.aec_env("anno1452-basic-standard-3p")
    env.reset(seed=2)
    game, state = env.match.game, env.match.state
    data = game.dump(state)
    hand = data["players"][1]["hand"]
    deck = data["deck"]
    data["players"][1]["hand"], data["deck"] = deck[: len(hand)], hand + deck[len(hand) :]
    edited = game.load(data)
    before = {seat: _observations(env, seat) for seat in (0, 1, 2)}
    env.match.load(edited, env.history)
    assert _same(_observations(env, 0), before[0]) and _same(_observations(env, 2), before[2])
    assert not _same(_observations(env, 1), before[1])


@pytest.mark.parametrize("name", ["anno1503-pa-4p", "anno1452-expert-standard-4p"])
def test_observations_fit_their_spaces_and_are_seat_relative(name):
    variant = get_variant(name)
    encoder = encoder_for(variant)
    env = tabula_env.aec_env(name)
    env.reset(seed=1)
    play_out(env, MaskedRandomAgent(env.codec, 1), max_steps=50)
    for seat in range(variant.num_players):
        flat, groups = _observations(env, seat)
        assert encoder.flat_space.contains(flat) and encoder.dict_space.contains(groups)
        assert np.array_equal(flat, encoder.flatten(groups))
        # Player 0 of the observation is the observer: its gold comes first.
        gold = env.match.view(seat)["players"][seat]["gold"]
        assert groups["players"][0][0] == gold
