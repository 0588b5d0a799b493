"""Action cards: City, Marriage, Title, Inheritance, Special Actions,
Reactions; and the turn's structure around them."""

import pytest

from engine.errors import IllegalActionError

from .anno1452_helpers import GAME, R, act, blank, give_card, load, of_type, put, run_steps


def test_city_card_needs_an_estate_gold_and_a_tower():
    d = blank()
    card = give_card(d, 0, "Heirat Tirol")  # the card shows Innsbruck (Tirol, 1 tower)
    mine = put(d, "Tirol", 0)
    put(d, "Tirol", 1, city=True)
    with pytest.raises(IllegalActionError) as err:
        act(load(d), 0, type="build_city", card=card, at=mine)
    assert err.value.reason == "no_room_for_city"
    d["regions"][R["Tirol"]]["slots"][1]["city"] = False
    state, _ = act(load(d), 0, type="build_city", card=card, at=mine)
    assert state.data["regions"][R["Tirol"]]["slots"][0]["city"] is True
    assert state.data["players"][0]["gold"] == 9
    assert card in state.data["discard"]


def test_city_card_is_for_its_own_region_only():
    d = blank()
    card = give_card(d, 0, "Heirat Tirol")
    mine = put(d, "Bayern", 0)
    with pytest.raises(IllegalActionError):
        act(load(d), 0, type="build_city", card=card, at=mine)


def _titled_position():
    d = blank()
    card = give_card(d, 0, "Herzog von Lothringen")
    put(d, "Lothringen", 0)
    with pytest.raises(IllegalActionError):
        act(load(d), 0, type="take_title", card=card)
    put(d, "Lothringen", 0)
    state, _ = act(load(d), 0, type="take_title", card=card)
    return state, card


def test_title_gives_two_prestige():
    state, card = _titled_position()
    assert state.data["players"][0]["titles"] == [card]
    assert state.data["players"][0]["prestige"] == 12


def test_title_discarded_when_requirement_fails(script_dice):
    state, card = _titled_position()
    d = GAME.dump(state)
    d["regions"][R["Lothringen"]]["slots"][1]["strength"] = 1
    attacker = put(d, "Westfalen", 1)
    d["players"][0]["hand"] = []
    script_dice([6, 6, 6, 1])
    state, events = act(load(d), 1, type="attack", target=[R["Lothringen"], 1], **{"from": attacker})
    assert state.data["players"][0]["titles"] == []
    assert card in state.data["discard"]
    assert of_type(events, "title_lost")
    assert state.data["players"][0]["prestige"] == 11  # the title's points stay; -1 for the lost battle


def test_inheritance_places_a_free_estate_and_can_give_the_majority():
    d = blank()
    card = give_card(d, 0, "Erbschaft Pfalz")
    put(d, "Pfalz", 0)
    state, _ = act(load(d), 0, type="inherit", card=card)
    assert state.data["players"][0]["gold"] == 15
    assert state.data["regions"][R["Pfalz"]]["principality"] == 0  # 2 of 3


def test_marriage_principality_is_returned_unless_majority():
    d = blank()
    d["players"][0]["prestige"] = 10
    put(d, "Neapel", 1)
    put(d, "Neapel", 1)
    put(d, "Neapel", 1)
    d["regions"][R["Neapel"]]["principality"] = 1
    card = give_card(d, 0, "Heirat Neapel")
    state, _events = act(load(d), 0, type="marry", card=card)
    d = state.data
    assert d["regions"][R["Neapel"]]["principality"] == 0
    assert d["players"][1]["prestige"] == 9
    run_steps(state, [["marriages_end"]])
    assert d["regions"][R["Neapel"]]["principality"] == 1  # seat 1 still has the majority
    assert d["players"][0]["marriage"] is None


def test_no_second_marriage_in_the_same_epoch():
    d = blank()
    put(d, "Franken", 0)
    card = give_card(d, 0, "Heirat Franken")
    d["players"][0]["married_this_epoch"] = True
    with pytest.raises(IllegalActionError) as err:
        act(load(d), 0, type="marry", card=card)
    assert err.value.reason == "already_married_this_epoch"


def test_marriage_with_a_card_to_discard():
    d = blank()
    put(d, "Bayern", 0, citizens=3)
    card = give_card(d, 0, "Heirat Lombardei")
    other = give_card(d, 0, "Messe")
    legal = [a for a in GAME.legal_actions(load(d), 0) if a["type"] == "marry"]
    assert legal == [{"type": "marry", "card": card, "discard": other}]
    state, _ = act(load(d), 0, **legal[0])
    assert other in state.data["discard"] and state.data["players"][0]["hand"] == []


def test_kindbett_is_an_extra_action_ending_a_marriage():
    d = blank()
    kb = give_card(d, 0, "Kindbett")
    wife = give_card(d, 1, "Heirat Franken")
    d["players"][1]["hand"].remove(wife)
    d["players"][1]["marriage"] = {"card": wife, "conveyed": []}
    state, _ = act(load(d), 0, type="kindbett", card=kb, target=1)
    assert state.data["players"][1]["marriage"] is None
    assert GAME.to_act(state) == [0]  # still seat 0's action
    state, _ = act(state, 0, type="build_estate", region="Tirol")
    assert GAME.to_act(state) == [1]


def test_special_actions_in_the_action_round():
    d = blank()
    put(d, "Bayern", 0, citizens=3, city=True)
    tax = give_card(d, 0, "Sondersteuer")
    state, _ = act(load(d), 0, type="play_special", card=tax)
    assert state.data["players"][0]["gold"] == 18
    d = blank()
    card = give_card(d, 0, "Steuerpacht")
    d["players"][2]["gold"] = 1
    state, _ = act(load(d), 0, type="play_special", card=card)
    assert [p["gold"] for p in state.data["players"]] == [18, 13, 0]
    d = blank()
    card = give_card(d, 0, "Pest")
    put(d, "Bayern", 1, citizens=3)
    state, _ = act(load(d), 0, type="play_special", card=card, region="Bayern")
    assert state.data["regions"][R["Bayern"]]["slots"][0]["citizens"] == 0
    d = blank()
    card = give_card(d, 0, "Ablass")
    state, _ = act(load(d), 0, type="play_special", card=card, amount=2)
    assert (state.data["players"][0]["gold"], state.data["players"][0]["prestige"]) == (5, 12)


def test_stadtrecht_builds_a_city_for_two_gold():
    d = blank()
    mine = put(d, "Schweiz", 0)
    card = give_card(d, 0, "Stadtrecht")
    state, _ = act(load(d), 0, type="play_special", card=card, target=mine)
    assert state.data["regions"][mine[0]]["slots"][mine[1]]["city"] is True
    assert state.data["players"][0]["gold"] == 13


def test_turnier_lets_others_buy_prestige():
    d = blank()
    card = give_card(d, 0, "Turnier")
    state, _ = act(load(d), 0, type="play_special", card=card)
    assert state.data["players"][0]["prestige"] == 11
    assert sorted(GAME.to_act(state)) == [1, 2]
    state, _ = act(state, 2, type="join_tournament", join="yes")
    state, _ = act(state, 1, type="join_tournament", join="no")
    assert [p["prestige"] for p in state.data["players"]] == [11, 10, 11]
    assert state.data["players"][2]["gold"] == 12
    assert GAME.to_act(state) == [1]  # seat 1's turn follows


def test_landfrieden_protects_until_the_epoch_ends():
    d = blank()
    card = give_card(d, 0, "Landfrieden")
    put(d, "Bayern", 0)
    put(d, "Bayern", 1)
    state, _ = act(load(d), 0, type="play_special", card=card)
    state, _ = act(state, 1, type="pass")
    assert not [a for a in GAME.legal_actions(state, 2) if a["type"] == "attack"]
    d = GAME.dump(state)
    put(d, "Bayern", 2)
    with pytest.raises(IllegalActionError) as err:
        act(load(d), 2, type="attack", target=[R["Bayern"], 0], **{"from": [R["Bayern"], 2]})
    assert err.value.reason == "landfrieden"


def test_fehde_attacks_without_the_prestige_penalty(script_dice):
    d = blank()
    mine = put(d, "Bayern", 0)
    theirs = put(d, "Bayern", 1, strength=1)
    card = give_card(d, 0, "Fehde")
    script_dice([6, 1, 1, 1, 1])
    state, _ = act(load(d), 0, type="play_special", card=card, target=theirs, **{"from": mine})
    assert state.data["players"][0]["prestige"] == 11  # +1 for the victory only


def test_soeldner_adds_three_soldiers(script_dice):
    d = blank()
    mine = put(d, "Bayern", 0)
    theirs = put(d, "Bayern", 1)
    card = give_card(d, 0, "Söldner")
    script_dice([1, 1, 1, 4, 4, 4, 1, 1, 1])
    _state, events = act(load(d), 0, type="play_special", card=card, target=theirs, **{"from": mine})
    purposes = [e["data"]["purpose"] for e in of_type(events, "dice_rolled")]
    assert purposes[:3] == [
        "battle_attacker_peasants",
        "battle_attacker_soldiers",
        "battle_defender_peasants",
    ]
    assert of_type(events, "estate_conquered")


def _battle_with_reactions(attacker_card, defender_card):
    d = blank()
    mine = put(d, "Bayern", 0, citizens=2)
    theirs = put(d, "Bayern", 1, citizens=2)
    a = give_card(d, 0, attacker_card) if attacker_card else None
    b = give_card(d, 1, defender_card) if defender_card else None
    state, _ = act(load(d), 0, type="attack", target=theirs, **{"from": mine})
    return state, a, b


def test_waffenstillstand_cancels_the_attack():
    state, _, card = _battle_with_reactions(None, "Waffenstillstand")
    assert GAME.to_act(state) == [1]
    state, events = act(state, 1, type="react", card=card)
    assert of_type(events, "attack_cancelled")
    assert state.data["battle"] is None
    assert state.data["players"][0]["prestige"] == 9  # the declaration's point stays lost


def test_defender_only_reactions_are_not_offered_to_the_attacker():
    state, _card, _ = _battle_with_reactions("Befestigung", None)
    assert state.data["battle"] is None  # nobody could react: the battle ran to its end


def test_verrat_befestigung_and_bogenschuetzen(script_dice):
    state, verrat, fort = _battle_with_reactions("Verrat", "Befestigung")
    assert sorted(GAME.to_act(state)) == [0, 1]
    state, _ = act(state, 0, type="react", card=verrat)
    script_dice([6, 6, 6, 5, 5, 2, 2, 1] + [6] * 5 + [1])
    state, events = act(state, 1, type="react", card=fort)
    assert of_type(events, "treason")[0]["data"]["citizens"] == 2
    first = of_type(events, "battle_round")[0]["data"]
    # Attacker: 3 peasants (6,6,6) + 2 citizens (5,5) = 5 hits; defender has no
    # Citizens left: 3 peasants 2,2,1 -> three dice cancel with Befestigung.
    assert first["cancelled"] == 3 and first["hits_on_defender"] == 2


def test_hinterhalt_defender_rolls_alone_first(script_dice):
    state, _, ambush = _battle_with_reactions(None, "Hinterhalt")
    script_dice([6, 6, 6, 1, 1] + [1] * 5 + [6] * 5 + [1] * 5 + [6] * 5)
    state, events = act(state, 1, type="react", card=ambush)
    losses = of_type(events, "losses_taken")[0]["data"]
    assert losses["side"] == "attacker" and losses["citizens"] == 2 and losses["estate"] == 1


def test_verstaerkung_adds_two_dice_every_round(script_dice):
    state, card, _ = _battle_with_reactions("Verstärkung", None)
    script_dice([1, 1, 1, 1, 1, 5, 6, 1, 1, 1, 1, 1] + [6] * 7 + [1] * 5)
    state, events = act(state, 0, type="react", card=card)
    purposes = [e["data"]["purpose"] for e in of_type(events, "dice_rolled")]
    assert purposes.count("battle_attacker_reinforcements") == 2
    assert of_type(events, "battle_round")[0]["data"]["hits_on_defender"] == 2
