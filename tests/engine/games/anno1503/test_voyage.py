"""Ship movement, discovery and the use of island tiles."""

from .helpers import (
    START,
    assert_illegal,
    dump,
    end_turn_rolling,
    game,
    give_branch_office,
    give_trade_agreements,
    key,
    legal_of_type,
    load,
    of_type,
    play,
    play_all,
    position,
    put_tile_on,
    set_island,
    tile_ids,
)


def move(to, ship=0):
    return {"type": "move_ship", "ship": ship, "to": list(to)}


def discover(space, ship=0):
    return {"type": "discover", "ship": ship, "space": list(space)}


def at_discovery(n, tile, space=(3, 1), ship_at=(2, 1), edit=None):
    """Seat 0's ship 0 next to ``space`` holding ``tile``, just discovered."""
    d = position(n)
    put_tile_on(d, tile, space)
    d["players"][0]["ships"][0]["at"] = list(ship_at)
    if edit:
        edit(d)
    state, _ = play(load(d), 0, discover(space))
    return state


def test_voyage_example_three_players():
    """S1/S2 voyage example (3 players, 3 AP): move one space right,
    discover an island and put the tile back, move one more space right; no
    AP is left; on the next turn the ship discovers a tile next to it
    without moving (ruling 16)."""
    d = position(3)
    tile = tile_ids("trade_agreement", back=2)[0]
    put_tile_on(d, tile, (3, 1))
    state, events = play_all(
        load(d),
        [
            (0, move((2, 1))),
            (0, discover((3, 1))),
            (0, {"type": "return_tile"}),
            (0, move((2, 2))),
        ],
    )
    after = dump(state)
    assert after["players"][0]["ships"][0] == {"at": [2, 2], "ap": 0}
    assert after["spaces"][key((3, 1))] == tile
    assert of_type(events, "tile_returned")
    assert legal_of_type(state, 0, "move_ship") == []
    assert legal_of_type(state, 0, "discover") == []
    assert_illegal(state, 0, discover((1, 2)))
    for _ in range(3):  # seats 0, 1, 2 end their turns; seat 0 again
        state, _ = end_turn_rolling(dump(state), 2)
    assert dump(state)["active"] == 0
    assert dump(state)["players"][0]["ships"][0]["ap"] == 3
    assert discover((1, 2)) in legal_of_type(state, 0, "discover")


def test_discovery_is_private_and_costs_one_ap():
    """S1 "discovery": looking at a tile costs one action point and the
    player should not share the information (ruling 17)."""
    tile = tile_ids("branch_office", "tobacco", back=2)[0]
    state = at_discovery(3, tile)
    d = dump(state)
    assert d["phase"] == "tile_decision"
    assert d["players"][0]["ships"][0]["ap"] == 2
    mine = game().view(state, 0)["discovery"]
    assert mine["tile"]["id"] == tile
    assert "tile" not in game().view(state, 1)["discovery"]
    assert "tile" not in game().view(state, None)["discovery"]


def test_moves_are_orthogonal_onto_adjacent_sea_only():
    """S1 "Rules for ship movement": orthogonal, one adjacent sea space per
    AP, never onto an island space."""
    d = position(3)
    d["players"][0]["ships"][0]["at"] = [2, 1]
    state = load(d)
    targets = sorted(a["to"] for a in legal_of_type(state, 0, "move_ship"))
    assert targets == [[1, 1], [2, 0], [2, 2]]
    assert_illegal(state, 0, move((3, 1)))  # island space
    assert_illegal(state, 0, move((1, 0)))  # diagonal
    assert_illegal(state, 0, move((2, 3)))  # two squares


def test_ships_may_share_a_space_and_each_gets_full_ap():
    """S1: any number of ships in the same space; with two ships on the
    board each gets the full action points."""
    d = position(3)
    d["players"][0]["ships"][1] = {"at": START, "ap": 3}
    d["players"][1]["ships"][0]["at"] = [2, 1]
    state, _ = play_all(load(d), [(0, move((2, 1))), (0, move((2, 2))), (0, move((2, 3)))])
    still = legal_of_type(state, 0, "move_ship")
    assert still and all(a["ship"] == 1 for a in still)
    state, _ = play_all(state, [(0, move((2, 1), 1)), (0, move((2, 2), 1)), (0, move((2, 3), 1))])
    ships = dump(state)["players"][0]["ships"]
    assert [s["at"] for s in ships] == [[2, 3], [2, 3]]


def test_branch_office_goes_on_a_free_gray_bridge_and_the_ship_returns():
    """S1 "Branch Office": placed immediately above an available gray bridge;
    using a tile ends the voyage and the ship returns to stock. Island A has
    gray bridges at 2-5 only ("?" has none, game-content §1.3)."""
    tile = tile_ids("branch_office", "spice", back=2)[0]
    state = at_discovery(2, tile)
    bridges = sorted(a["bridge"] for a in legal_of_type(state, 0, "take_tile"))
    assert bridges == [2, 3, 4, 5]
    assert_illegal(state, 0, {"type": "take_tile", "bridge": 1})
    state, events = play(state, 0, {"type": "take_tile", "bridge": 3})
    d = dump(state)
    assert d["players"][0]["branch_offices"]["3"] == tile
    assert d["spaces"][key((3, 1))] is None
    assert d["players"][0]["ships"][0] == {"at": None, "ap": 0}
    assert d["phase"] == "main"
    assert of_type(events, "tile_taken")[0]["data"]["bridge"] == 3


def test_fifth_branch_office_cannot_be_taken():
    """S1 "Branch Office": only 4 gray bridges; a 5th branch office cannot be
    taken nor exchanged with one already placed (ruling 18)."""

    def four_offices(d):
        for bridge, commodity in zip((2, 3, 4, 5), ("spice", "tobacco", "stone", "tool")):
            give_branch_office(d, 0, bridge, commodity)

    tile = tile_ids("branch_office", "spice", back=2)[0]
    state = at_discovery(2, tile, edit=four_offices)
    assert legal_of_type(state, 0, "take_tile") == []
    assert game().legal_actions(state, 0) == [{"type": "return_tile"}]
    for bridge in range(1, 6):
        assert_illegal(state, 0, {"type": "take_tile", "bridge": bridge})


def test_at_most_three_trade_agreements():
    """S1 "Trade Agreement": 3 brown bridges, a maximum of 3 agreements."""
    tile = tile_ids("trade_agreement", back=2)[0]
    state = at_discovery(3, tile, edit=lambda d: give_trade_agreements(d, 0, 3))
    assert legal_of_type(state, 0, "take_tile") == []
    assert_illegal(state, 0, {"type": "take_tile"})


def test_trade_agreement_is_taken():
    """S1 "Trade Agreement": placed at a free brown bridge."""
    tile = tile_ids("trade_agreement", back=2)[0]
    state = at_discovery(3, tile, edit=lambda d: give_trade_agreements(d, 0, 2))
    state, _ = play(state, 0, {"type": "take_tile"})
    assert tile in dump(state)["players"][0]["trade_agreements"]
    assert len(dump(state)["players"][0]["trade_agreements"]) == 3


def test_gold_treasure_gives_12_and_leaves_the_game():
    """S1 "Treasure" / treasure tiles: "You get 12 gold"; the tile is then
    removed from the game and the ship returns to stock."""
    tile = tile_ids("treasure_gold", back=2)[0]
    state = at_discovery(2, tile)
    state, _ = play(state, 0, {"type": "take_tile"})
    d = dump(state)
    assert d["players"][0]["gold"] == 19
    assert tile in d["removed"]
    assert d["spaces"][key((3, 1))] is None
    assert d["players"][0]["ships"][0]["at"] is None


def test_upgrade_treasure_develops_one_inhabitant_one_step_free():
    """S1 treasure tiles: "Develop an inhabitant one step", without paying."""
    tile = tile_ids("treasure_upgrade", back=2)[0]
    state = at_discovery(2, tile, edit=lambda d: set_island(d, 0, ["pioneer", "citizen", "merchant"]))
    slots = sorted(a["slot"] for a in legal_of_type(state, 0, "take_tile"))
    assert slots == [1, 2]  # the merchant cannot develop
    state, _ = play(state, 0, {"type": "take_tile", "slot": 2})
    d = dump(state)
    assert d["players"][0]["slots"][:3] == ["pioneer", "merchant", "merchant"]
    assert d["players"][0]["hand"] == dict.fromkeys(d["players"][0]["hand"], 0)
    assert tile in d["removed"]


def test_decision_comes_before_anything_else():
    """S1 "discovery" and ruling 17: the tile is decided immediately."""
    tile = tile_ids("trade_agreement", back=2)[0]
    state = at_discovery(3, tile)
    types = {a["type"] for a in game().legal_actions(state, 0)}
    assert types == {"take_tile", "return_tile"}
    assert_illegal(state, 0, {"type": "end_turn"})


def test_shipyard_doubles_action_points():
    """S1 "Shipyard": double the normally available action points."""
    d = position(2, active=1)
    set_island(d, 0, ["pioneer", "settler", "pioneer", "pioneer"], ["shipyard"])
    state, _ = end_turn_rolling(d, 2)
    assert dump(state)["players"][0]["ships"][0]["ap"] == 4


def test_discovery_needs_a_tile_on_the_space():
    """S1 "discovery": the player looks at an island *tile*; an island
    space whose tile was taken holds nothing to discover."""
    d = position(2)
    d["players"][0]["ships"][0]["at"] = [2, 1]
    tile = d["spaces"][key((3, 1))]
    d["spaces"][key((3, 1))] = None
    d["reserve"].append(tile)
    state = load(d)
    assert discover((3, 1)) not in legal_of_type(state, 0, "discover")
    assert_illegal(state, 0, discover((3, 1)))


def test_unused_action_points_do_not_carry_over():
    """S1 "Move ships": each ship gets the allowed action points per turn;
    what is left at the end of a turn is not added to the next."""
    d = position(2, active=1)
    d["players"][0]["ships"][0]["ap"] = 2
    state, _ = end_turn_rolling(d, 2)  # seat 0's turn; its ship had 2 left
    assert dump(state)["players"][0]["ships"][0]["ap"] == 2
    state, _ = play(state, 0, move((2, 1)))
    state, _ = end_turn_rolling(dump(state), 2)
    state, _ = end_turn_rolling(dump(state), 2)
    assert dump(state)["players"][0]["ships"][0]["ap"] == 2
