"""game-content §1.9 rulings 1-13, one test (at least) per ruling."""

from engine.rng import Rng

from .helpers import (
    START,
    assert_illegal,
    dump,
    end_turn_rolling,
    game,
    give_trade_agreements,
    key,
    legal_of_type,
    load,
    of_type,
    play,
    play_all,
    position,
    set_hand,
    set_island,
    vp,
)

FOUR_PS = (["pioneer", "settler", "pioneer", "settler"], ["school"])


def test_ruling_01_freed_tile_is_placed_as_a_pioneer():
    """§1.9 ruling 1 (S1/S2 "Note" say "as a settler"): a freed
    pioneer/settler tile is placed as a Pioneer for 1 wood + 1 tool."""
    d = position(2)
    set_island(d, 0, *FOUR_PS)
    set_hand(d, 0, spice=2, stone=1, wood=1, tool=1)
    state, _events = play_all(
        load(d),
        [
            (0, {"type": "develop", "slot": 2}),
            (0, {"type": "place_pioneer", "building": "church"}),
        ],
    )
    p = dump(state)["players"][0]
    assert p["slots"][4] == "pioneer"
    assert sum(p["hand"].values()) == 0


def test_ruling_02_four_pioneers_settlers_block_placement_not_development():
    """§1.9 ruling 2 (S1 vs S2 "Note"): the 4 P/S limit blocks placing a
    pioneer, never developing one."""
    d = position(2)
    set_island(d, 0, *FOUR_PS)
    set_hand(d, 0, wood=1, tool=1, cloth=1, stone=2)
    state = load(d)
    assert legal_of_type(state, 0, "place_pioneer") == []
    assert_illegal(state, 0, {"type": "place_pioneer", "building": "church"})
    assert {"type": "develop", "slot": 1} in legal_of_type(state, 0, "develop")
    state, _ = play(state, 0, {"type": "develop", "slot": 1})
    assert dump(state)["players"][0]["slots"][0] == "settler"


def test_ruling_03_after_a_fire_the_vacated_slot_is_refilled_first():
    """§1.9 ruling 3 (S1 vs S2 placement): slots fill strictly 3->7 and after
    a fire the next pioneer refills the vacated slot."""
    d = position(2, active=1)
    set_island(d, 0, ["pioneer", "settler", "pioneer", "citizen", "citizen"], ["school", "church"])
    d["players"][0]["gold"] = 0
    set_hand(d, 0, wood=1, tool=1)
    state, _ = end_turn_rolling(d, 6, 3)  # fire on seat 0's turn
    assert dump(state)["players"][0]["slots"][4] is None
    offered = legal_of_type(state, 0, "place_pioneer")
    assert {"type": "place_pioneer", "building": "church"} in offered
    state, events = play(state, 0, {"type": "place_pioneer", "building": "church"})
    assert of_type(events, "pioneer_placed")[0]["data"]["slot"] == 5
    assert dump(state)["players"][0]["slots"][5] is None


def test_ruling_04_cloth_goes_to_a_settler_not_a_citizen():
    """§1.9 ruling 4 (S2 says cloth to citizens): Cloth->Settler,
    Spice->Citizen."""
    d = position(2)
    set_island(d, 0, ["pioneer", "citizen"])
    set_hand(d, 0, cloth=1, spice=1)
    state = load(d)
    assert_illegal(state, 0, {"type": "sell", "commodity": "cloth"})
    state, events = play(state, 0, {"type": "sell", "commodity": "spice"})
    assert of_type(events, "sold")[0]["data"]["gold"] == 3


def test_ruling_05_one_card_per_inhabitant():
    """§1.9 ruling 5 (S1 example sells two spice to one citizen): one card
    per inhabitant tile per turn; one citizen buys one spice."""
    d = position(2)
    set_island(d, 0, ["pioneer", "citizen"])
    set_hand(d, 0, spice=2)
    state, _ = play(load(d), 0, {"type": "sell", "commodity": "spice"})
    assert_illegal(state, 0, {"type": "sell", "commodity": "spice"})
    assert dump(state)["players"][0]["gold"] == 10


def test_ruling_06_actions_interleave_and_a_new_ship_may_move():
    """§1.9 ruling 6 (step labels vs examples): after the roll, buying,
    moving, selling, building and developing interleave freely; a ship
    built this turn moves this turn."""
    d = position(3)
    d["players"][0]["gold"] = 12
    set_hand(d, 0, cloth=1, wood=1, tool=1, spice=1, stone=2)
    state, _events = play_all(
        load(d),
        [
            (0, {"type": "buy", "commodity": "spice"}),
            (0, {"type": "move_ship", "ship": 0, "to": [2, 1]}),
            (0, {"type": "sell", "commodity": "stone"}),
            (0, {"type": "build_ship"}),
            (0, {"type": "move_ship", "ship": 1, "to": [1, 0]}),
            (0, {"type": "develop", "slot": 2}),
            (0, {"type": "move_ship", "ship": 0, "to": [2, 2]}),
        ],
    )
    p = dump(state)["players"][0]
    assert [s["at"] for s in p["ships"]] == [[2, 2], [1, 0]]
    assert p["slots"][1] == "citizen"
    assert p["gold"] == 7


def test_ruling_07_a_six_triggers_an_event_not_ship_movement():
    """§1.9 ruling 7 (editorial: S1 "see step 3" points to ship movement):
    the observable fact is that a 6 draws an event and moves no ship."""
    d = position(2, active=1)
    state, events = end_turn_rolling(d, 6, 5)
    assert [e["data"]["event"] for e in of_type(events, "event_drawn")] == ["golden_times"]
    assert not of_type(events, "ship_moved")
    assert [p["ships"][0]["at"] for p in dump(state)["players"]] == [START, START]


def test_ruling_08_fire_counts_outside_the_red_area_of_the_home_island():
    """§1.9 ruling 8 (S2 says "of his public building"): fire counts the
    inhabitants outside slots 1-2 of the home island, buildings or not."""
    d = position(2, active=1)
    set_island(d, 0, ["pioneer", "settler", "pioneer"])
    state, events = end_turn_rolling(d, 6, 4)
    paid = {e["seat"]: e["data"]["amount"] for e in of_type(events, "gold_paid") if e["data"]["amount"]}
    assert paid == {0: 1}
    assert [p["gold"] for p in dump(state)["players"]] == [6, 7]


def test_ruling_09_four_public_buildings_make_a_victory_point():
    """§1.9 ruling 9 (S2 intro gives no number): 4 public buildings."""
    d = position(2)
    set_island(
        d,
        0,
        ["citizen", "citizen", "pioneer", "pioneer", "pioneer", "pioneer"],
        ["school", "church", "smithy"],
    )
    assert vp(load(d), 0) == 0
    set_island(
        d,
        0,
        ["citizen", "citizen", "citizen", "pioneer", "pioneer", "pioneer", "pioneer"],
        ["school", "church", "smithy", "shipyard"],
    )
    assert vp(load(d), 0) == 1


def _only_owned_buildings_left():
    """3p: seat 0 owns school/restaurant/shipyard and the supply holds only a school."""
    d = position(3)
    set_island(
        d,
        0,
        ["citizen", "citizen", "citizen", "pioneer", "pioneer", "pioneer"],
        ["school", "restaurant", "shipyard"],
    )
    set_island(
        d,
        1,
        ["citizen", "citizen", "citizen", "pioneer", "pioneer", "pioneer", "settler"],
        ["fire_brigade", "smithy", "church", "bath_house"],
    )
    set_island(
        d, 2, ["citizen", "settler", "pioneer", "pioneer", "pioneer"], ["big_branch_office", "shipyard"]
    )
    set_hand(d, 0, wood=1, tool=1)
    return d


def test_ruling_10_slots_4_to_7_need_a_building_the_player_does_not_own():
    """§1.9 ruling 10 (S1 "no more public buildings ... may not place
    pioneers"): a pioneer enters slots 4-7 only if a building he does not
    own is available."""
    d = _only_owned_buildings_left()
    assert {b: n for b, n in d["buildings"].items() if n} == {"school": 1}
    state = load(d)
    assert legal_of_type(state, 0, "place_pioneer") == []
    assert_illegal(state, 0, {"type": "place_pioneer", "building": "school"})
    assert_illegal(state, 0, {"type": "place_pioneer"})


def test_ruling_10_slot_three_is_never_blocked():
    """§1.9 ruling 10: slots 1-3 are never blocked, even with no building
    left in the supply (supply emptied directly for the test)."""
    d = position(2)
    d["buildings"] = dict.fromkeys(d["buildings"], 0)
    set_hand(d, 0, wood=1, tool=1)
    _state, events = play(load(d), 0, {"type": "place_pioneer"})
    assert of_type(events, "pioneer_placed")[0]["data"]["slot"] == 3


def test_ruling_11_golden_times_start_with_the_active_player():
    """§1.9 ruling 11 (S2 "partendo dal giocatore di turno"): choices are
    made in turn order from the active player, so the last tobacco card
    goes to him and is no longer offered to the next player."""
    d = position(3, active=0)
    set_hand(d, 1, tobacco=14)
    state, _ = end_turn_rolling(d, 6, 6)  # seat 1's turn
    assert game().to_act(state) == [1]
    state, _ = play(state, 1, {"type": "choose_commodity", "commodity": "tobacco"})
    assert game().to_act(state) == [2]
    options = {a["commodity"] for a in legal_of_type(state, 2, "choose_commodity")}
    assert options == {"stone", "wood", "tool", "cloth", "spice"}
    state, _ = play(state, 2, {"type": "choose_commodity", "commodity": "wood"})
    assert game().to_act(state) == [0]


def test_ruling_11_production_resolves_from_the_active_player():
    """§1.9 ruling 11: the same order holds for production from a finite
    stack: on a 1 with one stone left, active seat 1 (island B: stone)
    takes it, so seat 0's "?" no longer offers stone."""
    d = position(2, active=0)
    set_hand(d, 1, stone=14)
    state, _ = end_turn_rolling(d, 1)  # seat 1's turn
    assert dump(state)["players"][1]["hand"]["stone"] == 15
    options = {a["commodity"] for a in legal_of_type(state, 0, "choose_commodity")}
    assert options == {"wood", "tool", "cloth", "spice", "tobacco"}


def test_ruling_11_active_players_choice_comes_first():
    """§1.9 ruling 11: on a 1 with one stone left, active seat 0 ("?") may
    take it; then island B's stone production misses."""
    d = position(2, active=1)
    set_hand(d, 0, stone=14)
    state, _ = end_turn_rolling(d, 1)  # seat 0's turn
    assert "stone" in {a["commodity"] for a in legal_of_type(state, 0, "choose_commodity")}
    state, events = play(state, 0, {"type": "choose_commodity", "commodity": "stone"})
    assert [e["seat"] for e in of_type(events, "production_missed")] == [1]
    assert dump(state)["players"][1]["hand"]["stone"] == 0


def _pirate_rng_states(count):
    """Generator states whose next two dice are 6 then 1 (pirates)."""
    found, s = [], 0
    while len(found) < count:
        rng = Rng(s)
        if rng.die() == 6 and rng.die() == 1:
            found.append(s)
        s += 1
    return found


def test_ruling_12_the_removed_tile_is_shuffled_into_the_reserve():
    """§1.9 ruling 12 (S1 "top tile" vs S2 "a random tile"): the removed tile
    is shuffled in, then the top tile is placed: over many rolls the placed
    tile is sometimes the removed one and sometimes not."""
    base = position(4, active=3)
    give_trade_agreements(base, 0, 1)
    lost = base["players"][0]["trade_agreements"][0]
    base["players"][0]["gold"] = 0
    base["reserve"].append(base["spaces"][key((1, 10))])
    base["spaces"][key((1, 10))] = None
    placed_lost = 0
    states = _pirate_rng_states(60)
    for s in states:
        base["rng"] = s
        state, events = play(load(base), 3, {"type": "end_turn"})
        after = dump(state)
        assert len(after["reserve"]) == len(base["reserve"])
        [placed] = [e["data"]["space"] for e in of_type(events, "reserve_tile_placed")]
        placed_lost += after["spaces"][key(placed)] == lost
    assert 0 < placed_lost < len(states)


def test_ruling_13_farthest_space_counts_unused_marks_and_ties_go_to_the_active_player():
    """§1.9 ruling 13: any empty island space is available, also "4" spaces
    unused with 2 players; (0,11) and (4,11) tie on AP and Manhattan
    distance, so the active player chooses even when another seat lost the
    tile."""
    d = position(2, active=1)
    give_trade_agreements(d, 1, 1)
    d["players"][1]["gold"] = 0
    state, _ = end_turn_rolling(d, 6, 2)  # seat 0's turn; seat 1 loses its tile
    assert dump(state)["phase"] == "reserve_placement"
    assert game().to_act(state) == [0]
    spaces = sorted(a["space"] for a in legal_of_type(state, 0, "place_reserve_tile"))
    assert spaces == [[0, 11], [4, 11]]
    state, _events = play(state, 0, {"type": "place_reserve_tile", "space": [4, 11]})
    after = dump(state)
    assert after["spaces"][key((4, 11))] is not None and after["spaces"][key((0, 11))] is None
    assert after["phase"] == "main" and after["active"] == 0


def test_ruling_13_several_removals_resolve_one_by_one():
    """§1.9 ruling 13: several removals are resolved one by one in turn
    order: the first placement is the tie choice, the second goes to the
    farthest space left."""
    d = position(2, active=1)
    for seat in (0, 1):
        give_trade_agreements(d, seat, 1)
        d["players"][seat]["gold"] = 0
    state, _ = end_turn_rolling(d, 6, 1)
    state, events = play(state, 0, {"type": "place_reserve_tile", "space": [0, 11]})
    placed = [e["data"]["space"] for e in of_type(events, "reserve_tile_placed")]
    assert placed == [[0, 11], [4, 11]]
    after = dump(state)
    assert [p["trade_agreements"] for p in after["players"]] == [[], []]
    assert after["phase"] == "main"


def test_ruling_13_equal_ap_ties_break_on_manhattan_distance():
    """§1.9 ruling 13: (2,8) and (1,9) both need 10 AP (game-content §1.4);
    (1,9) is farther by Manhattan distance (10 vs 8), so the tile goes there
    without a decision."""
    d = position(4, active=3)
    give_trade_agreements(d, 0, 1)
    d["players"][0]["gold"] = 0
    free = {key((2, 8)), key((1, 9))}
    for k in free:
        d["reserve"].append(d["spaces"][k])
        d["spaces"][k] = None
    for k, tile in d["spaces"].items():
        if tile is None and k not in free:
            d["spaces"][k] = d["reserve"].pop(0)
    state, events = end_turn_rolling(d, 6, 2)
    assert [e["data"]["space"] for e in of_type(events, "reserve_tile_placed")] == [[1, 9]]
    assert dump(state)["phase"] == "main"
