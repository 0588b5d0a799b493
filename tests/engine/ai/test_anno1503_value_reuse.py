"""The Anno 1503 value's shortcuts give the very floats of the long way
(issue 45: hard's CPU per decision): the leaf values only the hand again
per extra card, ship values are kept on the tile beliefs per square, and
reserve steps and hand values are remembered by what they read."""

from engine import get_game
from engine.ai.anno1503 import hand
from engine.ai.anno1503.evaluate import TileBeliefs, evaluate, evaluate_with_cards, square_value
from engine.ai.anno1503.expansion import evaluate as x_evaluate
from engine.ai.anno1503.goals import goal_progress
from engine.ai.anno1503.values import HARD_INHABITANT
from engine.games.anno1503.data import COMMODITIES, SEA_NEIGHBOURS

from .support import positions

GAME = get_game("anno1503")


def _positions():
    return positions(GAME, 3, {"expansion": "none"}, 77, 40, every=3)


def test_the_value_with_one_more_card_is_evaluate_of_that_position():
    for state in _positions():
        seat = GAME.to_act(state)[0]
        now, with_card = evaluate_with_cards(state, seat, COMMODITIES, inhabitant=HARD_INHABITANT)
        assert now == evaluate(state, seat, inhabitant=HARD_INHABITANT)
        for c in COMMODITIES:
            more = state.clone()
            more.players[seat].hand[c] += 1
            assert with_card[c] == evaluate(more, seat, inhabitant=HARD_INHABITANT)


def test_a_remembered_hand_value_is_the_one_computed_afresh():
    states = _positions()
    for state in states:  # fill the tables with every seat's holdings
        for seat in range(state.num_players):
            evaluate(state, seat)
    for state in states:
        for seat in range(state.num_players):
            player = state.players[seat]
            progress = goal_progress(player, state.buildings)
            key, steps = hand.reserve_steps(player, progress, state.buildings, 0.1, None)
            assert steps == hand._steps(player, progress, state.buildings, 0.1, None)
            fresh = hand._hand_value(player, progress, steps)
            assert hand.hand_value_with(player, progress, (key, steps)) == fresh


def test_ship_values_kept_on_the_beliefs_follow_the_tiles():
    changed = 0
    for state in _positions():
        seat = GAME.to_act(state)[0]
        beliefs = TileBeliefs(state, seat)
        kept = {at: square_value(state, at, beliefs) for at in SEA_NEIGHBOURS}
        taken = [i for i, tile in enumerate(state.spaces) if tile is not None]
        after = state.clone()
        after.spaces[taken[0]] = None  # the same beliefs, one tile fewer on the board
        for at in SEA_NEIGHBOURS:
            # beliefs of the same position, nothing kept on them yet
            fresh = TileBeliefs(state, seat)
            assert square_value(after, at, beliefs) == square_value(after, at, fresh)
            assert (
                square_value(state, at, beliefs)
                == kept[at]
                == square_value(state, at, TileBeliefs(state, seat))
            )
            changed += square_value(after, at, fresh) != kept[at]
    assert changed  # some ship's best tile was the one taken away


def test_the_expansion_remembers_hand_values_and_ship_values_alike():
    states = positions(GAME, 3, {"expansion": "pirates_aristocrats"}, 78, 40, every=3)
    for state in states:  # fill the table with every seat's holdings
        for seat in range(state.num_players):
            x_evaluate.evaluate(state, seat)
    for state in states:
        supply = state.part.aristocrat_buildings
        for seat in range(state.num_players):
            player = state.players[seat]
            assert x_evaluate.hand_value(player, supply) == x_evaluate._hand_value(player, supply)
            beliefs = x_evaluate.TileBeliefs(state, seat)
            for ship in (0, 1):
                kept = x_evaluate.ship_value(state, player, ship, beliefs)
                assert kept == x_evaluate.ship_value(state, player, ship, x_evaluate.TileBeliefs(state, seat))
                for space in beliefs.mine:  # a seen tile left out: not the ship value kept
                    fresh = x_evaluate.TileBeliefs(state, seat)
                    del fresh.mine[space]
                    without = x_evaluate.ship_value(state, player, ship, beliefs.without(space))
                    assert without == x_evaluate.ship_value(state, player, ship, fresh)
