"""game-content §1.9 rulings 14-26, one test (at least) per ruling."""

import copy

from .helpers import (
    COMMODITIES,
    assert_illegal,
    dump,
    end_turn_rolling,
    game,
    give_branch_office,
    give_trade_agreements,
    hand_size,
    key,
    legal_of_type,
    load,
    main_phase,
    of_type,
    play,
    play_all,
    position,
    put_tile_on,
    set_hand,
    set_island,
    tile_ids,
    vp,
)


def discover(space, ship=0):
    return {"type": "discover", "ship": ship, "space": list(space)}


def test_ruling_14_no_partial_payment():
    """§1.9 ruling 14: with less gold than owed the player removes exactly
    one inhabitant and pays nothing (fire owes 2, he has 1)."""
    d = position(2, active=1)
    set_island(d, 0, ["pioneer", "settler", "pioneer", "pioneer"], ["school"])
    d["players"][0]["gold"] = 1
    state, events = end_turn_rolling(d, 6, 3)
    p = dump(state)["players"][0]
    assert p["gold"] == 1
    assert p["slots"][:4] == ["pioneer", "settler", "pioneer", None]
    assert not [e for e in of_type(events, "gold_paid") if e["seat"] == 0 and e["data"]["amount"]]


def test_ruling_14_nothing_owed_without_tiles():
    """§1.9 ruling 14: a player with no tiles owes nothing, even with 0 gold."""
    d = position(2, active=1)
    d["players"][0]["gold"] = 0
    state, _ = end_turn_rolling(d, 6, 2)
    after = dump(state)
    assert after["phase"] == "main"
    assert after["players"][0]["gold"] == 0


def test_ruling_15_removed_citizen_returns_a_cm_tile_and_its_building_to_the_supply():
    """§1.9 ruling 15: a removed Citizen/Merchant goes back to stock as C/M
    (so a settler can develop again) and its building can be taken by
    anyone."""
    d = position(2, active=1)
    set_island(d, 0, ["pioneer", "settler", "citizen", "citizen", "merchant"], ["school", "church"])
    d["players"][0]["gold"] = 0
    set_hand(d, 0, spice=2, stone=1)
    all_cm_used = copy.deepcopy(d)
    main_phase(all_cm_used, 0)
    assert {"type": "develop", "slot": 2} not in legal_of_type(load(all_cm_used), 0, "develop")
    state, _ = end_turn_rolling(d, 6, 4)
    after = dump(state)
    assert after["players"][0]["slots"][4] is None
    assert after["buildings"]["church"] == 1
    assert {"type": "develop", "slot": 2} in legal_of_type(state, 0, "develop")
    main_phase(after, 1)
    set_island(after, 1, ["pioneer", "settler", "pioneer"])
    set_hand(after, 1, wood=1, tool=1)
    assert {"type": "place_pioneer", "building": "church"} in legal_of_type(load(after), 1, "place_pioneer")


def test_ruling_16_orthogonal_adjacency_and_several_discoveries():
    """§1.9 ruling 16: discovery needs orthogonal adjacency; a ship next to
    several tiles may discover each (1 AP each), without moving first."""
    d = position(3)
    d["players"][0]["ships"][0]["at"] = [2, 2]
    state = load(d)
    assert sorted(a["space"] for a in legal_of_type(state, 0, "discover")) == [[1, 2], [3, 2]]
    state, _ = play_all(
        state,
        [
            (0, discover((1, 2))),
            (0, {"type": "return_tile"}),
            (0, discover((3, 2))),
            (0, {"type": "return_tile"}),
        ],
    )
    assert dump(state)["players"][0]["ships"][0]["ap"] == 1
    d = position(3)
    d["players"][0]["ships"][0]["at"] = [2, 1]
    assert_illegal(load(d), 0, discover((1, 2)))  # diagonal only


def test_ruling_17_declined_tile_stays_hidden_from_others():
    """§1.9 ruling 17: a declined tile goes back face down; only the
    discoverer knows it (private knowledge)."""
    d = position(3)
    tile = tile_ids("branch_office", "cloth", back=2)[0]
    put_tile_on(d, tile, (3, 1))
    d["players"][0]["ships"][0]["at"] = [2, 1]
    state, _ = play_all(load(d), [(0, discover((3, 1))), (0, {"type": "return_tile"})])

    def shown(viewer):
        spaces = game().view(state, viewer)["spaces"]
        return next(s["tile"] for s in spaces if s["space"] == [3, 1])

    assert shown(0)["id"] == tile
    for viewer in (1, 2, None):
        assert shown(viewer) == {"back": 2}
    assert dump(state)["players"][0]["ships"][0]["at"] == [2, 1]  # declined: ship stays


def test_ruling_17_using_a_tile_sends_the_ship_home():
    """§1.9 ruling 17: using the tile returns the ship to stock; it must be
    rebuilt for cloth + wood + tool."""
    d = position(2)
    put_tile_on(d, tile_ids("trade_agreement", back=2)[0], (3, 1))
    d["players"][0]["ships"][0]["at"] = [2, 1]
    state, _ = play_all(load(d), [(0, discover((3, 1))), (0, {"type": "take_tile"})])
    assert dump(state)["players"][0]["ships"] == [{"at": None, "ap": 0}, {"at": None, "ap": 0}]
    assert legal_of_type(state, 0, "move_ship") == []


def test_ruling_18_placed_offices_are_never_swapped():
    """§1.9 ruling 18: placed tiles are never moved or swapped; an occupied
    bridge cannot take another branch office."""
    d = position(2)
    give_branch_office(d, 0, 3, "tobacco")
    put_tile_on(d, tile_ids("branch_office", "spice", back=2)[0], (3, 1))
    d["players"][0]["ships"][0]["at"] = [2, 1]
    state, _ = play(load(d), 0, discover((3, 1)))
    assert sorted(a["bridge"] for a in legal_of_type(state, 0, "take_tile")) == [2, 4, 5]
    assert_illegal(state, 0, {"type": "take_tile", "bridge": 3})


def test_ruling_18_home_or_branch_commodity_never_both():
    """§1.9 ruling 18: on its number, the home commodity or the branch
    commodity, never both."""
    d = position(2, active=1)
    give_branch_office(d, 0, 2, "tobacco")
    state, _ = end_turn_rolling(d, 2)
    state, _ = play(state, 0, {"type": "choose_commodity", "commodity": "stone"})
    assert dump(state)["players"][0]["hand"] == {c: int(c == "stone") for c in COMMODITIES}


def test_ruling_19_big_branch_office_needs_two_gold_and_a_card():
    """§1.9 ruling 19: usable only with 2+ gold, against a player with 1+ card."""
    d = position(3)
    set_island(d, 0, ["pioneer", "settler", "pioneer", "pioneer"], ["big_branch_office"])
    set_hand(d, 2, cloth=1)
    d["players"][0]["gold"] = 2
    assert [a["target"] for a in legal_of_type(load(d), 0, "big_branch_office")] == [2]
    d["players"][0]["gold"] = 1
    assert_illegal(load(d), 0, {"type": "big_branch_office", "target": 2})


def test_ruling_20_three_points_out_of_turn_win_at_the_start_of_the_next_turn():
    """§1.9 ruling 20: a Big Branch Office victim who reaches 30 gold (his
    3rd point) on another's turn does not win then, but at the start of his
    own next turn, before the roll."""
    d = position(3)
    set_island(d, 0, ["pioneer", "settler", "pioneer", "pioneer"], ["big_branch_office"])
    for bridge, commodity in zip((1, 2, 3, 4), ("spice", "tobacco", "stone", "tool")):
        give_branch_office(d, 1, bridge, commodity)
    give_trade_agreements(d, 1, 3)
    d["players"][1]["gold"] = 28
    set_hand(d, 1, wood=1)
    state, _ = play(load(d), 0, {"type": "big_branch_office", "target": 1})
    assert vp(state, 1) == 3
    assert game().outcome(state) is None
    assert game().to_act(state) == [0]
    state, events = play(state, 0, {"type": "end_turn"})
    assert game().outcome(state)["winners"] == [1]
    assert not [e for e in events if e["type"] == "die_rolled" and e["data"]["purpose"] == "production"]


def test_ruling_20_points_lost_before_his_turn_do_not_win():
    """§1.9 ruling 20: the out-of-turn winner must still hold 3 points at
    the start of his turn; pirates took him below 30 gold in between."""
    d = position(3, active=2)
    set_island(d, 2, ["pioneer", "settler", "pioneer", "pioneer"], ["big_branch_office"])
    for bridge, commodity in zip((1, 2, 3, 4), ("spice", "tobacco", "stone", "tool")):
        give_branch_office(d, 1, bridge, commodity)
    give_trade_agreements(d, 1, 3)
    d["players"][1]["gold"] = 28
    set_hand(d, 1, wood=1)
    state, _ = play(load(d), 2, {"type": "big_branch_office", "target": 1})
    assert vp(state, 1) == 3
    state, _ = end_turn_rolling(dump(state), 6, 1)  # seat 0's turn: pirates
    assert dump(state)["players"][1]["gold"] == 30 - 7
    state, _ = end_turn_rolling(dump(state), 2)  # seat 1's turn
    assert game().outcome(state) is None
    assert dump(state)["active"] == 1


def test_ruling_21_hand_limit_only_at_the_end_of_ones_own_turn():
    """§1.9 ruling 21: more than 5 cards is fine until the end of one's own
    turn (production on the roll does not force a discard)."""
    d = position(2, active=1)
    set_hand(d, 0, spice=5)
    set_hand(d, 1, tobacco=5)
    state, _ = end_turn_rolling(d, 2)  # seat 0 gets stone, seat 1 wood
    after = dump(state)
    assert [hand_size(after, s) for s in (0, 1)] == [6, 6]
    assert after["phase"] == "main" and game().to_act(state) == [0]
    state, _ = play(state, 0, {"type": "end_turn"})
    assert dump(state)["phase"] == "discard" and game().to_act(state) == [0]


def test_ruling_22_stone_is_the_starting_commodity_called_mattoni():
    """§1.9 ruling 22 (editorial: S2 "Mattoni" vs "Pietre"): one commodity,
    stone: the six commodities are the only ones traded, and the starting
    card is stone."""
    state = game().setup(2, {}, 3)
    assert dump(state)["players"][0]["hand"]["stone"] >= 1
    d = position(2)
    d["players"][0]["gold"] = 6
    bought = {a["commodity"] for a in legal_of_type(load(d), 0, "buy")}
    assert bought == set(COMMODITIES)


def test_ruling_23_upgrade_needs_a_free_citizen_merchant_tile():
    """§1.9 ruling 23: the free development obeys the tile supply: a settler
    cannot become a citizen when all 3 C/M tiles are used."""
    d = position(2)
    set_island(d, 0, ["pioneer", "settler", "citizen", "citizen", "merchant"], ["school", "church"])
    put_tile_on(d, tile_ids("treasure_upgrade", back=2)[0], (3, 1))
    d["players"][0]["ships"][0]["at"] = [2, 1]
    state, _ = play(load(d), 0, discover((3, 1)))
    assert sorted(a["slot"] for a in legal_of_type(state, 0, "take_tile")) == [1, 3, 4]


def test_ruling_23_upgrade_without_a_target_is_wasted():
    """§1.9 ruling 23: with no legal target the upgrade may still be taken
    (wasted) or declined."""
    d = position(2)
    set_island(d, 0, ["settler", "merchant", "merchant", "merchant"], ["school"])
    tile = tile_ids("treasure_upgrade", back=2)[0]
    put_tile_on(d, tile, (3, 1))
    d["players"][0]["ships"][0]["at"] = [2, 1]
    state, _ = play(load(d), 0, discover((3, 1)))
    assert legal_of_type(state, 0, "take_tile") == [{"type": "take_tile"}]
    assert {"type": "return_tile"} in game().legal_actions(state, 0)
    assert_illegal(state, 0, {"type": "take_tile", "slot": 1})
    state, _ = play(state, 0, {"type": "take_tile"})
    after = dump(state)
    assert after["players"][0]["slots"][:4] == ["settler", "merchant", "merchant", "merchant"]
    assert tile in after["removed"]


def test_ruling_24_seven_inhabitant_slots():
    """§1.9 ruling 24 (W6 "six more"): 7 slots in all (2 red + 5 green)."""
    d = position(2)
    assert len(d["players"][0]["slots"]) == 7
    assert len(game().view(load(d), 0)["players"][0]["slots"]) == 7
    set_island(
        d,
        0,
        ["citizen", "citizen", "citizen", "pioneer", "pioneer", "pioneer", "settler"],
        ["school", "church", "smithy", "shipyard"],
    )
    set_hand(d, 0, wood=1, tool=1)
    assert legal_of_type(load(d), 0, "place_pioneer") == []


def test_ruling_25_pirates_count_branch_offices_and_agreements_only():
    """§1.9 ruling 25: pirates count branch offices + trade agreements; a
    used treasure never stays on the island."""
    d = position(2)
    give_branch_office(d, 0, 2, "spice")
    give_trade_agreements(d, 0, 1)
    put_tile_on(d, tile_ids("treasure_gold", back=2)[0], (3, 1))
    d["players"][0]["ships"][0]["at"] = [2, 1]
    state, _ = play_all(load(d), [(0, discover((3, 1))), (0, {"type": "take_tile"})])
    assert dump(state)["players"][0]["gold"] == 19
    state, _events = end_turn_rolling(dump(state), 6, 2)
    assert dump(state)["players"][0]["gold"] == 17


def test_ruling_26_the_dolphin_square_is_plain_sea():
    """§1.9 ruling 26 (DERIVED): the dolphin square on the east edge is a
    plain sea square in the base game; nothing lies beyond it."""
    d = position(4)
    d["players"][0]["ships"][0]["at"] = [2, 10]
    state, _ = play(load(d), 0, {"type": "move_ship", "ship": 0, "to": [2, 11]})
    targets = sorted(a["to"] for a in legal_of_type(state, 0, "move_ship"))
    assert targets == [[1, 11], [2, 10], [3, 11]]
    assert key((2, 11)) not in dump(state)["spaces"]
