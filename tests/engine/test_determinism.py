"""Determinism: a match is its seed plus its actions, whatever else happens.

Same seed -> identical action logs, events and final states, even when the
global ``random`` module is disturbed in between (the engine must not use
it). Different seeds -> different matches.
"""

import random

import pytest

import engine
from engine.runner import play_match

GAMES = engine.list_games()
FULL_MATCH_SEED = 7  # a seed whose matches end within a few thousand actions
PREFIX = 1500


def _cases():
    return [
        pytest.param(gid, n, id=f"{gid}-{n}p")
        for gid in GAMES
        for n in range(engine.get_game(gid).min_players, engine.get_game(gid).max_players + 1)
    ]


def _play(game, num_players, seed, max_actions=1_000_000):
    """``(actions, events, final dump, outcome)`` of a random match."""
    events = []
    players = [engine.ai.get_player("random")] * num_players
    record = play_match(
        game,
        players,
        seed,
        max_actions=max_actions,
        on_step=lambda state, seat, action, new_state, new_events: events.extend(new_events),
    )
    return record.actions, events, game.dump(record.final_state), record.outcome


@pytest.mark.parametrize(("game_id", "num_players"), _cases())
def test_same_seed_same_match(game_id, num_players):
    game = engine.get_game(game_id)
    random.seed(1)
    first = _play(game, num_players, FULL_MATCH_SEED)
    random.seed(2)  # the engine must not draw from the global generator
    random.random()
    second = _play(game, num_players, FULL_MATCH_SEED)
    assert first[3] is not None, "the match did not end"
    assert first[0] == second[0], "action logs differ"
    assert first[1] == second[1], "events differ"
    assert first[2] == second[2], "final states differ"
    assert first[3] == second[3], "outcomes differ"


@pytest.mark.parametrize(("game_id", "num_players"), _cases())
def test_same_seed_same_setup(game_id, num_players):
    game = engine.get_game(game_id)
    for seed in range(20):
        random.seed(seed)
        one = game.dump(game.setup(num_players, {}, seed))
        random.seed(seed + 1000)
        assert game.dump(game.setup(num_players, {}, seed)) == one


@pytest.mark.parametrize(("game_id", "num_players"), _cases())
def test_different_seeds_differ(game_id, num_players):
    """Setups differ beyond the stored seed and generator, and so do the matches."""
    game = engine.get_game(game_id)
    layouts = set()
    for seed in range(20):
        dump = game.dump(game.setup(num_players, {}, seed))
        layouts.add(repr({k: v for k, v in dump.items() if k not in ("seed", "rng")}))
    assert len(layouts) == 20, "some seeds give the same setup"
    one = _play(game, num_players, 1, max_actions=PREFIX)
    two = _play(game, num_players, 2, max_actions=PREFIX)
    assert one[0] != two[0] and one[1] != two[1]
