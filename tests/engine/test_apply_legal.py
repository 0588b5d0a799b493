"""``Game.apply_legal`` (the environments' apply for an action picked from
``legal_actions``) gives exactly what the checked ``apply`` gives."""

import pytest

import engine
from engine.rng import Rng

CASES = [
    ("anno1503", 2, {}),
    ("anno1503", 4, {"expansion": "pirates_aristocrats"}),
    ("anno1452", 4, {"rules": "expert"}),
    ("anno1452", 2, {}),
]


@pytest.mark.parametrize(("game_id", "players", "options"), CASES)
def test_apply_legal_equals_the_checked_apply(game_id, players, options):
    game, rng, compared = engine.get_game(game_id), Rng(7), 0
    state = game.setup(players, options, 7)
    for _ in range(300):
        if game.outcome(state) is not None:
            break
        seat = game.to_act(state)[0]
        actions = game.legal_actions(state, seat)
        for action in actions[:: max(1, len(actions) // 4)]:
            checked, events = game.apply(state, seat, action)
            fast, fast_events = game.apply_legal(state, seat, action)
            assert game.dump(fast) == game.dump(checked) and fast_events == events
            compared += 1
        state, _ = game.apply(state, seat, actions[rng.below(len(actions))])
    assert compared > 100
