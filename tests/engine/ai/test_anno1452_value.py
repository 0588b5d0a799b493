"""The Anno 1452 value tracks the final score, and the rules of thumb for
non-active seats answer sensibly (battle reactions)."""

import itertools
import random

import pytest

import engine
from engine.ai.anno1452 import evaluate
from engine.ai.anno1452.decisions import RULES
from engine.ai.anno1452.evaluate import (
    coronation_pending,
    crown_shares,
    crown_worth,
    prestige_worth,
    relative_value,
    value,
)
from engine.games.anno1452.board import new_estate, principalities_of, totals
from engine.games.anno1452.data import CARDS, ROWS
from engine.games.anno1452.evaluation import income_of

from . import support

GAME = engine.get_game("anno1452")


def _card(effect):
    return next(i for i, c in enumerate(CARDS) if c.get("effect") == effect)


def _action_position(row=5):
    """A 2-player action turn in epoch ``row``: seat 0 holds one Estate in
    region 0, seat 1 one in region 2; equal gold, prestige and hands."""
    d = GAME.setup(2, {"scenario": "ottokar_a"}, 1).data
    d.update(
        phase="action", row=row, ar=1, decision={"kind": "action_turn", "seats": [0], "extra_used": False}
    )
    d["regions"][0]["slots"][0] = new_estate(0)
    d["regions"][2]["slots"][0] = new_estate(1)
    for p in d["players"]:
        p.update(gold=15, prestige=10)
    return d


def _add_estate(d, seat, region):
    slots = d["regions"][region]["slots"]
    slots[slots.index(None)] = new_estate(seat)


def test_at_the_end_only_the_final_score_counts():
    d = _action_position()
    d["row"] = d["final_row"]  # the final ER: no more actions, draws or income
    rich_hand = value(d, 0)
    d["players"][0]["hand"] = []
    assert value(d, 0) == rich_hand
    d["players"][0]["gold"] = 39
    assert value(d, 0) == pytest.approx(rich_hand + 24 / 10)


def test_cards_and_income_count_while_ers_remain():
    d = _action_position(row=3)
    with_hand = value(d, 0)
    d["players"][0]["hand"] = []
    assert value(d, 0) < with_hand
    early = value(d, 0)
    d["row"] = d["final_row"] - 1
    assert value(d, 0) < early  # fewer ERs of income to come


def test_prestige_beyond_20_is_worth_only_its_gold():
    assert prestige_worth(10, 3) == 3
    assert prestige_worth(19, 3) == pytest.approx(1 + 2 * 0.5)
    assert prestige_worth(20, 2) == pytest.approx(1.0)


def test_a_wider_category_lead_is_worth_more_beyond_the_next_er():
    assert evaluate._margin_worth(0, 4) == 0
    assert 0 < evaluate._margin_worth(1, 4) < evaluate._margin_worth(3, 4)
    # the next ER pays the leader whatever the margin
    assert evaluate._margin_worth(1, 1) == evaluate._margin_worth(3, 1)


def test_leading_a_category_beats_a_tie():
    d = _action_position()
    tied = relative_value(d, 0)
    d["regions"][0]["slots"][0]["citizens"] = 2
    d["regions"][2]["slots"][0]["citizens"] = 1
    # one more Citizen than the other seat: half a point, its income, and
    # the Citizens category (+1 to me, -1 to the other at the next ER)
    assert relative_value(d, 0) - tied > 0.5 + 2 * evaluate.CATEGORY_LEAD


def test_the_coming_coronation_goes_to_the_fewest_estates():
    d = _action_position(row=4)
    assert ROWS[5]["coronation"] and coronation_pending(d)
    _add_estate(d, 1, 3)
    counts = evaluate.tallies(d)[0]
    assert crown_shares(d, counts) == [1.0, 0.0]
    # equal Estates: more Prestige wins the crown
    _add_estate(d, 0, 1)
    d["players"][1]["prestige"] = 11
    counts = evaluate.tallies(d)[0]
    assert crown_shares(d, counts) == [0.0, 1.0]


def test_no_crown_is_expected_before_an_interregnum_row_or_the_final_er():
    d = _action_position(row=0)  # the next ER is Interregnum II (row 1)
    assert not coronation_pending(d)
    d["row"] = d["final_row"] - 1
    assert not coronation_pending(d)


def test_the_crown_is_in_the_value():
    d = _action_position(row=4)
    _add_estate(d, 1, 3)
    with_crown = relative_value(d, 0)
    d["row"] = 0  # same position, Interregnum II ahead: no coronation
    without = relative_value(d, 0)
    # both rows have ERs of income and leads to come; the crown is the difference
    assert with_crown - without > crown_worth(10) - 1.0


def test_bestechung_buys_the_crown_in_the_er():
    d = _action_position(row=5)
    d.update(phase="evaluation", crowned=False, interregnum=False)
    _add_estate(d, 1, 3)
    counts = evaluate.tallies(d)[0]
    assert crown_shares(d, counts) == [1.0, 0.0]
    d["er_effects"]["bestechung"] = 1
    assert crown_shares(d, counts) == [0.0, 1.0]


def _battle(d, defender_citizens=0, attacker_citizens=0):
    d["regions"][0]["slots"][0]["citizens"] = attacker_citizens
    d["regions"][2]["slots"][0]["citizens"] = defender_citizens
    d["battle"] = {
        "attacker": 0,
        "defender": 1,
        "from": [0, 0],
        "target": [2, 0],
        "stage": "reactions",
        "round": 0,
        "soldiers": {"attacker": 0, "defender": 0},
        "reactions": {},
        "hits": {},
        "asked": [],
        "answered": [],
    }


def _reaction_choice(d, seat, cards):
    actions = [{"type": "react", "card": None}] + [{"type": "react", "card": c} for c in cards]
    d["decision"] = {"kind": "reaction", "seats": [seat]}
    scored = RULES["reaction"](d, seat, actions, 0.0)
    best = max(scored, key=lambda si: (si[0], -si[1]))[1]
    return actions[best]["card"]


def test_a_defender_calls_a_truce_rather_than_fight():
    d = _action_position()
    _battle(d)
    truce, archers, reinforcement = _card("waffenstillstand"), _card("bogenschuetzen"), _card("verstaerkung")
    assert _reaction_choice(d, 1, [archers, reinforcement, truce]) == truce


def test_archers_are_kept_when_no_citizen_fights():
    d = _action_position()
    archers = _card("bogenschuetzen")
    _battle(d, attacker_citizens=0)
    assert _reaction_choice(d, 0, [archers]) is None
    _battle(d, attacker_citizens=3)
    assert _reaction_choice(d, 0, [archers]) == archers


def test_tallies_count_what_the_rules_count():
    """One pass over the map gives each seat's categories and income exactly
    as the rules' own functions do, Ottokar's Estates and ER effects included."""
    checked = ottokar = 0
    for num_players, options in ((4, {}), (3, {"scenario": "ottokar_b"}), (2, {"scenario": "ottokar_a"})):
        for state in support.positions(GAME, num_players, options, 3, 12, every=11):
            d = state.data
            ottokar += any(e and e["owner"] == "ottokar" for r in d["regions"] for e in r["slots"])
            for effects in ({}, {"sondersteuer": [0], "messe": [1]}):
                d["er_effects"].update(effects)
                counts, incomes = evaluate.tallies(d)
                assert counts == [(*totals(d, s), len(principalities_of(d, s))) for s in range(num_players)]
                assert incomes == [income_of(d, s) for s in range(num_players)]
                checked += 1
    assert checked == 72
    assert ottokar > 0


def _lead_by_definition(counts, seat, ers):
    """Each category: the margin over the best other seat if positive, minus
    the margin under the worst other seat if negative."""
    bonus = 0.0
    for cat in range(4):
        others = [c[cat] for s, c in enumerate(counts) if s != seat]
        bonus += evaluate._margin_worth(counts[seat][cat] - max(others), ers)
        bonus -= evaluate._margin_worth(min(others) - counts[seat][cat], ers)
    return bonus


def test_lead_bonuses_follow_their_definition():
    rng = random.Random(4)
    cases = [[(2, 3, 1, 0), (2, 1, 1, 0)], [(5, 0, 0, 1), (3, 2, 0, 1), (5, 1, 2, 0)]]
    cases += [
        [tuple(rng.randrange(4) for _ in range(4)) for _ in range(n)]
        for n, _ in itertools.product((2, 3, 4), range(200))
    ]
    for counts in cases:
        for ers in (1, 3):
            expected = [_lead_by_definition(counts, s, ers) for s in range(len(counts))]
            assert evaluate.lead_bonuses(counts, ers) == pytest.approx(expected)
