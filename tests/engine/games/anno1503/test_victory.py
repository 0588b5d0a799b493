"""Victory points, the end of the game and the hand limit."""

import pytest

import engine

from .helpers import (
    dump,
    end_turn_rolling,
    force_dice,
    game,
    give_branch_office,
    give_trade_agreements,
    legal_of_type,
    load,
    of_type,
    play,
    position,
    rolls,
    set_hand,
    set_island,
)


def four_offices(d, seat=0):
    for bridge, commodity in zip((2, 3, 4, 5), ("spice", "tobacco", "stone", "tool")):
        give_branch_office(d, seat, bridge, commodity)


GOALS = {
    "gold": lambda d: d["players"][0].update(gold=30),
    "branch_offices": four_offices,
    "trade_agreements": lambda d: give_trade_agreements(d, 0, 3),
    "public_buildings": lambda d: set_island(
        d,
        0,
        ["citizen", "citizen", "citizen", "pioneer", "pioneer", "pioneer", "settler"],
        ["school", "church", "smithy", "shipyard"],
    ),
    "merchants": lambda d: set_island(d, 0, ["merchant", "merchant", "merchant"]),
}


@pytest.mark.parametrize("goal", sorted(GOALS))
def test_each_goal_is_one_victory_point(goal):
    """S1 "Victory points": 30+ gold, 4 branch offices, 3 trade agreements,
    4 public buildings or 3 merchants each give one victory point."""
    d = position(2)
    GOALS[goal](d)
    view = game().view(load(d), 1)
    assert view["players"][0]["victory_points"] == 1
    assert view["players"][0]["goals"] == {g: g == goal for g in GOALS}
    assert view["players"][1]["victory_points"] == 0


def test_one_short_of_each_goal_gives_nothing():
    """S1 "Victory points": the thresholds are exact (29 gold, 3 offices,
    2 agreements, 3 buildings, 2 merchants give no point)."""
    d = position(2)
    d["players"][0]["gold"] = 29
    for bridge, commodity in zip((2, 3, 4), ("spice", "tobacco", "stone")):
        give_branch_office(d, 0, bridge, commodity)
    give_trade_agreements(d, 0, 2)
    set_island(
        d,
        0,
        ["merchant", "merchant", "pioneer", "pioneer", "pioneer", "pioneer"],
        ["school", "church", "smithy"],
    )
    assert game().view(load(d), 0)["players"][0]["victory_points"] == 0


def test_victory_points_are_lost_below_30_gold():
    """S1/S2 "Note": victory points can be lost, e.g. when a player drops
    below 30 gold as a result of an event (pirates take one gold)."""
    d = position(2, active=1)
    d["players"][0]["gold"] = 30
    give_trade_agreements(d, 0, 1)
    assert game().view(load(d), 0)["players"][0]["victory_points"] == 1
    state, _ = end_turn_rolling(d, 6, 1)
    assert dump(state)["players"][0]["gold"] == 29
    assert game().view(state, 0)["players"][0]["victory_points"] == 0


def test_victory_point_for_buildings_lost_to_fire():
    """S1/S2 "Note": a public building lost in an event loses its point."""
    d = position(4, active=3)
    GOALS["public_buildings"](d)
    d["players"][0]["gold"] = 0
    assert game().view(load(d), 0)["players"][0]["victory_points"] == 1
    state, _ = end_turn_rolling(d, 6, 3)
    assert dump(state)["players"][0]["buildings"][3] is None
    assert game().view(state, 0)["players"][0]["victory_points"] == 0


def test_third_victory_point_on_own_turn_ends_the_game():
    """S1/S2 "End of the game": when a player, on his turn, achieves his
    third victory point, the game ends and he has won."""
    d = position(3)
    four_offices(d)
    give_trade_agreements(d, 0, 3)
    d["players"][0]["gold"] = 29
    set_hand(d, 0, stone=1)
    state = load(d)
    assert game().outcome(state) is None
    state, events = play(state, 0, {"type": "sell", "commodity": "stone"})
    outcome = game().outcome(state)
    assert outcome["winners"] == [0]
    assert outcome["reason"] == "three_victory_points"
    assert outcome["scores"] == {"0": 3, "1": 0, "2": 0}
    assert [e["data"]["winners"] for e in of_type(events, "game_over")] == [[0]]
    assert game().to_act(state) == []
    assert game().legal_actions(state, 0) == []
    with pytest.raises(engine.GameOverError):
        play(state, 0, {"type": "end_turn"})


def test_hand_limit_at_the_end_of_the_turn_discards_of_the_players_choice():
    """S1/S2 "Important": at the end of his turn a player may hold at most 5
    cards and discards the excess of his choice; the next turn (and its
    roll) starts only then."""
    d = position(2)
    set_hand(d, 0, tobacco=2, spice=2, stone=3)
    force_dice(d, 4)
    state, events = play(load(d), 0, {"type": "end_turn"})
    assert dump(state)["phase"] == "discard"
    assert game().to_act(state) == [0]
    assert not rolls(events)
    options = {a["commodity"] for a in legal_of_type(state, 0, "discard")}
    assert options == {"tobacco", "spice", "stone"}
    assert {a["type"] for a in game().legal_actions(state, 0)} == {"discard"}
    state, _ = play(state, 0, {"type": "discard", "commodity": "stone"})
    assert dump(state)["phase"] == "discard"
    state, events = play(state, 0, {"type": "discard", "commodity": "stone"})
    after = dump(state)
    # the kept cards, plus island A's cloth from the new turn's roll of 4
    assert after["players"][0]["hand"] == {
        "stone": 1,
        "wood": 0,
        "tool": 0,
        "cloth": 1,
        "spice": 2,
        "tobacco": 2,
    }
    assert after["active"] == 1
    assert rolls(events) == [("production", 4)]
    assert after["stacks"]["stone"] == 14
