"""Set-up: options resolved by the game, and its chance shown as events.

Every game's ``setup_with_events`` gives the state ``setup`` gives and the
events of the set-up: what the dice, the lots and the deal decided that a
player may learn, with a seat's secrets in its private part only. The
service stores these events as the start of a match's log (issue 32: they
used to be dropped). ``resolve_options`` fills in defaults for the player
count, so a stored match's options set up the same match again.
"""

import pytest

import engine

from .support import support_for
from .support.checks import events_shape

SEEDS = (0, 1, 7)


def _cases():
    return [
        pytest.param(game_id, n, id=f"{game_id}-{n}p")
        for game_id in engine.list_games()
        for n in range(engine.get_game(game_id).min_players, engine.get_game(game_id).max_players + 1)
    ]


@pytest.mark.parametrize(("game_id", "num_players"), _cases())
def test_setup_events_are_well_formed_and_keep_secrets(game_id, num_players):
    game, support = engine.get_game(game_id), support_for(game_id)
    for seed in SEEDS:
        where = f"{game_id} {num_players}p seed {seed} set-up"
        state, events = game.setup_with_events(num_players, {}, seed)
        assert game.dump(state) == game.dump(game.setup(num_players, {}, seed)), where
        events_shape(events, num_players, where)
        leaks = [leak for event in events for leak in support.event_leaks(event)]
        assert not leaks, f"{where}: {leaks}"


@pytest.mark.parametrize(("game_id", "num_players"), _cases())
def test_resolved_options_are_the_options_played(game_id, num_players):
    game = engine.get_game(game_id)
    resolved = game.resolve_options(num_players, {})
    assert set(resolved) == set(game.options)
    state = game.setup(num_players, {}, 3)
    assert game.dump(state)["options"] == resolved
    again = game.setup(num_players, resolved, 3)
    assert game.dump(again) == game.dump(state)


def test_anno1452_two_players_default_to_ottokar_a():
    """game-content §3 ruling 13: the 2-player game is the Ottokar scenario;
    the catalogue says "left out with 2 players, ottokar_a"."""
    game = engine.get_game("anno1452")
    assert game.resolve_options(2, {})["scenario"] == "ottokar_a"
    assert game.resolve_options(3, {})["scenario"] == "standard"
    with pytest.raises(engine.InvalidOptionsError):
        game.resolve_options(4, {"scenario": "ottokar_b"})
    with pytest.raises(engine.InvalidOptionsError):
        game.resolve_options(5, {})


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_anno1452_setup_shows_the_turn_order_and_each_hand_to_its_seat(num_players):
    """Set-up (DESIGN.md "Flow"): the turn order is drawn by lot (public) and
    each player is dealt five cards (his own secret)."""
    game = engine.get_game("anno1452")
    state, events = game.setup_with_events(num_players, {}, 11)
    data = game.dump(state)
    orders = [e["data"]["order"] for e in events if e["type"] == "turn_order"]
    assert orders[:1] == [data["order"]]
    dealt = {}
    for e in events:
        if e["type"] == "cards_drawn":
            assert set(e["private"]) == {str(e["seat"])}
            dealt.setdefault(e["seat"], []).extend(e["private"][str(e["seat"])]["cards"])
    assert {seat: sorted(cards) for seat, cards in dealt.items()} == {
        seat: sorted(p["hand"]) for seat, p in enumerate(data["players"])
    }


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_anno1503_setup_shows_the_start_rolls_and_the_first_roll(num_players):
    """S1: everyone rolls, the highest starts (ties roll again among the
    tied); then the start player's first production roll."""
    game = engine.get_game("anno1503")
    for seed in range(12):
        state, events = game.setup_with_events(num_players, {}, seed)
        rolls = [e for e in events if e["type"] == "die_rolled" and e["data"]["purpose"] == "start_player"]
        contenders = list(range(num_players))
        while len(contenders) > 1:  # replay the rounds from the events alone
            this_round, rolls = rolls[: len(contenders)], rolls[len(contenders) :]
            assert [e["seat"] for e in this_round] == contenders
            best = max(e["data"]["value"] for e in this_round)
            contenders = [e["seat"] for e in this_round if e["data"]["value"] == best]
        assert rolls == [] and contenders == [game.dump(state)["start_player"]]
        assert any(e["type"] == "die_rolled" and e["data"]["purpose"] == "production" for e in events)
