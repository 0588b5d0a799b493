"""Each inhabitant buys at most once per turn, also when developed after buying.

S1 "Sell commodities": "Once per turn, a player can sell one type of
commodity to each inhabitant settled on a space on his home island."
Ruling 5 (game-content §1.9): exactly one card per inhabitant tile per turn.
Developing turns the same tile over: the pioneer that bought is now a
settler that has already bought this turn.
"""

from .helpers import (
    assert_illegal,
    dump,
    legal_of_type,
    load,
    of_type,
    play_all,
    position,
    set_hand,
    set_island,
)


def sell(commodity):
    return {"type": "sell", "commodity": commodity}


def develop(slot):
    return {"type": "develop", "slot": slot}


def test_a_pioneer_that_bought_does_not_buy_again_as_a_settler():
    """One inhabitant, one sale: the pioneer buys a stone, is developed to a
    settler (cloth + 2 stone), and that settler may not buy the cloth."""
    d = position(2)
    set_island(d, 0, ["pioneer"])
    set_hand(d, 0, stone=3, cloth=2)
    state, events = play_all(load(d), [(0, sell("stone")), (0, develop(1))])
    assert dump(state)["players"][0]["slots"][0] == "settler"
    assert len(of_type(events, "sold")) == 1
    assert_illegal(state, 0, sell("cloth"))
    assert legal_of_type(state, 0, "sell") == []


def test_a_settler_that_bought_does_not_buy_again_as_a_citizen():
    """The settler buys cloth, becomes a citizen (2 spice + stone) and may
    not buy a spice in the same turn."""
    d = position(2)
    set_island(d, 0, ["settler"])
    set_hand(d, 0, cloth=1, spice=3, stone=1)
    state, _ = play_all(load(d), [(0, sell("cloth")), (0, develop(1))])
    assert dump(state)["players"][0]["slots"][0] == "citizen"
    assert_illegal(state, 0, sell("spice"))


def test_two_pioneers_buy_two_cards_whichever_is_developed():
    """Two inhabitants, two sales at most. One pioneer bought a stone; after
    one of the two is developed, the settler may buy cloth (the developed
    tile can be the one that did not buy), but then nobody buys the wood."""
    d = position(2)
    set_island(d, 0, ["pioneer", "pioneer"])
    set_hand(d, 0, stone=3, cloth=2, wood=1)
    state, _ = play_all(load(d), [(0, sell("stone")), (0, develop(1)), (0, sell("cloth"))])
    after = dump(state)["players"][0]
    assert after["slots"][:2] == ["settler", "pioneer"]
    assert after["gold"] == 7 + 1 + 2
    assert_illegal(state, 0, sell("wood"))
    assert legal_of_type(state, 0, "sell") == []


def test_developing_before_selling_still_lets_the_new_settler_buy():
    """The rule limits sales, not the order: develop first, then the settler
    buys its cloth (one sale for one inhabitant)."""
    d = position(2)
    set_island(d, 0, ["pioneer"])
    set_hand(d, 0, stone=2, cloth=2)
    state, _ = play_all(load(d), [(0, develop(1)), (0, sell("cloth"))])
    assert dump(state)["players"][0]["gold"] == 7 + 2
    assert legal_of_type(state, 0, "sell") == []


def test_sales_in_one_turn_never_exceed_inhabitants_in_the_dump():
    """The turn's sale record stays within the inhabitants of each kind, so a
    stored match cannot hold more sales than buyers."""
    d = position(2)
    set_island(d, 0, ["pioneer", "settler"])
    set_hand(d, 0, stone=3, cloth=2, spice=2)
    state, _ = play_all(load(d), [(0, sell("stone")), (0, sell("cloth")), (0, develop(1))])
    player = dump(state)["players"][0]
    sold, slots = player["turn"]["sold"], player["slots"]
    assert all(sold[kind] <= slots.count(kind) for kind in sold), (sold, slots)
    assert sum(sold.values()) == 2
