"""Medium makes progress in the Pirates & Aristocrats expansion.

Regression tests for positions where medium sat still: cards kept for an
aristocrat building no longer in the supply (so the card it lacked was never
bought), and a ship that never sailed to the lairs because the shortest way
ran through a pirate square it then refused to enter.
"""

import engine
from engine.ai.anno1503.expansion.evaluate import _STEPS, _targets, progress
from engine.ai.anno1503.values import merchant_progress
from engine.games.anno1503.expansion.data import ARISTO_COSTS, PIRATE_SQUARES

GAME = engine.get_game("anno1503")
OPTIONS = {"expansion": "pirates_aristocrats"}


def _seat0(dump_edit):
    dump = GAME.dump(GAME.setup(2, OPTIONS, 5))
    dump_edit(dump, dump["players"][0])
    return GAME.load(dump)


def test_cards_are_kept_only_for_buildings_still_in_the_supply():
    def edit(dump, player):
        player["hand"].update({"marble": 1, "gems": 1, "wood": 1})
        dump["aristocrat_buildings"]["park"] = 0  # the building those cards pay for is gone

    state = _seat0(edit)
    player = state.players[0]
    costs = [cost for cost, _ in _targets(player, state.part.aristocrat_buildings)]
    assert ARISTO_COSTS["park"] not in costs
    assert any(cost in costs for name, cost in ARISTO_COSTS.items() if name != "park")
    # without the supply the park would be the target: the cards fit it best
    assert ARISTO_COSTS["park"] in [cost for cost, _ in _targets(player)]


def test_a_pirate_square_costs_more_than_a_step_on_the_way():
    # (3, 13) to (3, 15) is two squares through the pirate square (3, 14);
    # entering it ends the move, so the way counts as longer than two steps
    assert (3, 14) in PIRATE_SQUARES
    assert _STEPS[(3, 13)][(3, 15)] > 2
    assert _STEPS[(3, 13)][(2, 13)] == 1


def test_only_the_three_best_inhabitants_count_towards_merchants():
    # Two merchants and four settlers are one development short of the goal,
    # as in the base game's value (the expansion's used to count all six).
    def edit(dump, player):
        player["slots"] = ["merchant", "merchant", "settler", "settler", "settler", "settler"]

    home, _ = progress(_seat0(edit).players[0])
    assert home[0] == merchant_progress(["merchant", "merchant", "settler"]) < 0.9
