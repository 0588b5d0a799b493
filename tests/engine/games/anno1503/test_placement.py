"""Placement and development: ships, pioneers, developments, public buildings."""

from .helpers import (
    AP_BY_PLAYERS,
    START,
    assert_illegal,
    dump,
    legal_of_type,
    load,
    of_type,
    play,
    position,
    set_hand,
    set_island,
)

SHIP = {"type": "build_ship"}


def test_ship_costs_cloth_wood_tool_and_starts_on_the_start_space():
    """S1 "Place a ship": pay one cloth, one wood and one tool; the ship goes
    on the start space (with its full action points, DESIGN.md)."""
    d = position(3)
    d["players"][0]["ships"][0]["at"] = [0, 1]
    set_hand(d, 0, cloth=1, wood=1, tool=1, stone=1)
    state, events = play(load(d), 0, SHIP)
    after = dump(state)
    assert after["players"][0]["hand"] == {
        "stone": 1,
        "wood": 0,
        "tool": 0,
        "cloth": 0,
        "spice": 0,
        "tobacco": 0,
    }
    assert after["players"][0]["ships"][1] == {"at": START, "ap": AP_BY_PLAYERS[3]}
    assert after["stacks"]["cloth"] == 15 and after["stacks"]["tool"] == 15
    assert of_type(events, "ship_built")


def test_ship_needs_all_three_cards():
    """S1 "Place a ship": the price is cloth + wood + tool."""
    d = position(2)
    d["players"][0]["ships"][0] = {"at": None, "ap": 0}
    set_hand(d, 0, cloth=1, wood=1, stone=3)
    assert_illegal(load(d), 0, SHIP)


def test_at_most_two_ships():
    """S1 components: 2 ships per player (game-content §1.2 "max 2 ships")."""
    d = position(2)
    d["players"][0]["ships"][1] = {"at": [1, 0], "ap": 2}
    set_hand(d, 0, cloth=1, wood=1, tool=1)
    assert_illegal(load(d), 0, SHIP)


def test_pioneer_costs_wood_and_tool_and_fills_the_next_green_space():
    """S1 "Place a pioneer": pay one wood and one tool; the pioneer goes on
    the green space bordering the most recently placed inhabitant (slot 3
    after the two red ones)."""
    d = position(2)
    set_hand(d, 0, wood=1, tool=1)
    state = load(d)
    assert legal_of_type(state, 0, "place_pioneer") == [{"type": "place_pioneer"}]
    state, events = play(state, 0, {"type": "place_pioneer"})
    after = dump(state)
    assert after["players"][0]["slots"][:3] == ["pioneer", "settler", "pioneer"]
    assert sum(after["players"][0]["hand"].values()) == 0
    assert of_type(events, "pioneer_placed")[0]["data"]["slot"] == 3


def test_pioneer_without_tool_is_refused():
    """S1 "Place a pioneer": wood AND tool."""
    d = position(2)
    set_hand(d, 0, wood=2)
    assert_illegal(load(d), 0, {"type": "place_pioneer"})


def test_develop_pioneer_to_settler():
    """S1 "Develop inhabitants": pioneer -> settler for 1 cloth + 2 stone."""
    d = position(2)
    set_hand(d, 0, cloth=1, stone=2, wood=1)
    state, events = play(load(d), 0, {"type": "develop", "slot": 1})
    after = dump(state)
    assert after["players"][0]["slots"][0] == "settler"
    assert after["players"][0]["hand"]["wood"] == 1
    assert sum(after["players"][0]["hand"].values()) == 1
    assert of_type(events, "developed")[0]["data"] == {"slot": 1, "from": "pioneer", "to": "settler"}


def test_develop_example_settler_to_citizen():
    """S1/S2 develop example: "He discards 2 spice and 1 stone, returns the
    settler tile to his stock, and replaces it with a citizen tile"."""
    d = position(2)
    set_hand(d, 0, spice=2, stone=1)
    state, _ = play(load(d), 0, {"type": "develop", "slot": 2})
    after = dump(state)
    assert after["players"][0]["slots"][:2] == ["pioneer", "citizen"]
    assert sum(after["players"][0]["hand"].values()) == 0
    assert after["stacks"]["spice"] == 15 and after["stacks"]["stone"] == 15


def test_develop_citizen_to_merchant():
    """S1 "Develop inhabitants": citizen -> merchant for 2 tobacco + 1 spice."""
    d = position(2)
    set_island(d, 0, ["pioneer", "citizen"])
    set_hand(d, 0, tobacco=2, spice=1)
    state, _ = play(load(d), 0, {"type": "develop", "slot": 2})
    assert dump(state)["players"][0]["slots"][1] == "merchant"


def test_develop_with_missing_cards_is_refused():
    """S1 costs: settler -> citizen needs two spice."""
    d = position(2)
    set_hand(d, 0, spice=1, stone=1)
    assert_illegal(load(d), 0, {"type": "develop", "slot": 2})


def test_merchant_and_empty_slot_cannot_develop():
    """S1: a merchant is the last step; an empty slot holds nobody."""
    d = position(2)
    set_island(d, 0, ["merchant", "settler"])
    set_hand(d, 0, tobacco=2, spice=3, stone=3, cloth=1)
    state = load(d)
    assert_illegal(state, 0, {"type": "develop", "slot": 1})
    assert_illegal(state, 0, {"type": "develop", "slot": 3})


def test_four_pioneer_settler_note():
    """S1/S2 "Note": with four pioneers and settlers in play no new pioneer
    can be settled; developing a settler into a citizen frees a
    pioneer/settler tile, which is then placed (as a pioneer, ruling 1) for
    a wood and a tool."""
    d = position(2)
    set_island(d, 0, ["pioneer", "settler", "pioneer", "pioneer"], ["school"])
    set_hand(d, 0, wood=1, tool=1, spice=2, stone=1)
    state = load(d)
    assert_illegal(state, 0, {"type": "place_pioneer", "building": "church"})
    state, _ = play(state, 0, {"type": "develop", "slot": 2})
    state, _events = play(state, 0, {"type": "place_pioneer", "building": "church"})
    p = dump(state)["players"][0]
    assert p["slots"][:5] == ["pioneer", "citizen", "pioneer", "pioneer", "pioneer"]
    assert p["buildings"][:2] == ["school", "church"]


def test_church_and_school_example():
    """S1/S2 public-building example: the 5th pioneer takes a free Church
    below it; a second School could not have been selected."""
    d = position(3)
    set_island(d, 0, ["pioneer", "settler", "citizen", "pioneer"], ["school"])
    set_hand(d, 0, wood=1, tool=1)
    state = load(d)
    offered = {a["building"] for a in legal_of_type(state, 0, "place_pioneer")}
    assert "church" in offered and "school" not in offered
    assert offered == {b for b, n in dump(state)["buildings"].items() if n} - {"school"}
    assert_illegal(state, 0, {"type": "place_pioneer", "building": "school"})
    church_before = dump(state)["buildings"]["church"]
    state, events = play(state, 0, {"type": "place_pioneer", "building": "church"})
    after = dump(state)
    assert after["players"][0]["slots"][4] == "pioneer"
    assert after["players"][0]["buildings"] == ["school", "church", None, None]
    assert after["buildings"]["church"] == church_before - 1
    assert of_type(events, "pioneer_placed")[0]["data"] == {"slot": 5, "building": "church"}


def test_slot_three_takes_no_building():
    """S1 "The public buildings": only pioneers after the third (over a
    brown space) take a building."""
    d = position(2)
    set_hand(d, 0, wood=1, tool=1)
    assert_illegal(load(d), 0, {"type": "place_pioneer", "building": "church"})


def test_a_pioneer_over_a_brown_space_needs_a_building_choice():
    """S1 "The public buildings": slots 4-7 sit above brown spaces."""
    d = position(2)
    set_island(d, 0, ["pioneer", "settler", "pioneer"])
    set_hand(d, 0, wood=1, tool=1)
    state = load(d)
    assert all("building" in a for a in legal_of_type(state, 0, "place_pioneer"))
    assert legal_of_type(state, 0, "place_pioneer")


def test_seven_slots_then_no_more_pioneers():
    """game-content §1.3: 7 inhabitant slots (ruling 24)."""
    d = position(4)
    set_island(
        d,
        0,
        ["citizen", "citizen", "citizen", "pioneer", "pioneer", "settler", "settler"],
        ["school", "church", "smithy", "shipyard"],
    )
    set_hand(d, 0, wood=1, tool=1)
    state = load(d)
    assert legal_of_type(state, 0, "place_pioneer") == []
    assert_illegal(state, 0, {"type": "place_pioneer", "building": "restaurant"})
