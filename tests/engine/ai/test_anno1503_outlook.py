"""hard's value in the Anno 1503 base game: one production roll ahead, and
a pioneer worth more than medium counts it (``outlook``, ``HARD_INHABITANT``).

Seat 0 holds island A, which produces any card (``?``) on a 1 and stone,
wood, cloth, tool on 2-5. Spice and tobacco come only from ``?``, branch
offices and buying.
"""

import engine
from engine.ai.anno1503.evaluate import evaluate
from engine.ai.anno1503.outlook import next_roll_value
from engine.ai.anno1503.policy import greedy_choice, hard_greedy_choice
from engine.ai.anno1503.values import HARD_INHABITANT
from engine.games.anno1503.data import TILE_COMMODITY

from .support import positions

GAME = engine.get_game("anno1503")
# back-3 branch offices: unused at two players, so they lie in the box
TOBACCO_OFFICE, STONE_OFFICE = 21, 22


def _one_tobacco_short(offices):
    """A 2-player main-phase position: seat 0 is one tobacco short of a
    merchant and holds the branch offices ``{bridge: tile}``."""
    dump = GAME.dump(GAME.setup(2, {}, 5))
    player = dump["players"][0]
    player["hand"] = {**dict.fromkeys(player["hand"], 0), "tobacco": 1, "spice": 1}
    player["slots"] = ["pioneer", "citizen"] + [None] * 5
    for bridge, tile in offices.items():
        player["branch_offices"][str(bridge)] = tile
        dump["box"].remove(tile)
    dump["phase"], dump["active"], dump["choice"], dump["queue"] = "main", 0, None, []
    return GAME.load(dump)


def _values(state):
    return evaluate(state, 0, inhabitant=HARD_INHABITANT), next_roll_value(state, 0)


def test_a_branch_office_bringing_the_missing_card_raises_the_outlook_only():
    assert (TILE_COMMODITY[TOBACCO_OFFICE], TILE_COMMODITY[STONE_OFFICE]) == ("tobacco", "stone")
    tobacco_now, tobacco_next = _values(_one_tobacco_short({2: TOBACCO_OFFICE}))
    stone_now, stone_next = _values(_one_tobacco_short({2: STONE_OFFICE}))
    # the hand alone cannot tell the offices apart; the next roll can
    assert tobacco_now == stone_now
    assert tobacco_next > stone_next


def test_a_branch_office_on_the_any_card_number_adds_nothing():
    on_any = _values(_one_tobacco_short({1: TOBACCO_OFFICE}))
    on_stone = _values(_one_tobacco_short({2: TOBACCO_OFFICE}))
    assert on_any[0] == on_stone[0]
    assert on_stone[1] > on_any[1]


def test_the_outlook_leaves_the_position_unchanged():
    state = _one_tobacco_short({2: TOBACCO_OFFICE})
    before = GAME.dump(state)
    next_roll_value(state, 0)
    assert GAME.dump(state) == before


def test_hard_keeps_the_wood_medium_would_sell_for_a_pioneer():
    # medium's 0.06 for a pioneer lets the wood it needs go for one coin
    kept = []
    for state in positions(GAME, 4, {}, 11, 120, every=1, keep=lambda s: s.phase == "main"):
        seat = GAME.to_act(state)[0]
        actions = GAME.legal_actions(state, seat)
        medium, hard = (
            greedy_choice(GAME, state, seat, actions),
            hard_greedy_choice(GAME, state, seat, actions),
        )
        if medium == {"type": "sell", "commodity": "wood"} and hard != medium:
            kept.append(state.turn)
    assert kept
