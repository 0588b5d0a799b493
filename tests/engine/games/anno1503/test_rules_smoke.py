"""Quick smoke tests written with the engine: geometry, setup, replay.

The full scenario and invariant suites live beside this file and in
tests/engine; these only pin down what the implementation derives itself.
"""

import json

import pytest

import engine
from engine.games.anno1503 import data
from engine.games.anno1503.turn import farthest_free_spaces
from engine.runner import play_match, replay

# game-content §1.4: "AP from start" to discover each island space.
AP_TABLE = {
    (0, 0): 2,
    (3, 1): 2,
    (4, 0): 2,
    (1, 2): 3,
    (3, 2): 3,
    (1, 3): 4,
    (0, 3): 5,
    (2, 5): 5,
    (3, 4): 5,
    (0, 4): 6,
    (4, 4): 6,
    (4, 1): 7,
    (2, 6): 8,
    (0, 6): 8,
    (0, 7): 9,
    (2, 8): 10,
    (1, 9): 10,
    (4, 7): 11,
    (3, 5): 12,
    (4, 8): 12,
    (0, 10): 12,
    (3, 10): 13,
    (4, 10): 14,
    (1, 10): 15,
    (0, 11): 17,
    (4, 11): 17,
}


def game():
    return engine.get_game("anno1503")


def test_discovery_distances_computed_by_bfs_match_the_printed_table():
    computed = {sq: data.DISCOVER_AP[i] for i, sq in enumerate(data.SPACES)}
    assert computed == AP_TABLE


def test_farthest_free_space_breaks_ties_by_manhattan_distance():
    # (0,11) and (4,11) both need 17 AP and are both 11+2 = 13 from the start,
    # so with every space free they stay tied and the active player chooses.
    state = game().setup(2, {}, seed=3)
    state.spaces = [None] * len(data.SPACES)
    tied = {data.SPACES[i] for i in farthest_free_spaces(state)}
    assert tied == {(0, 11), (4, 11)}
    state.spaces[data.SPACE_INDEX[(0, 11)]] = 0
    assert [data.SPACES[i] for i in farthest_free_spaces(state)] == [(4, 11)]


@pytest.mark.parametrize(
    "players,on_board,reserve,buildings", [(2, 12, 4, 7), (3, 19, 5, 10), (4, 26, 6, 14)]
)
def test_setup_by_player_count(players, on_board, reserve, buildings):
    d = game().dump(game().setup(players, {}, seed=11))
    assert sum(t is not None for t in d["spaces"].values()) == on_board
    assert len(d["reserve"]) == reserve
    assert sum(d["buildings"].values()) == buildings
    for p in d["players"]:
        assert p["gold"] == 7
        assert p["slots"][:2] == ["pioneer", "settler"]
        assert [s["at"] for s in p["ships"]] == [[2, 0], None]


def test_expansion_is_accepted_and_unknown_ones_refused():
    state = game().setup(2, {"expansion": "pirates_aristocrats"}, seed=1)
    assert game().dump(state)["options"] == {"expansion": "pirates_aristocrats"}
    with pytest.raises(engine.InvalidOptionsError):
        game().setup(2, {"expansion": "seafarers"}, seed=1)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_match_ends_and_replays_identically(players):
    g = game()
    record = play_match(g, [engine.ai.get_player("random")] * players, seed=7)
    assert record.outcome is not None
    winner = record.outcome["winners"][0]
    assert record.outcome["scores"][str(winner)] >= 3
    state, _ = replay(g, players, {}, 7, record.actions)
    assert g.dump(state) == g.dump(record.final_state)
    assert g.load(json.loads(json.dumps(g.dump(state)))) == state
