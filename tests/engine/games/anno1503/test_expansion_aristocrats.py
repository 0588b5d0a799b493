"""Setup, luxury goods, the manor, aristocrat buildings and cards, and the
expansion victory (game-content §2.2, §2.7-§2.10, §2.12)."""

import pytest

from .expansion_helpers import (
    OPTIONS,
    PORT_SEA,
    aristo,
    give_cards,
    lair_tile,
    luxury_office_tile,
    place_ship,
    put_expansion_tile,
    set_xhand,
    xload,
    xposition,
)
from .helpers import assert_illegal, end_turn_rolling, game, give_trade_agreements, of_type, play

# --- setup --------------------------------------------------------------------------------


@pytest.mark.parametrize("n, buildings", [(2, 6), (3, 8), (4, 10)])
def test_setup(n, buildings):
    d = game().dump(game().setup(n, OPTIONS, seed=4))
    for p in d["players"]:
        assert p["slots"][:2] == ["settler", "citizen"]
        assert p["aristocrat"]["manor"] == 0 and p["aristocrat"]["cannons"] == 0
    assert {c: d["stacks"][c] for c in ("silk", "marble", "gems")} == {"silk": 10, "marble": 10, "gems": 10}
    assert sum(d["aristocrat_buildings"].values()) == buildings
    assert sorted(d["pirate_deck"]) == list(range(10)) and len(d["aristocrat_deck"]) == 20
    assert d["spaces"]["2,8"] is None  # the port replaced that island space
    pirate_spaces = [k for k in d["spaces"] if int(k.split(",")[1]) >= 12]
    assert len(pirate_spaces) == 14
    on_board = [d["spaces"][k] for k in pirate_spaces if d["spaces"][k] is not None]
    assert all(t >= 32 for t in on_board) and len(on_board) == {2: 8, 3: 11, 4: 14}[n]


def test_new_ships_may_start_beside_the_port():
    d = xposition(2)
    set_xhand(d, 0, cloth=1, wood=1, tool=1)
    state = xload(d)
    ats = [a.get("at") for a in game().legal_actions(state, 0) if a["type"] == "build_ship"]
    assert ats == [None] + [list(sq) for sq in PORT_SEA]
    state, _ = play(state, 0, {"type": "build_ship", "at": [2, 9]})
    assert game().dump(state)["players"][0]["ships"][1]["at"] == [2, 9]


# --- luxury -------------------------------------------------------------------------------


def test_luxury_costs_10_and_trade_agreements_do_not_count():
    d = xposition(2)
    give_trade_agreements(d, 0, 2)
    d["players"][0]["gold"] = 20
    _state, events = play(xload(d), 0, {"type": "buy", "commodity": "gems"})
    assert of_type(events, "bought")[0]["data"]["gold"] == 10


def test_theatre_takes_2_off():
    d = xposition(2)
    aristo(d, 0)["buildings"] = ["theatre"]
    d["aristocrat_buildings"]["theatre"] -= 1
    d["players"][0]["gold"] = 20
    _state, events = play(xload(d), 0, {"type": "buy", "commodity": "gems"})
    assert of_type(events, "bought")[0]["data"]["gold"] == 8


def test_aristocrat_buys_one_luxury_per_turn():
    d = xposition(2)
    set_xhand(d, 0, silk=2)
    state, events = play(xload(d), 0, {"type": "sell_luxury", "commodity": "silk"})
    assert of_type(events, "sold")[0]["data"]["gold"] == 3
    assert (
        assert_illegal(state, 0, {"type": "sell_luxury", "commodity": "silk"})
        == "aristocrat_bought_this_turn"
    )


def test_luxury_branch_office_on_the_question_mark():
    """Seat 0's island A has ? on 1 and no gray bridge there (§1.3)."""
    d = xposition(2)
    tile = luxury_office_tile("marble")
    put_expansion_tile(d, tile, [2, 14])
    place_ship(d, 0, [2, 13])
    state, _ = play(xload(d), 0, {"type": "discover", "ship": 0, "space": [2, 14]})
    bridges = [a["bridge"] for a in game().legal_actions(state, 0) if a["type"] == "take_tile"]
    assert bridges == [1, 2, 3, 4, 5]
    state, _ = play(state, 0, {"type": "take_tile", "bridge": 1})
    d = game().dump(state)
    assert d["players"][0]["branch_offices"]["1"] == tile
    # a 1 is rolled: the ? offers the six commodities and the marble
    d["active"] = 1
    d["players"][0]["gold"] = 0
    state, _events = end_turn_rolling(d, 1)
    choice = state.choice
    assert choice["seat"] == 0 and "marble" in choice["options"] and len(choice["options"]) == 7


def test_golden_times_never_offer_luxury():
    d = xposition(2)
    state, _ = end_turn_rolling(d, 6, 5)
    assert not set(state.choice["options"]) & {"silk", "marble", "gems"}


def test_hand_limit_counts_luxury():
    d = xposition(2)
    set_xhand(d, 0, stone=3, silk=3)
    state, events = play(xload(d), 0, {"type": "end_turn"})
    assert state.phase == "discard" and of_type(events, "discard_required")[0]["data"]["count"] == 1
    assert {"type": "discard", "commodity": "silk"} in game().legal_actions(state, 0)


# --- the manor ----------------------------------------------------------------------------


def test_manor_step_1_costs_2_gold_and_draws_a_card():
    d = xposition(2)
    d["players"][0]["gold"] = 2
    state, _events = play(xload(d), 0, {"type": "build_manor"})
    after = game().dump(state)
    assert after["players"][0]["gold"] == 0 and aristo(after, 0)["manor"] == 1
    assert len(aristo(after, 0)["cards"]) == 1 and len(after["aristocrat_deck"]) == 19


def test_manor_step_9_refused_without_a_lair():
    d = xposition(2)
    aristo(d, 0)["manor"] = 8
    set_xhand(d, 0, silk=1, marble=1, gems=1)
    assert assert_illegal(xload(d), 0, {"type": "build_manor"}) == "manor_step_9_needs_a_defeated_lair"


def test_manor_step_9_with_a_lair():
    d = xposition(2)
    aristo(d, 0)["manor"] = 8
    tile = lair_tile(4)
    _own_lair(d, 0, tile)
    set_xhand(d, 0, silk=1, marble=1, gems=1)
    state, _ = play(xload(d), 0, {"type": "build_manor"})
    assert aristo(game().dump(state), 0)["manor"] == 9


def _own_lair(d, seat, tile):
    for pile in ("expansion_reserve", "box"):
        if tile in d[pile]:
            d[pile].remove(tile)
    for k, v in d["spaces"].items():
        if v == tile:
            d["spaces"][k] = None
    aristo(d, seat)["lairs"].append(tile)


# --- aristocrat buildings -------------------------------------------------------------------


def test_park_gives_12_gold_and_no_duplicates():
    d = xposition(3)
    set_xhand(d, 0, marble=2, gems=2, wood=2)
    state, _events = play(xload(d), 0, {"type": "build_aristocrat", "building": "park"})
    assert game().dump(state)["players"][0]["gold"] == d["players"][0]["gold"] + 12
    assert (
        assert_illegal(state, 0, {"type": "build_aristocrat", "building": "park"}) == "building_already_owned"
    )


def test_third_site_needs_a_lair():
    d = xposition(2)
    aristo(d, 0)["buildings"] = ["park", "theatre"]
    d["aristocrat_buildings"]["park"] -= 1
    d["aristocrat_buildings"]["theatre"] -= 1
    set_xhand(d, 0, silk=1, marble=1, stone=1)
    reason = assert_illegal(xload(d), 0, {"type": "build_aristocrat", "building": "cathedral"})
    assert reason == "skull_site_needs_a_defeated_lair"


def test_cathedral_draws_two_cards_privately():
    d = xposition(2)
    set_xhand(d, 0, silk=1, marble=1, stone=1)
    _state, events = play(xload(d), 0, {"type": "build_aristocrat", "building": "cathedral"})
    drawn = of_type(events, "aristocrat_cards_drawn")[0]
    assert drawn["data"] == {"count": 2} and len(drawn["private"]["0"]["cards"]) == 2


def test_library_develops_an_inhabitant():
    d = xposition(2)
    set_xhand(d, 0, silk=1, marble=1, spice=1)
    state, _ = play(xload(d), 0, {"type": "build_aristocrat", "building": "library", "slot": 2})
    assert game().dump(state)["players"][0]["slots"][1] == "merchant"


# --- aristocrat cards ---------------------------------------------------------------------


def test_builder_advances_the_manor_without_a_card():
    d = xposition(2)
    give_cards(d, 0, "builder")
    state, _events = play(xload(d), 0, {"type": "play_card", "card": "builder"})
    after = game().dump(state)
    assert aristo(after, 0)["manor"] == 1 and aristo(after, 0)["cards"] == []


def test_inventor_and_engineer():
    d = xposition(2)
    give_cards(d, 0, "inventor", "engineer")
    state, _ = play(xload(d), 0, {"type": "play_card", "card": "inventor", "luxury": "gems"})
    state, _ = play(state, 0, {"type": "play_card", "card": "engineer"})
    after = game().dump(state)
    assert after["players"][0]["hand"]["gems"] == 1 and aristo(after, 0)["cannons"] == 1


def test_explorer_adds_2_ap_and_a_free_discovery():
    d = xposition(2)
    give_cards(d, 0, "explorer")
    state, _ = play(xload(d), 0, {"type": "play_card", "card": "explorer"})
    assert game().dump(state)["players"][0]["ships"][0]["ap"] == 2 + 2


def test_exchange_once_per_turn_for_2_gold():
    d = xposition(2)
    give_cards(d, 0, "builder", "builder")
    state, _events = play(xload(d), 0, {"type": "exchange_card", "card": "builder"})
    after = game().dump(state)
    assert after["players"][0]["gold"] == d["players"][0]["gold"] - 2 and len(aristo(after, 0)["cards"]) == 2
    assert assert_illegal(state, 0, {"type": "exchange_card", "card": "builder"}) == "exchanged_this_turn"


def test_aristocrat_hand_limit_4():
    d = xposition(2)
    give_cards(d, 0, "builder", "builder", "inventor", "inventor", "engineer")
    state, _ = play(xload(d), 0, {"type": "end_turn"})
    assert state.phase == "card_discard" and game().to_act(state) == [0]
    state, _ = play(state, 0, {"type": "discard_card", "card": "engineer"})
    assert state.active == 1


def test_aristocrat_deck_reshuffles_its_discards():
    d = xposition(2)
    d["aristocrat_discard"] = d["aristocrat_deck"][:-1]
    d["aristocrat_deck"] = d["aristocrat_deck"][-1:]
    d["players"][0]["gold"] = 2
    set_xhand(d, 0, silk=1, marble=1, stone=1)
    state, events = play(xload(d), 0, {"type": "build_aristocrat", "building": "cathedral"})
    after = game().dump(state)
    assert of_type(events, "aristocrat_deck_reshuffled")
    assert len(after["aristocrat_deck"]) == 18 and after["aristocrat_discard"] == []


# --- victory ------------------------------------------------------------------------------


def test_one_home_goal_and_two_aristocrat_goals_win():
    d = xposition(2)
    d["players"][0]["slots"] = ["merchant", "merchant", "merchant", None, None, None, None]
    aristo(d, 0)["manor"] = 9
    _own_lair(d, 0, lair_tile(4))
    _own_lair(d, 0, lair_tile(5))
    d["players"][0]["gold"] = 4
    state, _events = play(xload(d), 0, {"type": "buy_cannon"})
    assert game().outcome(state)["winners"] == [0]


def test_three_aristocrat_goals_without_a_home_goal_do_not_win():
    d = xposition(2)
    aristo(d, 0)["manor"] = 9
    _own_lair(d, 0, lair_tile(4))
    _own_lair(d, 0, lair_tile(5))
    d["players"][0]["gold"] = 4
    state, _ = play(xload(d), 0, {"type": "buy_cannon"})
    assert game().outcome(state) is None


def test_30_gold_is_no_goal_in_the_expansion():
    d = xposition(2)
    d["players"][0]["gold"] = 40
    aristo(d, 0)["manor"] = 9
    _own_lair(d, 0, lair_tile(4))
    _own_lair(d, 0, lair_tile(5))
    state, _ = play(xload(d), 0, {"type": "buy_cannon"})
    assert game().outcome(state) is None
