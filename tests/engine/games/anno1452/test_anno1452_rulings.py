"""One test (at least) per ruling of game-content.md §3.6."""

import pytest

from engine.errors import IllegalActionError, InvalidOptionsError
from engine.games.anno1452.board import majority_owner
from engine.games.anno1452.data import CARDS, HAND_SIZE
from engine.games.anno1452.evaluation import income_of, victory_points

from .anno1452_helpers import GAME, R, act, blank, give_card, load, of_type, put, run_steps


def _marry_saxony(d):
    d["players"][0]["prestige"] = 11
    put(d, "Sachsen", 1)
    put(d, "Sachsen", 1)
    put(d, "Franken", 0, citizens=1)
    d["regions"][R["Sachsen"]]["principality"] = None
    card = give_card(d, 0, "Heirat Sachsen")
    state, _ = act(load(d), 0, type="marry", card=card)
    return state


# 1. Marriages end at the end of ER phase 4 (option: after the last AR).
def test_r1_marriage_counts_for_income_then_ends_after_prestige():
    state = _marry_saxony(blank())
    d = state.data
    assert d["regions"][R["Sachsen"]]["principality"] == 0  # conveyed, no majority
    assert d["players"][0]["marriage"]["conveyed"] == [R["Sachsen"]]
    income = income_of(d, 0)
    assert income == 3 + 3 + 1  # two Estates (Franken, Sachsen) + the card; the Citizen was removed
    events = run_steps(state, [["income"], ["prestige"], ["marriages_end"]])
    assert d["players"][0]["marriage"] is None
    assert d["regions"][R["Sachsen"]]["principality"] is None
    assert of_type(events, "marriage_ended")[0]["seat"] == 0
    assert events.index(of_type(events, "marriage_ended")[0]) > events.index(
        of_type(events, "gold_received")[0]
    )


def test_r1_option_marriages_end_after_the_last_action_round():
    d = blank(options={"marriage_end": "last_action_round"})
    from engine.games.anno1452.evaluation import er_steps

    d["row"] = 2
    steps = er_steps(d)
    assert steps[0] == ["marriages_end"]
    assert ["marriages_end"] not in steps[1:]


# 2. ER: only Special Action cards, one per player per ER, phases 2-6.
def test_r2_one_special_action_card_per_evaluation_round():
    d = blank()
    tax = give_card(d, 0, "Sondersteuer")
    give_card(d, 0, "Messe")
    give_card(d, 0, "Verstärkung")
    put(d, "Bayern", 0, citizens=2, city=True)
    state = load(d)
    state.data["er_used"] = []
    run_steps(state, [["window", "income"], ["income"]])
    assert state.data["decision"]["kind"] == "er_special"
    legal = GAME.legal_actions(state, 0)
    played = {CARDS[a["card"]]["name"] for a in legal if a["type"] == "play_special"}
    assert played == {"Sondersteuer", "Messe"}  # never the reaction card
    state, events = act(state, 0, type="play_special", card=tax)
    # Not asked again for Messe; income doubles the Citizens' share.
    assert state.data["decision"] is None or state.data["decision"]["seats"] != [0]
    income = next(e for e in events if e["type"] == "gold_received" and e["seat"] == 0)
    assert income["data"]["amount"] == 3 + 2 * 2 + 1


# 3. Majority counts Ottokar; his majority leaves the card in the supply.
def test_r3_ottokar_majority_keeps_the_card_in_the_supply():
    d = blank(num_players=2, options={"scenario": "ottokar_a"})
    state = load(d)
    assert state.data["regions"][R["Böhmen"]]["principality"] is None
    d = blank(num_players=3)
    put(d, "Tirol", "ottokar")
    put(d, "Tirol", "ottokar")
    state, _ = act(load(d), 0, type="build_estate", region="Tirol")
    assert state.data["regions"][R["Tirol"]]["principality"] is None


@pytest.mark.parametrize(
    "owners, majority",
    [
        ([], None),
        ([0], None),  # Sachsen holds 5: four Estates are still unplaced
        ([0, 0, 0], 0),  # 3 against 2 unplaced
        ([0, 0, 1, 1], None),  # a tie at the top
        ([0, 0, 1, 1, 0], 0),
        ([0, 0, 1], None),  # 2 against 2 unplaced
        ([1, 0, 0, 2], 0),  # 2 against 1 unplaced and 1 each
        (["ottokar"] * 3 + [0], "ottokar"),
        ([2, 1, 0, 2, 1], None),  # a full region, tied
    ],
)
def test_r3_a_majority_beats_every_other_owner_and_the_unplaced_estates(owners, majority):
    d = blank(num_players=3)
    for owner in owners:
        put(d, "Sachsen", owner)
    assert majority_owner(d, R["Sachsen"]) == majority


# 4. Initial Estates: distinct regions, the second borders the first.
def test_r4_initial_placement():
    state = GAME.setup(3, {}, 5)
    order = state.data["order"]
    seat = GAME.to_act(state)[0]
    assert seat == order[-1]  # reverse turn order
    state, _ = act(state, seat, type="place_estate", region="Bayern")
    legal = {a["region"] for a in GAME.legal_actions(state, seat)}
    assert legal == {"Franken", "Böhmen", "Österreich", "Steiermark", "Tirol", "Schwaben"}
    with pytest.raises(IllegalActionError):
        act(state, seat, type="place_estate", region="Neapel")
    state, _ = act(state, seat, type="place_estate", region="Tirol")
    nxt = GAME.to_act(state)[0]
    assert nxt == order[-2]
    legal = {a["region"] for a in GAME.legal_actions(state, nxt)}
    assert "Bayern" not in legal and "Tirol" not in legal


def test_r4_ottokar_does_not_block_initial_regions():
    state = GAME.setup(2, {"scenario": "ottokar_b"}, 5)
    seat = GAME.to_act(state)[0]
    legal = {a["region"] for a in GAME.legal_actions(state, seat)}
    assert "Bayern" in legal  # Ottokar has an Estate there, still allowed


# 5. Coronation: fewest Estates, then Prestige; 12 Soldiers, +3 Prestige, +3 cards.
def test_r5_coronation_fewest_estates_then_prestige():
    d = blank()
    d["row"] = 3
    put(d, "Bayern", 0)
    put(d, "Franken", 1)
    put(d, "Sachsen", 2)
    put(d, "Böhmen", 2)
    d["players"][1]["prestige"] = 12
    state = load(d)
    run_steps(state, [["coronation"]])
    d = state.data
    assert d["king"] == 1
    assert d["soldiers"]["king"] == 12
    assert d["players"][1]["prestige"] == 15
    assert len(d["players"][1]["hand"]) == 3


def test_r5_re_elected_king_gets_all_soldiers_again():
    d = blank()
    d["row"] = 4
    d["king"], d["soldiers"]["king"] = 0, 2
    state = load(d)
    run_steps(state, [["coronation"]])
    assert state.data["soldiers"]["king"] == 12


def test_r5_no_coronation_in_the_interregnum_rows():
    from engine.games.anno1452.evaluation import er_steps

    d = blank()
    d["row"] = 1
    assert ["coronation"] not in er_steps(d)
    d["row"] = 2
    assert ["coronation"] in er_steps(d)


# 6. The King attacking with Soldiers only.
def test_r6_king_with_soldiers_only_loses_only_soldiers(script_dice):
    d = blank()
    d["king"], d["soldiers"]["king"] = 0, 12
    put(d, "Neapel", 0)
    target = put(d, "Sachsen", 1)
    state, _ = act(load(d), 0, type="attack", target=target, **{"from": None})
    assert [a["count"] for a in GAME.legal_actions(state, 0)] == list(range(1, 13))
    script_dice([1, 6, 6, 6])  # the Soldier misses, blue hits
    state, _events = act(state, 0, type="commit_soldiers", count=1)
    assert state.data["battle"] is None
    assert state.data["regions"][R["Neapel"]]["slots"][0]["owner"] == 0  # no Estate lost
    assert state.data["soldiers"]["king"] == 11


def test_r6_king_needs_an_estate_in_supply():
    d = blank()
    d["king"], d["soldiers"]["king"] = 0, 12
    target = put(d, "Sachsen", 1)
    for name in ("Lothringen", "Westfalen", "Pfalz", "Franken", "Böhmen", "Burgund", "Schwaben", "Bayern"):
        put(d, name, 0)
        put(d, name, 0)
    with pytest.raises(IllegalActionError) as err:
        act(load(d), 0, type="attack", target=target, **{"from": None})
    assert err.value.reason == "no_estate_in_supply"


# 7. Battles: mutual destruction gives no Prestige; both Cities return.
def test_r7_mutual_destruction(script_dice):
    d = blank()
    mine = put(d, "Bayern", 0, strength=1, city=True)
    theirs = put(d, "Bayern", 1, strength=1, city=True)
    d["players"][1]["hand"] = []
    script_dice([6, 6])
    state, events = act(load(d), 0, type="attack", target=theirs, **{"from": mine})
    assert state.data["regions"][R["Bayern"]]["slots"][:2] == [None, None]
    assert state.data["players"][0]["prestige"] == 9  # only the declaration
    assert state.data["players"][1]["prestige"] == 10
    assert of_type(events, "battle_ended")[0]["data"]["winner"] is None


def test_r7_defender_wins_and_the_attacker_loses_his_estate(script_dice):
    d = blank()
    mine = put(d, "Bayern", 0, strength=1, city=True)
    theirs = put(d, "Bayern", 1)
    script_dice([1, 6, 1, 1])
    state, _ = act(load(d), 0, type="attack", target=theirs, **{"from": mine})
    assert state.data["regions"][mine[0]]["slots"][mine[1]] is None
    assert state.data["players"][0]["prestige"] == 8
    assert state.data["players"][1]["prestige"] == 11


# 8. Reduction tokens are removed after the Income payout.
def test_r8_reduced_estates_pay_less_then_heal():
    d = blank()
    put(d, "Bayern", 0, strength=2)
    state = load(d)
    events = run_steps(state, [["income"]])
    assert [e["data"]["amount"] for e in events if e["seat"] == 0 and e["type"] == "gold_received"] == [2]
    assert state.data["regions"][R["Bayern"]]["slots"][0]["strength"] == 3


# 9. Prestige 0-20 (conversions are tested with the worked examples).
def test_r9_prestige_phase_most_and_fewest_and_ties():
    d = blank()
    put(d, "Bayern", 0, citizens=2)
    put(d, "Franken", 0)
    put(d, "Sachsen", 1, citizens=2)
    put(d, "Böhmen", 2, citizens=1)
    state = load(d)
    run_steps(state, [["prestige"]])
    prestige = [p["prestige"] for p in state.data["players"]]
    # estates: 0 most (+1), 1 and 2 fewest (-1); citizens: 0 and 1 most, 2 fewest;
    # cities and principalities: all equal, not scored.
    assert prestige == [12, 10, 8]


# 10. Income: Estate 3 + Citizen 1 + City 1 + Principality 1.
def test_r10_income():
    d = blank()
    put(d, "Pfalz", 0, citizens=4, city=True)
    put(d, "Pfalz", 0)
    d["regions"][R["Pfalz"]]["principality"] = 0
    assert income_of(d, 0) == 3 + 4 + 1 + 3 + 1


# 11. Events.
def test_r11_setup_events_are_replaced():
    for seed in range(20):
        d = GAME.setup(4, {}, seed).data
        for p in d["players"]:
            assert len(p["hand"]) == HAND_SIZE
            assert all(CARDS[c]["kind"] != "event" for c in p["hand"])


def _stack_deck(d, names):
    """Put cards named ``names`` on top of the deck (drawn first to last)."""
    for name in reversed(names):
        card = next(c for c in d["deck"] if CARDS[c]["name"] == name)
        d["deck"].remove(card)
        d["deck"].append(card)


def test_r11_only_the_first_event_acts_and_shuffle_always_does():
    d = blank()
    d["row"], d["king"] = 3, 1
    d["soldiers"]["king"] = 12
    d["phase"] = "evaluation"
    put(d, "Bayern", 2)  # seat 2 has the most Estates: the Anti-King
    _stack_deck(d, ["Gegenkönig", "Gegenkönig", "Bitte Karten mischen"])
    state = load(d)
    events = run_steps(state, [["refill", 0]])
    assert state.data["anti_king"] == 2
    assert len(of_type(events, "crowned")) == 1  # the second Gegenkönig is discarded
    assert state.data["soldiers"] == {"king": 6, "anti_king": 6}
    assert of_type(events, "event_discarded")[0]["data"]["card"] in range(89)
    assert any(e["data"].get("reason") == "event" for e in of_type(events, "deck_reshuffled"))
    assert len(state.data["players"][0]["hand"]) == HAND_SIZE


def test_r11_interregnum_before_coronation_skips_it():
    d = blank()
    d["row"], d["king"] = 4, 1
    d["phase"] = "evaluation"
    _stack_deck(d, ["Interregnum"])
    state = load(d)
    run_steps(state, [["refill", 0], ["coronation"]])
    assert state.data["king"] is None
    assert state.data["interregnum"] is True


# 12. Final ER: income and prestige only; VP and tie-breaks.
def test_r12_final_evaluation_and_victory_points():
    d = blank()
    put(d, "Pfalz", 0, citizens=5, city=True)
    put(d, "Pfalz", 0)
    d["players"][0]["gold"] = 27
    d["regions"][R["Pfalz"]]["principality"] = 0
    assert victory_points(d, 0) == 2 + 2 + 1 + 1 + 2 + 10
    d["row"] = d["final_row"] - 1
    d["decision"] = None
    d["queue"] = [["er"]]
    hands = [list(p["hand"]) for p in d["players"]]
    state = load(d)
    events = run_steps(state, [["er"]])
    assert state.data["result"] is not None
    assert [p["hand"] for p in state.data["players"]] == hands  # no cards drawn
    assert not of_type(events, "crowned")
    assert state.data["result"]["winners"] == [0]


def test_r12_tie_break_prestige_then_gold():
    d = blank()
    d["players"][1]["gold"] = 19  # same VP as seat 0 (1 for 10 gold), more gold
    d["players"][0]["gold"] = 10
    state = load(d)
    run_steps(state, [["final"]])
    assert state.data["result"]["winners"] == [1]
    d = blank()
    d["players"][2]["prestige"] = 11
    d["players"][0]["gold"] = 25  # the same 12 VP as seat 2, with less Prestige
    state = load(d)
    run_steps(state, [["final"]])
    assert state.data["result"]["winners"] == [2]


# 13. Player counts: 2-4; two players need Ottokar.
def test_r13_player_counts():
    GAME.setup(2, {"scenario": "ottokar_a"}, 1)
    GAME.setup(4, {}, 1)
    assert GAME.setup(2, {}, 1).data["options"]["scenario"] == "ottokar_a"
    with pytest.raises(InvalidOptionsError):
        GAME.setup(2, {"scenario": "standard"}, 1)
    with pytest.raises(InvalidOptionsError):
        GAME.setup(5, {}, 1)
    with pytest.raises(InvalidOptionsError):
        GAME.setup(4, {"scenario": "ottokar_b"}, 1)
    with pytest.raises(InvalidOptionsError):
        GAME.setup(3, {"end_year": 1308}, 1)  # fewer than 6 epochs
