"""The Anno 1503 AI answers a pirate lair it has just found (S3 §6.3): it
fights when the odds make the lair worth it and puts the tile back when they
do not, choosing among the legal actions at every level."""

import pytest

import engine
from engine.ai import get_player

from ..games.anno1503.expansion_helpers import (
    BESIDE_LAIR_SPACE,
    LAIR_SPACE,
    aristo,
    lair_tile,
    place_ship,
    put_expansion_tile,
    xload,
    xposition,
)
from ..games.anno1503.helpers import game

LEVELS = ("random", "easy", "medium", "hard")
HARD_OPTIONS = {"simulations": 30}  # the choice depends on the seed alone


def _found_lair(strength, cannons):
    d = xposition(3)
    put_expansion_tile(d, lair_tile(strength), LAIR_SPACE)
    aristo(d, 0)["cannons"] = cannons
    place_ship(d, 0, BESIDE_LAIR_SPACE, ap=3)
    state, _ = game().apply(xload(d), 0, {"type": "discover", "ship": 0, "space": LAIR_SPACE})
    return state


def _choose(level, state, seed=1):
    player = get_player(level, **HARD_OPTIONS) if level == "hard" else get_player(level)
    legal = game().legal_actions(state, 0)
    return player.choose(game(), 0, game().view(state, 0), legal, seed=seed), legal


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_answers_a_found_lair_with_a_legal_action(level):
    state = _found_lair(strength=5, cannons=3)
    for seed in range(3):
        action, legal = _choose(level, state, seed)
        assert action in legal and action["type"] in ("attack_lair", "return_tile")
        engine.get_game("anno1503").apply(state, 0, action)  # and it applies


def test_medium_fights_a_weak_lair_with_many_cannons():
    """Six cannons against strength 4: the lair is won nearly always."""
    action, _ = _choose("medium", _found_lair(strength=4, cannons=6))
    assert action == {"type": "attack_lair"}


def test_medium_puts_back_a_strong_lair_without_cannons():
    """No cannon against strength 6: a loss and a damaged ship are all but
    certain, so the tile goes back and the ship explores on."""
    action, _ = _choose("medium", _found_lair(strength=6, cannons=0))
    assert action == {"type": "return_tile"}
