"""Pirate squares, the pirate-card table (S3 / game-content §2.11), cannons
and lair battles (§2.12) of the Pirates & Aristocrats expansion."""

import pytest

from .expansion_helpers import (
    BESIDE_LAIR_SPACE,
    BESIDE_PIRATE_SQUARE,
    LAIR_SPACE,
    PIRATE_SQUARE,
    PORT_SEA,
    aristo,
    give_cards,
    lair_tile,
    place_ship,
    put_expansion_tile,
    rng_for_faces,
    set_xhand,
    top_pirate_card,
    xload,
    xposition,
)
from .helpers import game, of_type, play

WIN, LOSS = (3, 0), (0, 3)  # (attacker face, defender face) with 0 cannons each side


def _encounter(card, faces, gold=10, seats=4, **hand):
    """Seat 0 sails into a pirate square drawing ``card``, chooses to fight."""
    d = xposition(seats)
    d["players"][0]["gold"] = gold
    set_xhand(d, 0, **hand)
    place_ship(d, 0, BESIDE_PIRATE_SQUARE)
    top_pirate_card(d, card)
    d["rng"] = rng_for_faces(*faces)
    state, events = play(xload(d), 0, {"type": "move_ship", "ship": 0, "to": PIRATE_SQUARE})
    if game().to_act(state) == [0] and state.choice and state.choice["kind"] == "pirate_attack":
        state, more = play(state, 0, {"type": "respond", "option": "fight"})
        events += more
    return d, state, events


# --- wins: what each card pays ------------------------------------------------


@pytest.mark.parametrize(
    "card, gold, goods",
    [
        (0, 7, {}),
        (1, 0, {"gems": 1}),
        (2, 0, {"tobacco": 1}),
        (3, 0, {"marble": 1}),
        (4, 5, {}),
        (5, 5, {}),
        (6, 0, {"silk": 1}),
        (7, 0, {"spice": 1}),
    ],
)
def test_pirate_card_win_effect(card, gold, goods):
    _d, state, events = _encounter(card, WIN)
    after = game().dump(state)
    assert of_type(events, "battle_won")
    assert after["players"][0]["gold"] == 10 + gold
    held = {c: n for c, n in after["players"][0]["hand"].items() if n}
    assert held == goods
    assert after["pirate_discard"] == [card] and after["phase"] == "main"


@pytest.mark.parametrize("card", [1, 3, 6])
def test_pirate_card_loss_damages_the_ship_beside_the_port(card):
    _d, state, events = _encounter(card, LOSS)
    ship = game().dump(state)["players"][0]["ships"][0]
    assert ship["at"] in [list(sq) for sq in PORT_SEA] and ship["ap"] == 0
    assert aristo(game().dump(state), 0)["damaged"] == [True, False]
    assert of_type(events, "ship_damaged")


@pytest.mark.parametrize("card", [0, 2, 4, 7])
def test_pirate_card_loss_costs_a_card_or_5_gold(card):
    """ "Perte 1 marchandise ou 1 marchandise de luxe ou payer 5 Or" (S3)."""
    d, state, _events = _encounter(card, LOSS, stone=1)
    assert state.choice["kind"] == "pirate_penalty"
    assert set(state.choice["options"]) == {"stone", "gold"}
    paid, _ = play(state, 0, {"type": "respond", "option": "gold"})
    assert game().dump(paid)["players"][0]["gold"] == 5
    lost, _ = play(state, 0, {"type": "respond", "option": "stone"})
    after = game().dump(lost)
    assert after["players"][0]["hand"]["stone"] == 0 and after["players"][0]["gold"] == 10
    assert after["stacks"]["stone"] == d["stacks"]["stone"] + 1
    others = [p["gold"] for p in after["players"][1:]]
    assert others == [p["gold"] for p in d["players"][1:]]  # nobody gains


def test_pirate_card_loss_half_gold_rounded_down():
    _d, state, _events = _encounter(5, LOSS, gold=11)
    assert game().dump(state)["players"][0]["gold"] == 6  # lost 11 // 2 = 5


def test_no_penalty_when_the_goods_are_missing():
    _d, state, events = _encounter(0, LOSS, gold=4)  # empty hand, fewer than 5 gold
    after = game().dump(state)
    assert of_type(events, "penalty_missed")
    assert after["players"][0]["gold"] == 4 and after["phase"] == "main"


def test_paying_3_gold_avoids_the_battle():
    d = xposition(3)
    place_ship(d, 0, BESIDE_PIRATE_SQUARE)
    top_pirate_card(d, 0)
    state, _ = play(xload(d), 0, {"type": "move_ship", "ship": 0, "to": PIRATE_SQUARE})
    state, events = play(state, 0, {"type": "respond", "option": "pay"})
    assert game().dump(state)["players"][0]["gold"] == d["players"][0]["gold"] - 3
    assert not of_type(events, "combat_rolled")


def test_entering_a_pirate_square_ends_the_move_and_the_left_neighbour_draws():
    _d, state, events = _encounter(0, WIN, seats=3)
    drawn = of_type(events, "pirate_card_drawn")[0]
    assert drawn["seat"] == 1 and drawn["data"]["card"]["id"] == 0
    assert game().dump(state)["players"][0]["ships"][0] == {"at": PIRATE_SQUARE, "ap": 0}


@pytest.mark.parametrize("card, offer", [(8, {"tobacco", "spice"}), (9, {"silk", "marble", "gems"})])
def test_peaceful_pirate_offers(card, offer):
    d = xposition(3)
    d["players"][0]["gold"] = 10
    place_ship(d, 0, BESIDE_PIRATE_SQUARE)
    top_pirate_card(d, card)
    d["pirate_discard"] = [c for c in range(8) if c != card][:3]
    for c in d["pirate_discard"]:
        d["pirate_deck"].remove(c)
    state, _ = play(xload(d), 0, {"type": "move_ship", "ship": 0, "to": PIRATE_SQUARE})
    assert set(state.choice["options"]) == offer | {"decline"}
    pick = sorted(offer)[0]
    state, _events = play(state, 0, {"type": "respond", "option": pick})
    after = game().dump(state)
    assert after["players"][0]["hand"][pick] == 1
    assert after["players"][0]["gold"] == 10 - (2 if card == 8 else 5)
    if card == 8:  # it shuffles the pirate discards back into the deck
        assert after["pirate_discard"] == [] and len(after["pirate_deck"]) == 10
    else:
        assert card in after["pirate_discard"]


# --- cannons --------------------------------------------------------------------------


def test_cannons_cost_4_then_6():
    d = xposition(2)
    d["players"][0]["gold"] = 10
    state, e1 = play(xload(d), 0, {"type": "buy_cannon"})
    state, e2 = play(state, 0, {"type": "buy_cannon"})
    after = game().dump(state)
    assert [e["data"]["gold"] for e in e1 + e2] == [4, 6]
    assert after["players"][0]["gold"] == 0 and aristo(after, 0)["cannons"] == 2


def test_university_adds_a_cannon():
    d = xposition(2)
    aristo(d, 0)["buildings"] = ["university"]
    d["aristocrat_buildings"]["university"] -= 1
    aristo(d, 0)["cannons"] = 2
    view = game().view(xload(d), 0)
    assert view["players"][0]["aristocrat"]["cannon_strength"] == 3


# --- ties and the Sea Hero ---------------------------------------------------------------


def test_a_tie_is_won_with_a_sea_hero():
    d = xposition(4)
    give_cards(d, 0, "sea_hero")
    place_ship(d, 0, BESIDE_PIRATE_SQUARE)
    top_pirate_card(d, 0)
    d["rng"] = rng_for_faces(2, 2)
    state, _ = play(xload(d), 0, {"type": "move_ship", "ship": 0, "to": PIRATE_SQUARE})
    state, _ = play(state, 0, {"type": "respond", "option": "fight"})
    assert state.choice["kind"] == "sea_hero"
    state, events = play(state, 0, {"type": "respond", "option": "sea_hero"})
    after = game().dump(state)
    assert of_type(events, "battle_won")
    assert "sea_hero" not in aristo(after, 0)["cards"] and "sea_hero" in after["aristocrat_discard"]


def test_a_tie_without_a_sea_hero_is_rerolled():
    _d, _state, events = _encounter(0, (1, 1) + WIN)
    rolls = of_type(events, "combat_rolled")
    assert len(rolls) == 2 and of_type(events, "battle_won")


# --- lairs -------------------------------------------------------------------------------


def _lair_fight(faces, strength=4, cannons=4):
    d = xposition(3)
    tile = lair_tile(strength)
    put_expansion_tile(d, tile, LAIR_SPACE)
    aristo(d, 0)["cannons"] = cannons
    place_ship(d, 0, BESIDE_LAIR_SPACE)
    d["rng"] = rng_for_faces(*faces)
    state, events = play(xload(d), 0, {"type": "discover", "ship": 0, "space": LAIR_SPACE})
    state, more = play(state, 0, {"type": "attack_lair"})  # S3 §6.3: reveal and fight
    return tile, state, events + more


def test_a_lair_fight_won():
    tile, state, events = _lair_fight(WIN)
    after = game().dump(state)
    assert of_type(events, "lair_attacked")[0]["data"]["roller"] == 1  # the left neighbour
    assert aristo(after, 0)["lairs"] == [tile]
    assert after["players"][0]["ships"][0]["at"] is None  # home to stock
    assert after["spaces"]["2,14"] is None and after["phase"] == "main"


def test_a_lair_fight_lost():
    tile, state, _events = _lair_fight(LOSS)
    after = game().dump(state)
    assert aristo(after, 0)["lairs"] == [] and after["spaces"]["2,14"] == tile
    assert after["players"][0]["ships"][0]["at"] == BESIDE_LAIR_SPACE
    assert aristo(after, 0)["damaged"][0] is True


def test_a_defeated_lair_discounts_luxury():
    _tile, state, _ = _lair_fight(WIN, strength=6, cannons=6)
    d = game().dump(state)
    d["players"][0]["gold"] = 20
    state, events = play(xload(d), 0, {"type": "buy", "commodity": "silk"})
    assert of_type(events, "bought")[0]["data"]["gold"] == 10 - 3


def test_damaged_ship_cannot_sail_until_repaired():
    _tile, state, _ = _lair_fight(LOSS)
    assert not [a for a in game().legal_actions(state, 0) if a["type"] == "move_ship" and a["ship"] == 0]
    d = game().dump(state)
    set_xhand(d, 0, wood=1, tool=1)
    state, _events = play(xload(d), 0, {"type": "repair_ship", "ship": 0})
    assert aristo(game().dump(state), 0)["damaged"] == [False, False]
