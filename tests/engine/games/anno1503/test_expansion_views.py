"""What each seat sees with the expansion: aristocrat hands private (others a
count), deck orders hidden, who plays the pirate and every roll public."""

import json

from engine import redact_event

from .expansion_helpers import (
    BESIDE_PIRATE_SQUARE,
    PIRATE_SQUARE,
    give_cards,
    place_ship,
    rng_for_faces,
    set_xhand,
    top_pirate_card,
    xload,
    xposition,
)
from .helpers import game, of_type, play


def test_aristocrat_cards_are_private():
    d = xposition(3)
    give_cards(d, 1, "sea_hero", "builder")
    state = xload(d)
    own = game().view(state, 1)["players"][1]["aristocrat"]
    assert own["cards"] == ["sea_hero", "builder"]
    for viewer in (0, 2, None):
        other = game().view(state, viewer)["players"][1]["aristocrat"]
        assert "cards" not in other and other["cards_count"] == 2
        assert "sea_hero" not in json.dumps(game().view(state, viewer))


def test_deck_orders_are_hidden():
    d = xposition(2)
    state = xload(d)
    d2 = json.loads(json.dumps(d))
    d2["aristocrat_deck"].append(d2["aristocrat_deck"].pop(0))
    d2["pirate_deck"].append(d2["pirate_deck"].pop(0))
    d2["expansion_reserve"].append(d2["expansion_reserve"].pop(0))
    for viewer in (0, 1, None):
        assert game().view(state, viewer) == game().view(xload(d2), viewer)
    view = game().view(state, 0)
    assert {"pirate_deck", "aristocrat_deck", "expansion_reserve"}.isdisjoint(view)
    assert view["expansion"]["pirate_deck_size"] == 10


def test_drawn_aristocrat_cards_reach_only_the_drawer():
    d = xposition(3)
    d["players"][0]["gold"] = 2
    _state, events = play(xload(d), 0, {"type": "build_manor"})
    drawn = of_type(events, "aristocrat_cards_drawn")[0]
    assert "cards" in redact_event(drawn, 0)["data"]
    for viewer in (1, 2, None):
        assert "cards" not in redact_event(drawn, viewer)["data"]


def test_pirate_and_rolls_are_public():
    d = xposition(4)
    place_ship(d, 0, BESIDE_PIRATE_SQUARE)
    top_pirate_card(d, 2)  # the left neighbour plays the pirate
    d["rng"] = rng_for_faces(3, 0)
    state, events = play(xload(d), 0, {"type": "move_ship", "ship": 0, "to": PIRATE_SQUARE})
    state, more = play(state, 0, {"type": "respond", "option": "fight"})
    events += more
    for viewer in (None, 2):
        seen = [redact_event(e, viewer) for e in events]
        named = next(e for e in seen if e["type"] == "pirate_named")
        assert named["data"]["pirate"] == 1
        roll = next(e for e in seen if e["type"] == "combat_rolled")["data"]
        assert (roll["attacker_roll"], roll["defender_roll"]) == (3, 0)


def test_no_other_seat_secret_in_any_view_during_a_battle():
    d = xposition(3)
    give_cards(d, 0, "sea_hero")
    set_xhand(d, 0, silk=1)
    place_ship(d, 0, BESIDE_PIRATE_SQUARE)
    top_pirate_card(d, 0)
    state, _ = play(xload(d), 0, {"type": "move_ship", "ship": 0, "to": PIRATE_SQUARE})
    for viewer in (1, 2, None):
        view = game().view(state, viewer)
        assert "hand" not in view["players"][0] and "cards" not in view["players"][0]["aristocrat"]
        assert view["expansion"]["combat"]["card"]["id"] == 0  # the drawn card is face up
