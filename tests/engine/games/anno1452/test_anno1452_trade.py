"""Expert Trade & Agreements: bundled offers composed item by item, accepted
or declined, binding pacts, the limits, and who sees what."""

import pytest

from engine.core import redact_event
from engine.errors import IllegalActionError
from engine.games.anno1452.offers import MAX_EDITS, MAX_ITEMS, MAX_OFFERS

from .anno1452_helpers import GAME, R, act, blank, give_card, load, put, run_steps


def _trade_dump(num_players=3):
    """A dump at the start of an expert Trade phase, seat 0 to decide."""
    d = blank(num_players=num_players, options={"rules": "expert"})
    d["phase"] = "evaluation"
    state = load(d)
    run_steps(state, [["trade"], ["epoch"]])
    return GAME.dump(state)


def _draft(state, seat, to, give=(), ask=()):
    """Start a draft from ``seat`` to ``to`` and add the items ({item, ...} dicts)."""
    state, _ = act(state, seat, type="draft_offer", to=to)
    for side, items in (("give", give), ("ask", ask)):
        for item in items:
            state, _ = act(state, seat, type="draft_add", side=side, **item)
    return state


def _everyone_done(state):
    while state.data["decision"]["kind"] == "trade":
        state, _ = act(state, GAME.to_act(state)[0], type="end_trading")
    return state


def _bundle_dump():
    """Seat 0 holds a card and 15 gold; seat 1 holds an Estate with 2 Citizens."""
    d = _trade_dump()
    card = give_card(d, 0, "Heirat Bayern")
    estate = put(d, "Bayern", 1, citizens=2)
    return d, card, estate


def test_bundle_accepted_is_carried_out_at_once():
    d, card, estate = _bundle_dump()
    state = _draft(
        load(d),
        0,
        1,
        give=[{"item": "gold", "amount": 2}, {"item": "card", "card": card}],
        ask=[{"item": "estate", "estate": estate}],
    )
    state, _ = act(state, 0, type="send_offer")
    assert GAME.to_act(state) == [1]
    assert GAME.view(state, 1)["offer"]["give"] == {"gold": 2, "cards": [card], "estates": [], "pact": False}
    state, events = act(state, 1, type="accept_offer")
    p0, p1 = state.data["players"][0], state.data["players"][1]
    assert (p0["gold"], p1["gold"]) == (13, 17)
    assert card in p1["hand"] and card not in p0["hand"]
    moved = state.data["regions"][estate[0]]["slots"][estate[1]]
    assert moved["owner"] == 0 and moved["citizens"] == 2
    kinds = [e["type"] for e in events]
    # One action carries out every item; the offer is gone and the turn passes on.
    assert {"gold_transferred", "card_transferred", "estate_transferred", "offer_accepted"} <= set(kinds)
    assert state.data["offer"] is None and GAME.to_act(state) == [1]


def test_declined_offer_changes_nothing_but_the_turn_and_the_budget():
    d, card, estate = _bundle_dump()
    state = _draft(
        load(d),
        0,
        1,
        give=[{"item": "gold", "amount": 5}, {"item": "card", "card": card}],
        ask=[{"item": "estate", "estate": estate}],
    )
    state, _ = act(state, 0, type="send_offer")
    before = GAME.dump(state)
    state, _ = act(state, 1, type="decline_offer")
    after = GAME.dump(state)
    for key in ("players", "regions", "pacts"):
        assert after[key] == before[key]
    assert after["offer"] is None and after["trade"]["offers"]["0"] == 1


def test_offer_the_giver_can_no_longer_deliver_is_refused():
    d, card, estate = _bundle_dump()
    state = _draft(
        load(d),
        0,
        1,
        give=[{"item": "gold", "amount": 10}, {"item": "card", "card": card}],
        ask=[{"item": "estate", "estate": estate}],
    )
    state, _ = act(state, 0, type="send_offer")
    d = GAME.dump(state)
    d["players"][0]["gold"] = 9  # spent meanwhile (edited position)
    state = load(d)
    with pytest.raises(IllegalActionError) as err:
        act(state, 1, type="accept_offer")
    assert err.value.reason == "not_enough_gold"
    assert GAME.legal_actions(state, 1) == [{"type": "decline_offer"}]
    d["players"][0]["gold"] = 15
    d["players"][0]["hand"].remove(card)
    d["discard"].append(card)
    with pytest.raises(IllegalActionError) as err:
        act(load(d), 1, type="accept_offer")
    assert err.value.reason == "card_not_in_hand"


def test_only_what_one_holds_can_be_added():
    d, card, estate = _bundle_dump()
    mine = put(d, "Sachsen", 0)
    ottokar = put(d, "Pfalz", "ottokar")  # Ottokar never trades
    state = _draft(load(d), 0, 1, give=[{"item": "gold", "amount": 10}, {"item": "gold", "amount": 5}])
    cases = [
        ({"side": "give", "item": "gold", "amount": 1}, "not_enough_gold"),  # 15 already offered
        ({"side": "ask", "item": "estate", "estate": mine}, "not_their_estate"),
        ({"side": "ask", "item": "estate", "estate": ottokar}, "not_their_estate"),
        ({"side": "give", "item": "estate", "estate": estate}, "not_their_estate"),
        ({"side": "ask", "item": "card", "card": card}, "cards_are_only_given"),
        ({"side": "give", "item": "gold", "amount": 3}, "gold_step"),
        ({"side": "give", "item": "card"}, "item_fields"),
    ]
    for params, reason in cases:
        with pytest.raises(IllegalActionError) as err:
            act(state, 0, type="draft_add", **params)
        assert err.value.reason == reason
    assert state.data["trade"]["draft"]["give"]["gold"] == 15
    listed = {tuple(a["estate"]) for a in GAME.legal_actions(state, 0) if a.get("estate")}
    assert listed == {tuple(mine), tuple(estate)}  # mine to give, seat 1's to ask; none of Ottokar's


def test_pact_with_gold_is_enforced_and_expires_at_the_next_trade():
    state = _draft(load(_trade_dump()), 0, 1, give=[{"item": "pact"}, {"item": "gold", "amount": 2}])
    state, _ = act(state, 0, type="send_offer")
    state, _ = act(state, 1, type="accept_offer")
    assert state.data["pacts"] == [[0, 1]] and state.data["players"][1]["gold"] == 17
    state = _everyone_done(state)
    assert state.data["phase"] == "action"
    d = GAME.dump(state)
    mine, theirs = put(d, "Bayern", 0), put(d, "Bayern", 1)
    for attacker, origin, target in ((0, mine, theirs), (1, theirs, mine)):
        d["decision"]["seats"] = [attacker]
        with pytest.raises(IllegalActionError) as err:
            act(load(d), attacker, type="attack", target=target, **{"from": origin})
        assert err.value.reason == "non_aggression_pact"
    d["phase"] = "evaluation"
    state = load(d)
    events = run_steps(state, [["trade"], ["epoch"]])
    assert state.data["pacts"] == []
    assert [e["data"]["pacts"] for e in events if e["type"] == "pacts_expired"] == [[[0, 1]]]


def test_at_most_the_item_limit_per_side_and_one_pact():
    d = _trade_dump()
    cards = [
        give_card(d, 0, name)
        for name in ("Heirat Bayern", "Heirat Sachsen", "Heirat Pfalz", "Heirat Franken")
    ]
    state = _draft(load(d), 0, 1, give=[{"item": "card", "card": c} for c in cards[:3]] + [{"item": "pact"}])
    with pytest.raises(IllegalActionError) as err:
        act(state, 0, type="draft_add", side="give", item="card", card=cards[3])
    assert err.value.reason == "too_many_items"
    offered = [a for a in GAME.legal_actions(state, 0) if a["type"] == "draft_add" and a["side"] == "give"]
    # Gold is the only give item still possible, and not even that: the side is full.
    assert offered == []
    state, _ = act(state, 0, type="draft_remove", side="give", item="card", card=cards[0])
    with pytest.raises(IllegalActionError) as err:
        act(state, 0, type="draft_add", side="give", item="pact")
    assert err.value.reason == "already_in_offer"
    assert len(state.data["trade"]["draft"]["give"]["cards"]) == 2


def test_draft_changes_and_offers_are_bounded():
    state = load(_trade_dump())
    state, _ = act(state, 0, type="draft_offer", to=1)
    for _ in range(MAX_EDITS // 2):
        state, _ = act(state, 0, type="draft_add", side="give", item="gold", amount=1)
        state, _ = act(state, 0, type="draft_remove", side="give", item="gold")
    assert {a["type"] for a in GAME.legal_actions(state, 0)} == {"cancel_draft"}  # the draft is empty
    state, _ = act(state, 0, type="cancel_draft")
    for _ in range(MAX_OFFERS - 1):
        state = _draft(state, 0, 2, give=[{"item": "gold", "amount": 1}])
        state, _ = act(state, 0, type="send_offer")
        state, _ = act(state, 2, type="decline_offer")
        while GAME.to_act(state) != [0]:
            state, _ = act(state, GAME.to_act(state)[0], type="end_trading")
    assert GAME.legal_actions(state, 0) == [{"type": "end_trading"}]
    state, _ = act(state, 0, type="end_trading")
    assert state.data["trade"] is None and state.data["phase"] == "action"


def test_third_party_sees_neither_draft_nor_offer_nor_the_card():
    d, card, _estate = _bundle_dump()
    state = _draft(load(d), 0, 1, give=[{"item": "card", "card": card}], ask=[{"item": "gold", "amount": 1}])
    assert GAME.view(state, 0)["draft"]["give"]["cards"] == [card]
    assert GAME.view(state, 1)["draft"] is None and GAME.view(state, 2)["draft"] is None
    state, made = act(state, 0, type="send_offer")
    assert GAME.view(state, 2)["offer"] == {"from": 0, "to": 1}
    assert GAME.view(state, 1)["offer"]["give"]["cards"] == [card]
    state, accepted = act(state, 1, type="accept_offer")
    for e in made + accepted:
        seen = redact_event(e, 2)
        assert "offer" not in seen["data"] and "card" not in seen["data"]
    shown = [redact_event(e, 1)["data"].get("card") for e in accepted if e["type"] == "card_transferred"]
    assert shown == [card]
    third = GAME.view(state, 2)
    assert "hand" not in third["players"][1] and third["players"][1]["hand_size"] == 1
    assert third["offer"] is None and GAME.view(state, 1)["players"][1]["hand"] == [card]


def test_phase_ends_only_when_every_player_has_declared_done():
    state = load(_trade_dump())
    seen = []
    while state.data["decision"]["kind"] == "trade":
        seat = GAME.to_act(state)[0]
        assert seat not in seen
        seen.append(seat)
        state, _ = act(state, seat, type="end_trading")
    assert sorted(seen) == [0, 1, 2] and state.data["trade"] is None


def test_ask_side_bounded_and_items_count_once_per_kind_of_gold():
    d = _trade_dump()
    theirs = [put(d, region, 1) for region in ("Bayern", "Sachsen", "Pfalz", "Franken")]
    state = _draft(
        load(d),
        0,
        1,
        ask=[{"item": "estate", "estate": e} for e in theirs[:3]] + [{"item": "gold", "amount": 5}],
    )
    # A second gold step adds to the gold item rather than a fifth item.
    state, _ = act(state, 0, type="draft_add", side="ask", item="gold", amount=2)
    assert state.data["trade"]["draft"]["ask"]["gold"] == 7
    with pytest.raises(IllegalActionError) as err:
        act(state, 0, type="draft_add", side="ask", item="estate", estate=theirs[3])
    assert err.value.reason == "too_many_items"
    assert len(state.data["trade"]["draft"]["ask"]["estates"]) == MAX_ITEMS - 1
    assert theirs[0][0] == R["Bayern"]
