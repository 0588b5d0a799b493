"""The time table, the evaluation round's decisions, the 2-player open cards, views."""

import pytest

from engine.errors import IllegalActionError

from .anno1452_helpers import GAME, act, blank, load, of_type, run_steps


def _last_turn_of_round(number, options=None, num_players=3):
    d = blank(num_players=num_players, options=options)
    d["ar"] = number
    d["queue"] = [["ar_end", number]]
    return d


def test_a_six_on_the_two_dice_ends_the_action_rounds(script_dice):
    script_dice([3, 6] + [1, 2, 3, 4, 5, 6] * 5)  # then ties in the turn order
    state, events = act(load(_last_turn_of_round(1)), 0, type="pass")
    assert state.data["phase"] == "evaluation"
    assert of_type(events, "evaluation_started")


def test_no_six_gives_a_further_action_round(script_dice):
    script_dice([3, 5])
    state, _events = act(load(_last_turn_of_round(1)), 0, type="pass")
    assert (state.data["phase"], state.data["ar"]) == ("action", 2)
    script_dice([1, 2, 6] + [1, 2, 3, 4, 5, 6] * 5)
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


# Trade offers (bundles, pacts, the offer limit) are in test_anno1452_trade.py.


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
