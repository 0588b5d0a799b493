"""The time table, the evaluation round's decisions, expert trade, views."""

import pytest

from engine.errors import IllegalActionError

from .anno1452_helpers import GAME, R, act, blank, load, of_type, put, run_steps, script_dice


def _last_turn_of_round(number, options=None, num_players=3):
    d = blank(num_players=num_players, options=options)
    d["ar"] = number
    d["queue"] = [["ar_end", number]]
    return d


def test_a_six_on_the_two_dice_ends_the_action_rounds(monkeypatch):
    script_dice(monkeypatch, [3, 6] + [1, 2, 3, 4, 5, 6] * 5)  # then ties in the turn order
    state, events = act(load(_last_turn_of_round(1)), 0, type="pass")
    assert state.data["phase"] == "evaluation"
    assert of_type(events, "evaluation_started")


def test_no_six_gives_a_further_action_round(monkeypatch):
    script_dice(monkeypatch, [3, 5])
    state, events = act(load(_last_turn_of_round(1)), 0, type="pass")
    assert (state.data["phase"], state.data["ar"]) == ("action", 2)
    script_dice(monkeypatch, [1, 2, 6] + [1, 2, 3, 4, 5, 6] * 5)
    d = _last_turn_of_round(2)
    state, _ = act(load(d), 0, type="pass")
    assert state.data["phase"] == "evaluation"


def test_after_the_third_round_the_evaluation_follows_without_dice():
    state, events = act(load(_last_turn_of_round(3)), 0, type="pass")
    assert state.data["phase"] == "evaluation"
    assert not of_type(events, "dice_rolled")


def _discard_decision(options, hand_size):
    d = blank(options=options)
    for _ in range(hand_size):
        d["players"][0]["hand"].append(d["deck"].pop())
    state = load(d)
    run_steps(state, [["discard_turn", 0]])
    return state


def test_basic_discard_is_free_and_the_hand_is_refilled():
    state = _discard_decision({}, 5)
    hand = list(state.data["players"][0]["hand"])
    for card in hand[:4]:
        state, _ = act(state, 0, type="discard", card=card)
    state, events = act(state, 0, type="keep_hand")
    assert len(state.data["players"][0]["hand"]) == 5
    assert of_type(events, "cards_drawn")[0]["private"]["0"]["cards"]


def test_expert_discard_only_one_card():
    state = _discard_decision({"rules": "expert"}, 5)
    state, _ = act(state, 0, type="discard", card=state.data["players"][0]["hand"][0])
    assert state.data["decision"] is None or state.data["decision"]["kind"] != "discard"


def test_expert_discard_with_more_than_five_keeps_at_least_four():
    state = _discard_decision({"rules": "expert"}, 7)
    with pytest.raises(IllegalActionError):
        act(state, 0, type="keep_hand")
    for _ in range(3):
        state, _ = act(state, 0, type="discard", card=state.data["players"][0]["hand"][0])
    assert len(state.data["players"][0]["hand"]) == 5  # 4 kept + 1 drawn


def test_turn_order_king_chooses_then_prestige():
    d = blank(num_players=4)
    d["king"] = 2
    for seat, prestige in enumerate([8, 12, 5, 10]):
        d["players"][seat]["prestige"] = prestige
    state = load(d)
    run_steps(state, [["order"]])
    assert GAME.to_act(state) == [2]
    state, _ = act(state, 2, type="choose_position", position=2)
    assert state.data["order"] == [1, 2, 3, 0]


def _trade_state(num_players=3):
    d = blank(num_players=num_players, options={"rules": "expert"})
    d["phase"] = "evaluation"
    state = load(d)
    run_steps(state, [["trade"], ["epoch"]])
    return state


def test_trade_offer_accepted_is_carried_out():
    state = _trade_state()
    assert GAME.to_act(state) == [0]
    d = GAME.dump(state)
    theirs = put(d, "Bayern", 1)
    state, events = act(load(d), 0, type="offer", to=1, give_gold=5, ask_estate=theirs)
    assert GAME.to_act(state) == [1]
    assert state.data["offer"]["give_gold"] == 5
    assert GAME.view(state, 2)["offer"] == {"from": 0, "to": 1}
    assert GAME.view(state, 1)["offer"]["ask_estate"] == theirs
    state, _ = act(state, 1, type="accept_offer")
    assert state.data["players"][0]["gold"] == 10 and state.data["players"][1]["gold"] == 20
    assert state.data["regions"][R["Bayern"]]["slots"][0]["owner"] == 0


def test_pact_is_binding_and_declined_offers_change_nothing():
    state = _trade_state()
    state, _ = act(state, 0, type="offer", to=2, give_gold=1)
    state, _ = act(state, 2, type="decline_offer")
    assert state.data["players"][0]["gold"] == 15
    state, _ = act(state, 1, type="offer", to=0, pact="yes")
    state, _ = act(state, 0, type="accept_offer")
    assert state.data["pacts"] == [[0, 1]]
    for seat in (2, 0, 1, 2):
        if GAME.to_act(state) == [seat]:
            state, _ = act(state, seat, type="end_trading")
    while state.data["decision"]["kind"] == "trade":
        seat = GAME.to_act(state)[0]
        state, _ = act(state, seat, type="end_trading")
    assert state.data["phase"] == "action"
    d = GAME.dump(state)
    mine = put(d, "Bayern", 0)
    theirs = put(d, "Bayern", 1)
    d["decision"]["seats"] = [0]
    with pytest.raises(IllegalActionError) as err:
        act(load(d), 0, type="attack", target=theirs, **{"from": mine})
    assert err.value.reason == "non_aggression_pact"


def test_offer_limit_ends_the_phase():
    state = _trade_state()
    for _ in range(3):
        while GAME.to_act(state) != [0]:
            state, _ = act(state, GAME.to_act(state)[0], type="end_trading")
        state, _ = act(state, 0, type="offer", to=1, give_gold=1)
        state, _ = act(state, 1, type="decline_offer")
    while GAME.to_act(state) != [0]:
        state, _ = act(state, GAME.to_act(state)[0], type="end_trading")
    assert {a["type"] for a in GAME.legal_actions(state, 0)} == {"end_trading"}


def test_two_player_open_cards_alternate():
    d = blank(num_players=2, options={"rules": "expert", "scenario": "ottokar_a"})
    for seat in (0, 1):
        for _ in range(5):
            d["players"][seat]["hand"].append(d["deck"].pop())
    d["phase"] = "evaluation"
    state = load(d)
    run_steps(state, [["trade"], ["epoch"]])
    assert len(state.data["open_cards"]) == 5
    assert GAME.to_act(state) == [0]
    card = state.data["players"][0]["hand"][0]
    state, _ = act(state, 0, type="swap_open", card=card, open_card=2)
    assert state.data["open_cards"][2] == card
    assert GAME.to_act(state) == [1]
    state, _ = act(state, 1, type="pass")  # one stops: both stop
    assert state.data["decision"]["kind"] == "trade"


def test_views_hide_hands_and_deck():
    state = GAME.setup(3, {}, 4)
    view = GAME.view(state, 0)
    assert view["players"][0]["hand"] == state.data["players"][0]["hand"]
    assert "hand" not in view["players"][1] and view["players"][1]["hand_size"] == 5
    assert "deck" not in view and view["deck_size"] == len(state.data["deck"])
    assert all("hand" not in p for p in GAME.view(state, None)["players"])
    assert all(p["name"] is None for p in view["players"])


def test_end_year_shortens_the_game():
    state = GAME.setup(3, {"end_year": 1314}, 1)
    assert GAME.view(state, None)["final_year"] == 1314
    assert state.data["final_row"] == 6  # six epochs (rows 0-5 have action rounds)
