"""Anno 1452 hard sells its non-aggression pacts at the partner's own price."""

import engine
from engine.ai import get_player
from engine.ai.anno1452 import bargain
from engine.ai.anno1452.players import SearchPlayer
from engine.ai.anno1452.policy import score_actions as medium_scores
from engine.games.anno1452.offers import MAX_OFFERS
from engine.rng import mix_seed

GAME = engine.get_game("anno1452")
MEDIUM = get_player("medium")


def _play_until(state, seed, found, steps=3000):
    """Medium play from ``state`` until ``found(state, seat)``; that state and seat."""
    for step in range(steps):
        seat = GAME.to_act(state)[0]
        if found(state, seat):
            return state, seat
        actions = GAME.legal_actions(state, seat)
        state, _ = GAME.apply(
            state, seat, MEDIUM.choose(GAME, seat, GAME.view(state, seat), actions, seed=mix_seed(seed, step))
        )
    raise AssertionError("no such position")


def _trade_turn(seed, wanted):
    """A 4-player expert trade turn, no draft open, where ``wanted(state,
    seat, buyers)`` holds."""

    def found(state, seat):
        d = state.data
        return (
            d["decision"]["kind"] == "trade"
            and d["trade"]["draft"] is None
            and wanted(state, seat, bargain.buyers(d, seat))
        )

    return _play_until(GAME.setup(4, {"rules": "expert"}, seed), seed, found)


def _trading(state, seat):
    return state.data["decision"]["kind"] == "trade" and GAME.to_act(state)[0] == seat


def _answer(player, state):
    seat = GAME.to_act(state)[0]
    return player.choose(GAME, seat, GAME.view(state, seat), GAME.legal_actions(state, seat), seed=1)


def test_hard_sells_a_pact_for_the_most_gold_the_partner_still_accepts():
    state, seat = _trade_turn(seed=2, wanted=lambda state, seat, prices: len(prices) >= 2)
    prices = bargain.buyers(state.data, seat)
    partner = max(prices, key=lambda s: (prices[s], -s))
    hard = SearchPlayer(simulations=30)
    while _trading(state, seat):
        state, _ = GAME.apply(state, seat, _answer(hard, state))
    offer = state.data["offer"]
    assert (offer["from"], offer["to"]) == (seat, partner)
    assert offer["give"]["pact"] and offer["ask"]["gold"] == prices[partner] > 0
    assert not offer["give"]["gold"] and not offer["give"]["cards"] and not offer["give"]["estates"]

    dearer = state.clone()
    dearer.data["offer"]["ask"]["gold"] += 1
    assert _answer(MEDIUM, dearer)["type"] == "decline_offer"

    gold = [p["gold"] for p in state.data["players"]]
    accepted, _ = GAME.apply(state, partner, _answer(MEDIUM, state))
    assert sorted([seat, partner]) in accepted.data["pacts"]
    assert accepted.data["players"][seat]["gold"] == gold[seat] + prices[partner]
    assert accepted.data["players"][partner]["gold"] == gold[partner] - prices[partner]


def _free_pact_offered_to(state, seat, giver):
    state = state.clone()
    side = {"gold": 0, "cards": [], "estates": [], "pact": False}
    state.data["offer"] = {"from": giver, "to": seat, "give": {**side, "pact": True}, "ask": dict(side)}
    state.data["decision"] = {"kind": "offer_reply", "seats": [seat]}
    return state


def test_hard_declines_a_free_pact_it_could_sell_unless_it_has_no_offer_left_to_sell_it():
    def welcome(state, seat, prices):  # medium, in that seat, would take a free pact from a buyer
        return any(
            _answer(MEDIUM, _free_pact_offered_to(state, seat, giver))["type"] == "accept_offer"
            for giver in prices
        )

    state, seat = _trade_turn(seed=2, wanted=welcome)
    hard = SearchPlayer(simulations=30)
    answers = []
    for giver in bargain.buyers(state.data, seat):
        offered = _free_pact_offered_to(state, seat, giver)
        assert _answer(hard, offered)["type"] == "decline_offer"
        offered.data["trade"]["offers"][str(seat)] = MAX_OFFERS
        answers.append((_answer(hard, offered), _answer(MEDIUM, offered)))
    assert all(mine == medium for mine, medium in answers)
    assert {"type": "accept_offer"} in [mine for mine, _ in answers]


def test_where_no_partner_would_pay_hard_trades_as_medium():
    state, seat = _trade_turn(seed=3, wanted=lambda state, seat, prices: not prices)
    compared = 0
    while _trading(state, seat):  # the turn's steps: open a draft, compose it, send it
        actions = GAME.legal_actions(state, seat)
        assert bargain.score_actions(GAME, state, seat, actions) == medium_scores(GAME, state, seat, actions)
        compared += len(actions) > 1
        state, _ = GAME.apply(state, seat, _answer(MEDIUM, state))
    assert compared
