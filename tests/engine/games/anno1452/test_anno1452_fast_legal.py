"""The direct legal-action generators equal generate-then-check.

Some action types (drafts, settling, attacks, building) give their spec a
``legal`` hook that generates the legal actions directly instead of checking
every candidate (issue 45: the checks were most of a match's time). On every
state of seeded matches of every variant and player count, for every seat to
act and every action type offered to it, the generator's list must equal the
candidates that pass the full ``check`` (the one the checked ``apply`` runs),
order included, so ``legal_actions`` and ``apply`` accept exactly the same set
and seeded players choose exactly as before. ``Anno1452`` also runs the
engine's loop itself (``legal_actions``, ``apply`` on the hooks as written):
on the same states it must give what ``engine.core.Game``'s own gives.
"""

import pytest

from engine.ai import RandomPlayer
from engine.core import Game
from engine.rng import mix_seed
from tests.engine.support import anno1452 as support
from tests.engine.support.policy import WeightedRandomPlayer

from .anno1452_helpers import GAME

# Every variant of the random-match suite at each of its player counts.
CASES = [
    (variant.label, count, variant) for variant in support.MATCH_VARIANTS for count in variant.player_counts
]
SEEDS = (11, 12)  # the first with the uniform random player, the second weighted
FAST_TYPES = [name for name, spec in GAME.action_specs.items() if spec.legal is not None]


def _mismatches(state, seat):
    """Action types whose generated list differs from the checked candidates."""
    bad = []
    for name in GAME._available_types(state, seat):
        spec = GAME.action_specs[name]
        if spec.legal is None:
            continue
        fast = spec.legal(state, seat)
        checked = GAME.checked_legal_actions(state, seat, name)
        if fast != checked:
            bad.append((name, fast, checked))
    return bad


def test_the_hot_action_types_have_a_generator():
    assert {
        "draft_add",
        "draft_remove",
        "settle",
        "attack",
        "build_estate",
        "build_city",
        "play_special",
    } <= set(FAST_TYPES)


@pytest.mark.parametrize(("name", "count", "variant"), CASES, ids=[f"{n}-{c}" for n, c, _ in CASES])
def test_generator_equals_checked_candidates_on_every_state(name, count, variant):
    compared = 0
    # The weighted player reaches the rarely legal types (support.WEIGHTS).
    players = (RandomPlayer(), WeightedRandomPlayer(variant.weights or {}, variant.refine))
    for seed, player in zip(SEEDS, players, strict=True):
        state = GAME.setup(count, variant.options, seed)
        step = 0
        while GAME.outcome(state) is None:
            for seat in GAME.to_act(state):
                assert _mismatches(state, seat) == [], (name, seed, step)
                compared += 1
            for seat in range(count):  # those not to act too: none
                assert GAME.legal_actions(state, seat) == Game.legal_actions(GAME, state, seat)
            seat = GAME.to_act(state)[0]
            actions = GAME.legal_actions(state, seat)
            # Every listed action passes the checked apply.
            assert all(GAME.is_legal(state, seat, action) for action in actions)
            action = player.choose(GAME, seat, None, actions, seed=mix_seed(seed, step))
            applied = GAME.apply(state, seat, action)
            assert applied == Game.apply(GAME, state, seat, action) == GAME.apply_legal(state, seat, action)
            state = applied[0]
            step += 1
    assert compared > 100
