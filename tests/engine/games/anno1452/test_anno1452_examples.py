"""The worked examples printed in the rules (seed 002), as scenario tests."""

import pytest

from engine.errors import IllegalActionError

from .anno1452_helpers import GAME, R, act, blank, give_card, load, of_type, put


def test_fourth_estate_in_a_region_costs_seven_gold():
    d = blank()
    for owner in (1, 2, 1):
        put(d, "Österreich", owner)
    state, events = act(load(d), 0, type="build_estate", region="Österreich")
    assert state.data["players"][0]["gold"] == 15 - 7
    assert of_type(events, "gold_paid")[0]["data"]["amount"] == 7


def test_first_estate_in_an_empty_region_costs_four():
    state, _ = act(load(blank()), 0, type="build_estate", region="Tirol")
    assert state.data["players"][0]["gold"] == 11


def _holder(state, region):
    return state.data["regions"][R[region]]["principality"]


def test_majority_two_against_one_and_one():
    """Österreich (limit 5): 2 Estates against 1 and 1 is a majority."""
    d = blank()
    put(d, "Österreich", 0)
    put(d, "Österreich", 1)
    put(d, "Österreich", 2)
    state, events = act(load(d), 0, type="build_estate", region="Österreich")
    assert _holder(state, "Österreich") == 0
    assert state.data["players"][0]["prestige"] == 11
    assert of_type(events, "principality_changed")[0]["data"]["holder"] == 0


def test_no_majority_against_three_unused_estates():
    d = blank()
    put(d, "Österreich", 0)
    state, _ = act(load(d), 0, type="build_estate", region="Österreich")
    assert _holder(state, "Österreich") is None
    assert state.data["players"][0]["prestige"] == 10


def test_majority_gained_during_another_players_turn():
    """2 vs 1 with 2 unused: none; a third player's Estate gives it at once."""
    d = blank()
    put(d, "Österreich", 0)
    put(d, "Österreich", 0)
    put(d, "Österreich", 1)
    d["decision"]["seats"] = [2]
    d["turn"] = 2
    d["queue"] = [["ar_end", 1]]
    state = load(d)
    assert _holder(state, "Österreich") is None
    state, events = act(state, 2, type="build_estate", region="Österreich")
    assert _holder(state, "Österreich") == 0
    assert state.data["players"][0]["prestige"] == 11
    gained = [e for e in events if e["type"] == "prestige_changed" and e["seat"] == 0]
    assert gained and gained[0]["data"]["reason"] == "principality_gained"


def test_battle_example_hits_city_defence_and_losses(script_dice):
    """Red: Estate with a City and 3 Citizens attacks a blue City without
    Citizens. Red rolls 1-5-6 and 2-4-5 (two hits), blue 1-5-6 (one hit, and
    its 1 in the City cancels one red hit). Red loses a Citizen, blue's
    Estate is reduced to 2."""
    d = blank()
    red = put(d, "Bayern", 0, citizens=3, city=True)
    blue = put(d, "Bayern", 1, city=True)
    # Round 1 as printed, then round 2: red misses, blue misses; round 3 ends it.
    script_dice([1, 5, 6, 2, 4, 5, 1, 5, 6, 1, 1, 1, 1, 1, 2, 2, 2, 6, 6, 6, 6, 6, 1, 1])
    state, events = act(load(d), 0, type="attack", target=blue, **{"from": red})
    first = of_type(events, "battle_round")[0]["data"]
    assert first == {"round": 1, "hits_on_attacker": 1, "hits_on_defender": 1, "cancelled": 1}
    losses = of_type(events, "losses_taken")[:2]
    by_side = {e["data"]["side"]: e["data"] for e in losses}
    assert by_side["attacker"]["citizens"] == 1 and by_side["attacker"]["estate"] == 0
    assert by_side["defender"]["strength"] == 2
    # Round 3: red's 6s destroy blue's Estate; red conquers it, the City stays.
    conquered = state.data["regions"][blue[0]]["slots"][blue[1]]
    assert conquered == {"owner": 0, "strength": 1, "city": True, "citizens": 0}
    # -1 for the declaration, +1 for the victory; blue loses 1.
    assert state.data["players"][0]["prestige"] == 10
    assert state.data["players"][1]["prestige"] == 9


def test_losses_are_chosen_by_their_owner(script_dice):
    """The King with Soldiers and Citizens decides which units he loses."""
    d = blank()
    d["king"] = 0
    d["soldiers"]["king"] = 12
    mine = put(d, "Bayern", 0, citizens=2)
    target = put(d, "Franken", 1, citizens=1)
    state, _ = act(load(d), 0, type="attack", target=target, **{"from": mine})
    assert GAME.to_act(state) == [0]
    assert state.data["decision"]["kind"] == "soldiers"
    # Attacker: 3 peasants, 2 citizens, 2 soldiers -> one hit (the 6);
    # defender: 3 peasants + 1 citizen roll 6, 6, 1, 5 -> 3 hits on the King.
    script_dice([1, 1, 6, 1, 1, 1, 1, 6, 6, 1, 5])
    state, _ = act(state, 0, type="commit_soldiers", count=2)
    assert state.data["decision"]["kind"] == "losses"
    assert GAME.to_act(state) == [0]
    options = [a["citizens"] for a in GAME.legal_actions(state, 0)]
    assert options == [1, 2]  # 3 hits: at least 1 Citizen (only 2 Soldiers), at most 2
    # Round 2: the King's 3 peasants and last Citizen roll 6s, blue's Estate falls.
    script_dice([6, 6, 6, 6, 1, 1, 1])
    state, events = act(state, 0, type="take_losses", citizens=1)
    taken = next(e["data"] for e in of_type(events, "losses_taken") if e["data"]["side"] == "attacker")
    assert (taken["citizens"], taken["soldiers"], taken["estate"]) == (1, 2, 0)
    assert of_type(events, "estate_conquered")[0]["seat"] == 0
    assert state.data["soldiers"]["king"] == 10  # the 2 committed Soldiers are gone


def test_marriage_in_bayern_with_its_limit_reached():
    """Heirat Bayern: 'an Estate in Bayern' is lost when 4 are there, yet
    the marriage stands and its other benefit (a free City) applies."""
    d = blank()
    mine = put(d, "Bayern", 0)
    for owner in (1, 2, 1):
        put(d, "Bayern", owner)
    card = give_card(d, 0, "Heirat Bayern")
    state, events = act(load(d), 0, type="marry", card=card)
    p = state.data["players"][0]
    assert p["marriage"]["card"] == card
    assert p["gold"] == 15 - 7
    assert of_type(events, "benefit_lost")[0]["data"]["benefit"] == "estate"
    assert state.data["regions"][mine[0]]["slots"][mine[1]]["city"] is True


def test_marriage_requires_payable_disadvantages():
    d = blank()
    put(d, "Bayern", 0)
    d["players"][0]["gold"] = 6
    card = give_card(d, 0, "Heirat Bayern")
    with pytest.raises(IllegalActionError) as err:
        act(load(d), 0, type="marry", card=card)
    assert err.value.reason == "cannot_pay_marriage"


def test_prestige_above_20_converts_to_gold():
    d = blank()
    d["players"][0]["prestige"] = 19
    card = give_card(d, 0, "Herzog von Lothringen")
    put(d, "Lothringen", 0)
    put(d, "Lothringen", 0)
    state, _ = act(load(d), 0, type="take_title", card=card)
    p = state.data["players"][0]
    assert p["prestige"] == 20
    assert p["gold"] == 15 + 5  # the second point became 5 gold


def test_prestige_below_0_costs_five_gold():
    d = blank()
    d["players"][0]["prestige"] = 0
    mine = put(d, "Bayern", 0)
    target = put(d, "Bayern", 1)
    d["players"][1]["hand"] = []
    state, events = act(load(d), 0, type="attack", target=target, **{"from": mine})
    paid = [e for e in events if e["type"] == "gold_paid" and e["data"]["reason"] == "prestige_below_0"]
    assert paid[0]["data"]["amount"] == 5
    assert state.data["players"][0]["prestige"] >= 0


def test_insolvent_player_makes_the_supply_pay_the_others():
    d = blank()
    d["players"][0]["prestige"] = 0
    d["players"][0]["gold"] = 3
    mine = put(d, "Bayern", 0)
    target = put(d, "Bayern", 1)
    _state, events = act(load(d), 0, type="attack", target=target, **{"from": mine})
    insolvency = of_type(events, "insolvent")[0]
    assert insolvency["seat"] == 0 and insolvency["data"]["amount"] == 5
    paid_others = [
        e["seat"] for e in events if e["type"] == "gold_received" and e["data"]["reason"] == "insolvency"
    ]
    assert paid_others == [1, 2]
