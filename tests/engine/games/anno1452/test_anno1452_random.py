"""Invariants over seeded random matches across variants and player counts.

Uniform random players drive the public API (``legal_actions``/``apply``).
Cheap checks run at every step; costlier ones (refusals, hidden-information
views, replay) on a sample, to keep the suite within its time budget.
"""

import json
import random

import pytest

from engine.ai import RandomPlayer
from engine.errors import EngineError
from engine.runner import play_match, replay

from .anno1452_helpers import GAME, check_invariants

SHORT = {"end_year": 1314}
VARIANTS = [
    (3, {**SHORT}),
    (4, {**SHORT}),
    (3, {"scenario": "ottokar_a", **SHORT}),
    (2, {"scenario": "ottokar_b", **SHORT}),
    (2, {"scenario": "ottokar_a", "rules": "expert", **SHORT}),
    (3, {"rules": "expert", **SHORT}),
    (4, {"rules": "expert", "discard_limit": "free", **SHORT}),
    (3, {"scenario": "ottokar_b", "rules": "expert", "marriage_end": "last_action_round", **SHORT}),
    (3, {}),
    (2, {"scenario": "ottokar_a"}),
]
MATCHES_PER_VARIANT = 30  # 300 matches in all
SAMPLE_EVERY = 25


class StepChecker:
    """``on_step`` hook: invariants, dump/load and sampled deep checks."""

    def __init__(self, seed):
        self.rnd = random.Random(seed)
        self.steps = 0

    def __call__(self, state, seat, action, new_state, events):
        self.steps += 1
        check_invariants(new_state)
        assert GAME.load(GAME.dump(new_state)) == new_state
        json.dumps(events)
        if self.steps % SAMPLE_EVERY == 0:
            check_refusals(state, self.rnd)
            check_hidden_views(new_state, self.rnd)


def check_refusals(state, rnd):
    """Unlisted candidates, and any action by a seat with nothing to decide,
    are refused and leave the state unchanged."""
    before = GAME.dump(state)
    to_act = GAME.to_act(state)
    for seat in range(state.data["num_players"]):
        if seat not in to_act:
            for action in GAME.legal_actions(state, to_act[0])[:2] if to_act else []:
                with pytest.raises(EngineError):
                    GAME.apply(state, seat, action)
            continue
        legal = GAME.legal_actions(state, seat)
        unlisted = []
        for name in GAME._available_types(state, seat):
            unlisted += [a for a in GAME.action_specs[name].candidates(state, seat) if a not in legal]
        for action in rnd.sample(unlisted, min(3, len(unlisted))):
            with pytest.raises(EngineError):
                GAME.apply(state, seat, action)
    assert GAME.dump(state) == before


def check_hidden_views(state, rnd):
    """A seat's view does not change when hidden parts (others' hands, deck
    order, offers between others) change."""
    d = GAME.dump(state)
    for viewer in [None] + list(range(d["num_players"])):
        other = GAME.dump(state)
        pool = list(other["deck"])
        for seat, p in enumerate(other["players"]):
            if seat != viewer:
                pool += p["hand"]
        rnd.shuffle(pool)
        for seat, p in enumerate(other["players"]):
            if seat != viewer:
                p["hand"], pool = pool[: len(p["hand"])], pool[len(p["hand"]):]
        other["deck"] = pool
        offer = other["offer"]
        if offer is not None and viewer not in (offer["from"], offer["to"]):
            offer["give_gold"] = 10 if offer.get("give_gold") != 10 else 1
        assert GAME.view(GAME.load(other), viewer) == GAME.view(state, viewer)


@pytest.mark.parametrize("num_players,options", VARIANTS, ids=[f"{n}p-{o}" for n, o in VARIANTS])
def test_random_matches(num_players, options):
    players = [RandomPlayer()] * num_players
    for seed in range(MATCHES_PER_VARIANT):
        checker = StepChecker(seed)
        record = play_match(GAME, players, seed=seed, options=options, on_step=checker)
        outcome = record.outcome
        assert outcome is not None, "the match must end"
        assert outcome["winners"], "somebody wins"
        assert sorted(outcome["scores"]) == [str(s) for s in range(num_players)]
        best = max(outcome["scores"].values())
        assert all(outcome["scores"][str(w)] == best for w in outcome["winners"])
        if seed % 10 == 0:
            final, _ = replay(GAME, num_players, options, seed, record.actions)
            assert final == record.final_state
