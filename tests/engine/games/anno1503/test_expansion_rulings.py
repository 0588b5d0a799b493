"""One test per ruling of game-content.md §2.14 (expansion ambiguities)."""

import json

from .expansion_helpers import (
    BESIDE_LAIR_SPACE,
    BESIDE_PIRATE_SQUARE,
    LAIR_SPACE,
    PIRATE_SQUARE,
    aristo,
    give_cards,
    lair_tile,
    luxury_office_tile,
    place_ship,
    put_expansion_tile,
    set_xhand,
    top_pirate_card,
    xload,
    xposition,
)
from .helpers import _DATA, assert_illegal, end_turn_rolling, game, of_type, play
from .test_expansion_aristocrats import _own_lair


def test_ruling_2_14_01_second_neighbour_who_is_yourself_plays_as_strong_as_you():
    d = xposition(2)
    aristo(d, 0)["cannons"] = 3
    place_ship(d, 0, BESIDE_PIRATE_SQUARE)
    top_pirate_card(d, 4)  # "2nd neighbour to the left": yourself with 2 players
    _state, events = play(xload(d), 0, {"type": "move_ship", "ship": 0, "to": PIRATE_SQUARE})
    named = of_type(events, "pirate_named")[0]["data"]
    assert named == {"pirate": None, "as_strong": True, "strength": 3}


def test_ruling_2_14_01_second_left_in_3p_is_the_right_neighbour():
    d = xposition(3)
    place_ship(d, 0, BESIDE_PIRATE_SQUARE)
    top_pirate_card(d, 4)
    _state, events = play(xload(d), 0, {"type": "move_ship", "ship": 0, "to": PIRATE_SQUARE})
    assert of_type(events, "pirate_named")[0]["data"]["pirate"] == 2


def test_ruling_2_14_02_the_left_neighbour_rolls_for_a_lair():
    d = xposition(4, active=2)
    put_expansion_tile(d, lair_tile(5), LAIR_SPACE)
    place_ship(d, 2, BESIDE_LAIR_SPACE)
    state, _ = play(xload(d), 2, {"type": "discover", "ship": 0, "space": LAIR_SPACE})
    state, events = play(state, 2, {"type": "attack_lair"})  # S3 §6.3: the finder chose to fight
    assert of_type(events, "lair_attacked")[0]["data"]["roller"] == 3
    assert all(e["data"]["roller"] == 3 for e in of_type(events, "combat_rolled"))


def test_ruling_2_14_03_only_entering_triggers_and_the_ship_stays():
    d = xposition(3)
    place_ship(d, 0, PIRATE_SQUARE)
    state, events = play(xload(d), 0, {"type": "move_ship", "ship": 0, "to": BESIDE_PIRATE_SQUARE})
    assert not of_type(events, "pirate_card_drawn")
    d = xposition(3)
    place_ship(d, 0, BESIDE_PIRATE_SQUARE)
    top_pirate_card(d, 0)
    state, _ = play(xload(d), 0, {"type": "move_ship", "ship": 0, "to": PIRATE_SQUARE})
    state, _ = play(state, 0, {"type": "respond", "option": "pay"})
    assert game().dump(state)["players"][0]["ships"][0]["at"] == PIRATE_SQUARE


def test_ruling_2_14_04_cards_only_before_the_first_move_or_discovery():
    d = xposition(3)
    give_cards(d, 0, "builder")
    state, _ = play(xload(d), 0, {"type": "move_ship", "ship": 0, "to": [1, 0]})
    assert assert_illegal(state, 0, {"type": "play_card", "card": "builder"}) == "cards_only_before_sailing"


def test_ruling_2_14_05_luxury_counts_toward_two_purchases():
    d = xposition(2)
    d["players"][0]["gold"] = 30
    state, _ = play(xload(d), 0, {"type": "buy", "commodity": "stone"})
    state, _ = play(state, 0, {"type": "buy", "commodity": "silk"})
    assert assert_illegal(state, 0, {"type": "buy", "commodity": "gems"}) == "two_buys_per_turn"


def test_ruling_2_14_06_luxury_sells_only_to_the_aristocrat():
    d = xposition(2)
    set_xhand(d, 0, gems=1)
    aristo(d, 0)["buildings"] = ["richest_aristocrat"]
    d["aristocrat_buildings"]["richest_aristocrat"] -= 1
    state = xload(d)
    assert (
        assert_illegal(state, 0, {"type": "sell", "commodity": "gems"}) == "only_the_aristocrat_buys_luxury"
    )
    state, events = play(state, 0, {"type": "sell_luxury", "commodity": "gems"})
    assert of_type(events, "sold")[0]["data"]["gold"] == 6


def test_ruling_2_14_07_damaged_ships_count_and_repair_lets_them_move():
    d = xposition(3)
    place_ship(d, 0, [2, 9], ship=0, ap=0)
    place_ship(d, 0, [1, 8], ship=1, ap=0)
    aristo(d, 0)["damaged"] = [True, False]
    set_xhand(d, 0, cloth=1, wood=2, tool=2)
    state = xload(d)
    assert assert_illegal(state, 0, {"type": "build_ship"}) == "no_ship_in_stock"
    state, _ = play(state, 0, {"type": "repair_ship", "ship": 0})
    assert {"type": "move_ship", "ship": 0, "to": [2, 10]} in game().legal_actions(state, 0)


def test_ruling_2_14_08_lost_luxury_office_goes_under_the_expansion_reserve():
    d = xposition(2)
    tile = luxury_office_tile("silk")
    for pile in ("expansion_reserve", "box"):
        if tile in d[pile]:
            d[pile].remove(tile)
    for k, v in d["spaces"].items():
        if v == tile:
            d["spaces"][k] = None
    d["players"][1]["branch_offices"]["1"] = tile
    d["players"][1]["gold"] = 0
    top = d["expansion_reserve"][0]
    # two free pirate-sea spaces: seat 1 (the loser) chooses
    free = [k for k, v in d["spaces"].items() if int(k.split(",")[1]) >= 12 and v is None]
    assert len(free) >= 2
    state, _events = end_turn_rolling(d, 6, 1)  # the pirates event hits seat 1 first? (seat 1 is next)
    after = game().dump(state)
    assert tile in after["expansion_reserve"] and after["expansion_reserve"][-1] == tile
    assert state.choice["kind"] == "pirate_sea_placement" and game().to_act(state) == [1]
    r, c = [int(x) for x in free[0].split(",")]
    state, _events = play(state, 1, {"type": "place_reserve_tile", "space": [r, c]})
    assert game().dump(state)["spaces"][free[0]] == top


def test_ruling_2_14_09_discount_floor():
    d = xposition(2)
    _own_lair(d, 0, lair_tile(6))
    _own_lair(d, 0, next(t for t in range(32, 53) if t != lair_tile(6) and _is_lair6(t)))
    aristo(d, 0)["buildings"] = ["theatre"]
    d["aristocrat_buildings"]["theatre"] -= 1
    d["players"][0]["gold"] = 5
    _state, events = play(xload(d), 0, {"type": "buy", "commodity": "silk"})
    assert of_type(events, "bought")[0]["data"]["gold"] == 2  # 10 - 3 - 3 - 2


def _is_lair6(t):
    tiles = json.loads((_DATA / "expansion_tiles.json").read_text(encoding="utf-8"))["tiles"]
    return any(x["id"] == t and x["kind"] == "lair" and x["strength"] == 6 for x in tiles)


def test_ruling_2_14_10_several_manor_steps_in_one_turn():
    d = xposition(2)
    d["players"][0]["gold"] = 2
    set_xhand(d, 0, wood=1, stone=1)
    state, _ = play(xload(d), 0, {"type": "build_manor"})
    state, _ = play(state, 0, {"type": "build_manor"})
    after = game().dump(state)
    assert aristo(after, 0)["manor"] == 2 and len(aristo(after, 0)["cards"]) == 2
