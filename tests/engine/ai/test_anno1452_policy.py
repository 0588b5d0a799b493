"""The greedy policy's shortcuts: one settle applied per Citizen count, and
one serialization of the position for all the moves it applies."""

import engine
from engine.ai.anno1452.players import sample_state
from engine.ai.anno1452.policy import _exposure, score_actions, settle_spots
from engine.games.anno1452.board import set_slot
from engine.rng import Rng, mix_seed

from . import support

GAME = engine.get_game("anno1452")


def _crowded_turns():
    """4-player action turns with settles of more than one Citizen count."""
    states = support.positions(
        GAME,
        4,
        {"rules": "expert"},
        11,
        10,
        every=9,
        steps=3000,
        keep=lambda state: state.data["decision"]["kind"] == "action_turn",
    )
    for state in states:
        seat = GAME.to_act(state)[0]
        actions = GAME.legal_actions(state, seat)
        if len({len(settle_spots(a)) for a in actions if a["type"] == "settle"}) > 1:
            world = sample_state(GAME, GAME.view(state, seat), seat, Rng(mix_seed(3, seat, 0)))
            yield world, seat, actions


def test_each_citizen_count_is_scored_by_its_settle_that_guards_the_most_and_the_rest_follow_it():
    checked = 0
    for world, seat, actions in _crowded_turns():
        exposure = _exposure(world.data, seat)
        scores = {i: s for s, i in score_actions(GAME, world, seat, actions)}
        by_count = {}
        for i, a in enumerate(actions):
            if a["type"] == "settle":
                spots = settle_spots(a)
                by_count.setdefault(len(spots), []).append((sum(exposure[r] for r, _ in spots), i))
        for group in by_count.values():
            guarded = max(key for key, _ in group)
            representative = min(i for key, i in group if key == guarded)  # the first of the best
            followers = [i for _, i in group if i != representative]
            assert all(scores[i] == scores[representative] - 0.01 for i in followers)
        checked += 1
    assert checked >= 3


def test_clones_of_a_frozen_position_equal_it_and_are_independent():
    state = GAME.setup(4, {"rules": "expert"}, 7)
    frozen = state.clone().frozen()
    first, second = frozen.clone(), frozen.clone()
    assert first == state and second == state and frozen == state
    # The map is copy-on-write: changed only through board.set_slot (and change_estate).
    set_slot(first.data, 0, 0, {"owner": 0, "strength": 3, "city": False, "citizens": 0})
    first.data["players"][1]["gold"] += 5
    assert second == state and frozen == state and frozen.clone() == state
