"""Selling to one's inhabitants and buying from the supply."""

import pytest

from .helpers import (
    assert_illegal,
    dump,
    end_turn_rolling,
    give_trade_agreements,
    legal_of_type,
    load,
    of_type,
    play,
    play_all,
    position,
    set_hand,
    set_island,
)


def sell(commodity):
    return {"type": "sell", "commodity": commodity}


def buy(commodity):
    return {"type": "buy", "commodity": commodity}


def test_sale_example_six_gold():
    """S1/S2 sale example with ruling 5 (one card per inhabitant): to the
    pioneer one stone (the tool can no longer go to him), cloth to the
    settler, one spice to the citizen: 1 + 2 + 3 = 6 gold."""
    d = position(2)
    set_island(d, 0, ["pioneer", "settler", "citizen"])
    set_hand(d, 0, tool=1, stone=1, cloth=1, spice=2)
    state, events = play_all(load(d), [(0, sell("stone")), (0, sell("cloth")), (0, sell("spice"))])
    after = dump(state)
    assert after["players"][0]["gold"] == 7 + 6
    assert [e["data"]["gold"] for e in of_type(events, "sold")] == [1, 2, 3]
    assert after["players"][0]["hand"] == {
        "stone": 0,
        "wood": 0,
        "tool": 1,
        "cloth": 0,
        "spice": 1,
        "tobacco": 0,
    }
    assert after["stacks"]["stone"] == 15  # sold cards go back to their stack
    assert_illegal(state, 0, sell("tool"))
    assert_illegal(state, 0, sell("spice"))
    assert legal_of_type(state, 0, "sell") == []


@pytest.mark.parametrize(
    "kind, commodity, price",
    [
        ("pioneer", "stone", 1),
        ("pioneer", "wood", 1),
        ("pioneer", "tool", 1),
        ("settler", "cloth", 2),
        ("citizen", "spice", 3),
        ("merchant", "tobacco", 4),
    ],
)
def test_each_inhabitant_buys_its_commodity_at_its_price(kind, commodity, price):
    """S1 "Sell commodities": tool, stone or wood to a pioneer, cloth to a
    settler, spice to a citizen, tobacco to a merchant; the price is the
    number on the tile."""
    d = position(2)
    set_island(d, 0, [kind])
    set_hand(d, 0, **{commodity: 1})
    state, _ = play(load(d), 0, sell(commodity))
    assert dump(state)["players"][0]["gold"] == 7 + price


def test_nobody_buys_what_no_inhabitant_wants():
    """S1 "Sell commodities": the commodity is the one shown on the tile; a
    player without a merchant cannot sell tobacco."""
    d = position(2)
    set_hand(d, 0, tobacco=1, spice=1)
    state = load(d)
    assert_illegal(state, 0, sell("tobacco"))
    assert_illegal(state, 0, sell("spice"))


def test_two_pioneers_buy_one_card_each():
    """S1: one card to each inhabitant; two pioneers buy two cards."""
    d = position(2)
    set_island(d, 0, ["pioneer", "settler", "pioneer"])
    set_hand(d, 0, stone=2, wood=1)
    state, _ = play_all(load(d), [(0, sell("stone")), (0, sell("stone"))])
    assert dump(state)["players"][0]["gold"] == 9
    assert_illegal(state, 0, sell("wood"))


def test_buy_costs_six_and_at_most_twice_per_turn():
    """S1 "Buy commodities": twice in his turn a player may buy any one
    commodity card for 6 gold, independent of his inhabitants."""
    d = position(2)
    d["players"][0]["gold"] = 20
    state, _events = play_all(load(d), [(0, buy("tobacco")), (0, buy("spice"))])
    after = dump(state)
    assert after["players"][0]["gold"] == 8
    assert after["players"][0]["hand"]["tobacco"] == 1 and after["players"][0]["hand"]["spice"] == 1
    assert after["stacks"]["tobacco"] == 14
    assert_illegal(state, 0, buy("stone"))
    assert legal_of_type(state, 0, "buy") == []


def test_buy_needs_the_gold():
    """S1 "Buy commodities": the price is paid from the gold track."""
    d = position(2)
    d["players"][0]["gold"] = 5
    assert_illegal(load(d), 0, buy("stone"))


def test_buy_from_an_empty_stack_is_refused():
    """game-content §1.1: an empty stack cannot be bought."""
    d = position(3)
    set_hand(d, 2, spice=15)
    assert_illegal(load(d), 0, buy("spice"))


@pytest.mark.parametrize("agreements, price", [(1, 5), (2, 4), (3, 3)])
def test_trade_agreements_lower_the_price(agreements, price):
    """S1 "Trade Agreement": each agreement reduces the price by one gold;
    with 3 the player buys 1 or 2 commodities for 3 gold each."""
    d = position(2)
    give_trade_agreements(d, 0, agreements)
    d["players"][0]["gold"] = 10
    state, _ = play_all(load(d), [(0, buy("cloth")), (0, buy("cloth"))])
    assert dump(state)["players"][0]["gold"] == 10 - 2 * price


def test_buying_twice_resets_next_turn():
    """S1: "Twice in his turn": the count starts again on his next turn."""
    d = position(2, active=1)
    d["players"][1]["gold"] = 30
    state, _ = play_all(load(d), [(1, buy("wood")), (1, buy("wood"))])
    state, _ = end_turn_rolling(dump(state), 2)  # seat 0's turn
    state, _ = end_turn_rolling(dump(state), 2)  # seat 1's turn again
    assert dump(state)["active"] == 1
    state, _ = play(state, 1, buy("stone"))
    assert dump(state)["players"][1]["gold"] == 12


def test_school_pays_two_for_a_pioneer_sale():
    """S1 "School": each sale to a pioneer pays 2 gold instead of 1."""
    d = position(2)
    set_island(d, 0, ["pioneer", "settler", "pioneer", "pioneer"], ["school"])
    set_hand(d, 0, wood=1, tool=1)
    state, _ = play_all(load(d), [(0, sell("wood")), (0, sell("tool"))])
    assert dump(state)["players"][0]["gold"] == 7 + 4


def test_restaurant_pays_four_for_cloth_and_spice():
    """S1 "Restaurant": cloth to a settler or spice to a citizen pays 4."""
    d = position(2)
    set_island(d, 0, ["pioneer", "settler", "citizen", "pioneer"], ["restaurant"])
    set_hand(d, 0, cloth=1, spice=1)
    state, _ = play_all(load(d), [(0, sell("cloth")), (0, sell("spice"))])
    assert dump(state)["players"][0]["gold"] == 7 + 8


def test_bath_house_pays_six_for_tobacco():
    """S1 "Bath House": tobacco to a merchant pays 6 instead of 4."""
    d = position(2)
    set_island(d, 0, ["pioneer", "merchant", "settler", "pioneer"], ["bath_house"])
    set_hand(d, 0, tobacco=1)
    state, _ = play(load(d), 0, sell("tobacco"))
    assert dump(state)["players"][0]["gold"] == 7 + 6


def test_sales_reset_on_the_next_turn():
    """S1 "Sell commodities": "Once per turn" per inhabitant: the pioneer
    buys again on the player's next turn."""
    d = position(2, active=1)
    set_hand(d, 1, stone=1, tool=1)
    state, _ = play(load(d), 1, sell("stone"))
    assert_illegal(state, 1, sell("tool"))
    state, _ = end_turn_rolling(dump(state), 4)  # seat 0's turn
    state, _ = end_turn_rolling(dump(state), 4)  # seat 1's turn again
    state, _ = play(state, 1, sell("tool"))
    assert dump(state)["players"][1]["gold"] == 9
