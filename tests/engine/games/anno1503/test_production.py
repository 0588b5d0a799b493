"""The production roll: fixed commodities, "?", branch offices, the 6."""

import pytest

from .helpers import (
    COMMODITIES,
    ISLAND_PRODUCTION,
    dump,
    end_turn_rolling,
    game,
    give_branch_office,
    give_trade_agreements,
    legal_of_type,
    of_type,
    play,
    position,
    set_hand,
)


def _last_seat_ends_turn(n, *dice, edit=None):
    """Seat n-1 ends its turn; seat 0 (island A) rolls ``dice``."""
    d = position(n, active=n - 1)
    if edit:
        edit(d)
    return end_turn_rolling(d, *dice)


def test_production_example_a_4_gives_cloth():
    """S1/S2 production example: "A 4 was rolled. The player gets a cloth."
    (island A, game-content §1.3); every player produces, not only the
    active one (island B gets a tool on a 4)."""
    state, events = _last_seat_ends_turn(2, 4)
    d = dump(state)
    assert d["active"] == 0 and d["phase"] == "main"
    assert d["players"][0]["hand"]["cloth"] == 1
    assert d["players"][1]["hand"]["tool"] == 1
    taken = {(e["seat"], e["data"]["commodity"]) for e in of_type(events, "commodity_taken")}
    assert taken == {(0, "cloth"), (1, "tool")}


def test_production_example_a_1_gives_a_free_choice():
    """S1/S2 production example: "If a 1 had been rolled, the player would
    have been allowed to take any one commodity" (including spice and
    tobacco)."""
    state, _ = _last_seat_ends_turn(2, 1)
    d = dump(state)
    assert d["phase"] == "production"
    assert game().to_act(state) == [0]
    options = {a["commodity"] for a in legal_of_type(state, 0, "choose_commodity")}
    assert options == set(COMMODITIES)
    state, _events = play(state, 0, {"type": "choose_commodity", "commodity": "tobacco"})
    d = dump(state)
    assert d["players"][0]["hand"]["tobacco"] == 1
    assert d["players"][1]["hand"]["stone"] == 1  # island B's 1
    assert d["phase"] == "main" and d["active"] == 0


def test_every_player_produces_on_the_roll():
    """S1 step 1: "Each player - not only the active player - now takes a
    card"; four islands give four different commodities on a 2."""
    state, _ = _last_seat_ends_turn(4, 2)
    d = dump(state)
    for seat in range(4):
        want = ISLAND_PRODUCTION[seat][2]
        assert d["players"][seat]["hand"] == {c: int(c == want) for c in COMMODITIES}


def test_empty_stack_produces_nothing():
    """game-content §1.1: each stack is finite; an empty stack cannot be
    taken (event production_missed)."""

    def hoard_cloth(d):
        set_hand(d, 1, cloth=15)

    state, events = _last_seat_ends_turn(3, 4, edit=hoard_cloth)  # seat 2 ends
    d = dump(state)
    assert d["players"][0]["hand"]["cloth"] == 0
    assert d["stacks"]["cloth"] == 0
    missed = of_type(events, "production_missed")
    assert [(e["seat"], e["data"]["commodity"]) for e in missed] == [(0, "cloth")]


def test_free_choice_excludes_an_empty_stack():
    """game-content §1.1: an empty commodity cannot be taken, so a "?"
    does not offer it."""

    def hoard_spice(d):
        set_hand(d, 1, spice=15)

    state, _ = _last_seat_ends_turn(3, 1, edit=hoard_spice)
    options = {a["commodity"] for a in legal_of_type(state, 0, "choose_commodity")}
    assert options == set(COMMODITIES) - {"spice"}


def test_branch_office_example_spice_or_wood_on_a_3():
    """S1/S2 branch-office example: a spice branch office on bridge 3 and
    two trade agreements: on a 3 the player takes spice OR wood (never
    both, ruling 18); a purchase costs 4 gold."""

    def offices(d):
        give_branch_office(d, 0, 3, "spice")
        give_trade_agreements(d, 0, 2)
        d["players"][0]["gold"] = 10

    state, _ = _last_seat_ends_turn(2, 3, edit=offices)
    assert dump(state)["phase"] == "production"
    options = {a["commodity"] for a in legal_of_type(state, 0, "choose_commodity")}
    assert options == {"spice", "wood"}
    state, _ = play(state, 0, {"type": "choose_commodity", "commodity": "spice"})
    d = dump(state)
    assert d["players"][0]["hand"] == {c: int(c == "spice") for c in COMMODITIES}
    state, events = play(state, 0, {"type": "buy", "commodity": "stone"})
    assert dump(state)["players"][0]["gold"] == 6
    assert of_type(events, "bought")[0]["data"]["gold"] == 4


def test_branch_office_on_another_number_does_not_produce():
    """S1 "Branch Office": the office produces only when its bridge's number
    is rolled."""

    def office(d):
        give_branch_office(d, 0, 3, "spice")

    state, _ = _last_seat_ends_turn(2, 2, edit=office)
    d = dump(state)
    assert d["phase"] == "main"
    assert d["players"][0]["hand"] == {c: int(c == "stone") for c in COMMODITIES}


@pytest.mark.parametrize(
    "event_die, event",
    [(1, "pirates"), (2, "pirates"), (3, "fire"), (4, "fire"), (5, "golden_times"), (6, "golden_times")],
)
def test_events_table(event_die, event):
    """S1 "The events": a 6 gives no production; the die is rolled again:
    1-2 pirates, 3-4 fire, 5-6 golden times."""
    state, events = _last_seat_ends_turn(2, 6, event_die)
    assert [e["data"]["event"] for e in of_type(events, "event_drawn")] == [event]
    assert not [e for e in of_type(events, "commodity_taken") if e["data"]["source"] == "production"]
    d = dump(state)
    if event == "golden_times":
        assert d["phase"] == "golden_times"
    else:  # nobody owns tiles or inhabitants outside the red area: nothing owed
        assert d["phase"] == "main"
        assert [p["gold"] for p in d["players"]] == [7, 7]
    assert all(sum(p["hand"].values()) == 0 for p in d["players"])


def test_production_then_main_phase_for_the_new_active_player():
    """S1: the turn passes to the left; the new active player rolls and then
    acts (main phase)."""
    d = position(3, active=1)
    state, events = end_turn_rolling(d, 2)
    after = dump(state)
    assert after["active"] == 2 and after["phase"] == "main"
    assert [e["data"]["turn"] for e in of_type(events, "turn_started")] == [d["turn"] + 1]
    assert of_type(events, "turn_ended")[0]["seat"] == 1
