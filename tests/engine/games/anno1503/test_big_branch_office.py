"""The Big Branch Office: draw a random card from another hand, pay 2 gold."""

import engine

from .helpers import (
    assert_illegal,
    dump,
    end_turn_rolling,
    game,
    legal_of_type,
    load,
    of_type,
    play,
    position,
    set_hand,
    set_island,
)

BBO_ISLAND = (["pioneer", "settler", "pioneer", "pioneer"], ["big_branch_office"])


def bbo(target):
    return {"type": "big_branch_office", "target": target}


def with_bbo(gold=7):
    d = position(3)
    set_island(d, 0, *BBO_ISLAND)
    d["players"][0]["gold"] = gold
    set_hand(d, 1, wood=2)
    return d


def test_draws_a_card_from_another_player_and_pays_him_two():
    """S1 "Big Branch Office": once during his turn the player draws one
    commodity card at random from another player's hand, then pays that
    player 2 gold."""
    d = with_bbo()
    set_hand(d, 2, spice=1)
    set_hand(d, 1, wood=2)
    state = load(d)
    assert sorted(a["target"] for a in legal_of_type(state, 0, "big_branch_office")) == [1, 2]
    state, events = play(state, 0, bbo(1))
    after = dump(state)
    assert after["players"][0]["hand"]["wood"] == 1
    assert after["players"][1]["hand"]["wood"] == 1
    assert [p["gold"] for p in after["players"]] == [5, 9, 7]
    drawn = of_type(events, "card_drawn")
    assert len(drawn) == 1
    for viewer, sees in ((0, True), (1, True), (2, False), (None, False)):
        data = engine.redact_event(drawn[0], viewer)["data"]
        assert ("commodity" in data) is sees
        if sees:
            assert data["commodity"] == "wood"


def test_only_once_per_turn():
    """S1 "Big Branch Office": once during his turn."""
    state, _ = play(load(with_bbo()), 0, bbo(1))
    assert legal_of_type(state, 0, "big_branch_office") == []
    assert_illegal(state, 0, bbo(1))


def test_needs_two_gold_and_a_target_with_cards():
    """game-content §1.9 ruling 19: only with 2+ gold, only against a
    player holding at least one card."""
    poor = load(with_bbo(gold=1))
    assert legal_of_type(poor, 0, "big_branch_office") == []
    assert_illegal(poor, 0, bbo(1))
    d = with_bbo()
    state = load(d)
    assert_illegal(state, 0, bbo(2))  # seat 2 holds nothing
    assert [a["target"] for a in legal_of_type(state, 0, "big_branch_office")] == [1]


def test_not_against_oneself_and_not_without_the_building():
    """S1 "Big Branch Office": another player's hand, only for its owner."""
    d = with_bbo()
    set_hand(d, 0, stone=1)
    assert_illegal(load(d), 0, bbo(0))
    d = position(3)
    set_hand(d, 1, wood=1)
    assert_illegal(load(d), 0, bbo(1))


def test_usable_again_next_turn():
    """S1 "Big Branch Office": once during *each* of his turns."""
    state, _ = play(load(with_bbo(gold=10)), 0, bbo(1))
    for _ in range(3):
        state, _ = end_turn_rolling(dump(state), 2)
    assert dump(state)["active"] == 0
    assert [a["target"] for a in legal_of_type(state, 0, "big_branch_office")] == [1, 2]
    assert game().to_act(state) == [0]
