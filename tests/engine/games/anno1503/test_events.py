"""The events of a 6: pirates, fire and golden times."""

from collections import Counter

from .helpers import (
    all_tile_places,
    clear_space,
    dump,
    end_turn_rolling,
    game,
    give_branch_office,
    give_trade_agreements,
    key,
    legal_of_type,
    of_type,
    play,
    position,
    set_island,
)

PIRATES, FIRE, GOLDEN = (6, 1), (6, 3), (6, 5)


def three_tiles_two_outside(d, gold):
    """The S1 costs example for seat 0: 3 island tiles, 2 inhabitants
    outside the red area."""
    give_branch_office(d, 0, 2, "spice")
    give_branch_office(d, 0, 3, "tobacco")
    give_trade_agreements(d, 0, 1)
    set_island(d, 0, ["pioneer", "settler", "pioneer", "pioneer"], ["school"])
    d["players"][0]["gold"] = gold


def test_costs_example_pirates_take_three_gold():
    """S1/S2 costs example: "3 island tiles ... On a Pirate event he would
    have to pay 3 gold"."""
    d = position(2, active=1)
    three_tiles_two_outside(d, gold=10)
    state, events = end_turn_rolling(d, *PIRATES)
    after = dump(state)
    assert after["players"][0]["gold"] == 7
    assert [(e["seat"], e["data"]["amount"]) for e in of_type(events, "gold_paid")] == [(0, 3)]
    assert after["phase"] == "main"


def test_costs_example_fire_takes_two_gold():
    """S1/S2 costs example: "two inhabitants outside the red area ... on a
    Fire event he would pay 2 gold"."""
    d = position(2, active=1)
    three_tiles_two_outside(d, gold=10)
    state, events = end_turn_rolling(d, *FIRE)
    assert dump(state)["players"][0]["gold"] == 8
    assert [(e["seat"], e["data"]["amount"]) for e in of_type(events, "gold_paid")] == [(0, 2)]
    assert dump(state)["players"][0]["slots"][:4] == ["pioneer", "settler", "pioneer", "pioneer"]


def test_pirates_unpaid_remove_a_tile_of_the_players_choice():
    """S1 "Pirate": without enough gold - and only then - the player removes
    a branch office or trade agreement of his choice and pays nothing."""
    d = position(2, active=1)
    three_tiles_two_outside(d, gold=2)
    state, _ = end_turn_rolling(d, *PIRATES)
    assert dump(state)["phase"] == "pirates"
    assert game().to_act(state) == [0]
    options = legal_of_type(state, 0, "lose_tile")
    assert sorted(options, key=str) == sorted(
        [
            {"type": "lose_tile", "tile": "branch_office", "bridge": 2},
            {"type": "lose_tile", "tile": "branch_office", "bridge": 3},
            {"type": "lose_tile", "tile": "trade_agreement"},
        ],
        key=str,
    )
    state, _ = play(state, 0, {"type": "lose_tile", "tile": "branch_office", "bridge": 3})
    p = dump(state)["players"][0]
    assert p["gold"] == 2
    assert p["branch_offices"]["3"] is None and p["branch_offices"]["2"] is not None
    assert len(p["trade_agreements"]) == 1


def test_pirates_removed_tile_goes_to_the_reserve_and_the_top_tile_to_the_farthest_space():
    """S1 "Pirate": the removed tile is shuffled into the reserve, then the
    top reserve tile goes face down on the farthest available island space
    from the start; marks no longer matter (game-content §1.4 table: (1,10)
    needs 15 AP, (4,4) only 6)."""
    d = position(4, active=3)
    give_trade_agreements(d, 0, 1)
    lost = d["players"][0]["trade_agreements"][0]
    free = {key((1, 10)), key((4, 4))}
    for k in free:
        clear_space(d, [int(x) for x in k.split(",")])
    for k, tile in d["spaces"].items():  # every other space holds a tile
        if tile is None and k not in free:
            d["spaces"][k] = d["reserve"].pop(0)
    d["players"][0]["gold"] = 0
    reserve_before = len(d["reserve"])
    tiles_before = all_tile_places(d)
    state, events = end_turn_rolling(d, *PIRATES)
    after = dump(state)
    assert after["players"][0]["trade_agreements"] == []
    assert after["spaces"][key((1, 10))] is not None
    assert after["spaces"][key((4, 4))] is None
    assert len(after["reserve"]) == reserve_before
    assert lost in after["reserve"] + [after["spaces"][key((1, 10))]]
    assert all_tile_places(after) == tiles_before
    placed = of_type(events, "reserve_tile_placed")
    assert [e["data"]["space"] for e in placed] == [[1, 10]]
    assert after["phase"] == "main" and after["active"] == 0


def test_fire_unpaid_removes_the_most_recent_inhabitant_and_its_building():
    """S1 "Fire": without enough gold the player removes his most recently
    placed inhabitant (developed or not), pays nothing, and the public
    building below it goes back to the general stock."""
    d = position(2, active=1)
    set_island(d, 0, ["pioneer", "settler", "pioneer", "settler", "citizen"], ["school", "church"])
    d["players"][0]["gold"] = 2
    state, events = end_turn_rolling(d, *FIRE)
    after = dump(state)
    p = after["players"][0]
    assert p["gold"] == 2
    assert p["slots"] == ["pioneer", "settler", "pioneer", "settler", None, None, None]
    assert p["buildings"] == ["school", None, None, None]
    assert after["buildings"]["church"] == 1
    lost = of_type(events, "inhabitant_lost")
    assert [(e["seat"], e["data"]["slot"], e["data"]["kind"]) for e in lost] == [(0, 5, "citizen")]
    assert lost[0]["data"]["building"] == "church"


def test_smithy_protects_from_pirates():
    """S1 "Smithy": on Pirates the island tiles are protected; no gold paid."""
    d = position(2, active=1)
    give_trade_agreements(d, 0, 2)
    set_island(d, 0, ["pioneer", "settler", "pioneer", "pioneer"], ["smithy"])
    state, events = end_turn_rolling(d, *PIRATES)
    assert dump(state)["players"][0]["gold"] == 7
    assert len(dump(state)["players"][0]["trade_agreements"]) == 2
    assert [e["data"]["building"] for e in of_type(events, "protected")] == ["smithy"]


def test_smithy_protects_even_without_gold():
    """S1 "Smithy": protected players neither pay nor lose a tile."""
    d = position(2, active=1)
    give_trade_agreements(d, 0, 2)
    set_island(d, 0, ["pioneer", "settler", "pioneer", "pioneer"], ["smithy"])
    d["players"][0]["gold"] = 0
    state, _ = end_turn_rolling(d, *PIRATES)
    assert len(dump(state)["players"][0]["trade_agreements"]) == 2


def test_fire_brigade_protects_from_fire():
    """S1 "Fire Brigade": on Fire the inhabitants are protected; no gold."""
    d = position(2, active=1)
    set_island(d, 0, ["pioneer", "settler", "citizen", "pioneer", "pioneer"], ["fire_brigade", "school"])
    d["players"][0]["gold"] = 1
    state, events = end_turn_rolling(d, *FIRE)
    p = dump(state)["players"][0]
    assert p["gold"] == 1
    assert p["slots"][4] == "pioneer" and p["buildings"][1] == "school"
    assert [e["data"]["building"] for e in of_type(events, "protected")] == ["fire_brigade"]


def test_golden_times_each_player_takes_one_the_church_owner_two():
    """S1 "Golden Times" and "Church": each player takes any one commodity,
    the Church owner two; S2: starting with the active player (ruling 11)."""
    d = position(3, active=0)
    set_island(d, 2, ["pioneer", "settler", "pioneer", "pioneer"], ["church"])
    state, _ = end_turn_rolling(d, *GOLDEN)  # seat 1's turn
    deciders = []
    while dump(state)["phase"] == "golden_times":
        seat = game().to_act(state)[0]
        options = {a["commodity"] for a in legal_of_type(state, seat, "choose_commodity")}
        assert options == {"stone", "wood", "tool", "cloth", "spice", "tobacco"}
        deciders.append(seat)
        state, _ = play(state, seat, {"type": "choose_commodity", "commodity": "tobacco"})
    assert deciders[0] == 1
    assert Counter(deciders) == Counter({0: 1, 1: 1, 2: 2})
    after = dump(state)
    assert [p["hand"]["tobacco"] for p in after["players"]] == [1, 1, 2]
    assert after["phase"] == "main" and after["active"] == 1


def test_golden_times_takes_from_the_stock():
    """S1 "Golden Times": the commodity comes from the commodity stock."""
    d = position(2, active=1)
    state, _ = end_turn_rolling(d, *GOLDEN)
    state, _ = play(state, 0, {"type": "choose_commodity", "commodity": "spice"})
    state, _ = play(state, 1, {"type": "choose_commodity", "commodity": "spice"})
    assert dump(state)["stacks"]["spice"] == 13


def test_exactly_enough_gold_must_pay_pirates():
    """S1 "Pirate": "If you can pay, however, you must do so instead of
    removing an island tile": 2 tiles, exactly 2 gold."""
    d = position(2, active=1)
    give_trade_agreements(d, 0, 2)
    d["players"][0]["gold"] = 2
    state, _ = end_turn_rolling(d, *PIRATES)
    p = dump(state)["players"][0]
    assert p["gold"] == 0 and len(p["trade_agreements"]) == 2
    assert dump(state)["phase"] == "main"


def test_exactly_enough_gold_must_pay_the_fire():
    """S1 "Fire": "If you can pay, however, you must do so instead of
    removing an inhabitant": 2 inhabitants outside, exactly 2 gold."""
    d = position(2, active=1)
    set_island(d, 0, ["pioneer", "settler", "pioneer", "pioneer"], ["school"])
    d["players"][0]["gold"] = 2
    state, _ = end_turn_rolling(d, *FIRE)
    p = dump(state)["players"][0]
    assert p["gold"] == 0 and p["slots"][3] == "pioneer" and p["buildings"][0] == "school"


def test_fire_strikes_every_player():
    """S1 "Fire": "Each player must pay 1 gold for each inhabitant ...
    outside the red-bordered safety area", not only the active player."""
    d = position(3, active=2)
    set_island(d, 0, ["pioneer", "settler", "pioneer"])
    set_island(d, 1, ["pioneer", "settler", "pioneer", "pioneer", "citizen"], ["school", "church"])
    set_island(d, 2, ["pioneer", "settler", "pioneer", "pioneer"], ["smithy"])
    d["players"][2]["gold"] = 1
    state, events = end_turn_rolling(d, *FIRE)  # seat 0's turn
    paid = [(e["seat"], e["data"]["amount"]) for e in of_type(events, "gold_paid")]
    assert paid == [(0, 1), (1, 3)]
    after = dump(state)
    assert [p["gold"] for p in after["players"]] == [6, 4, 1]
    assert after["players"][2]["slots"][3] is None  # seat 2 could not pay 2
