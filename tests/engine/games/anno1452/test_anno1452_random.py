"""What the generic random-match suite does not cover for Anno 1452.

``tests/engine/test_random_match_invariants.py`` plays 300 checked matches
across the variants (``tests/engine/support/anno1452.py``) with the seeded
weighted-random player, through its own loop. Here: the uniform random
player through ``engine.runner.play_match`` (the path benches and bots use)
finishes one match of each variant, the loaded state equals the state
itself (not only its dump) at every step, no list or dict is held twice in
it (a clone, a marshal round trip, would keep the two shared), and the
runner's record replays.
"""

import pytest

from engine.ai import RandomPlayer
from engine.runner import play_match, replay
from tests.engine.support import anno1452 as support

from .anno1452_helpers import GAME

VARIANTS = [(v.player_counts[-1], v.options) for v in support.MATCH_VARIANTS]


def _held_twice(data):
    """Paths of the lists and dicts met a second time walking ``data``."""
    seen, twice = set(), []

    def walk(value, path):
        if type(value) not in (dict, list):
            return
        if id(value) in seen:
            twice.append(path)
            return
        seen.add(id(value))
        items = value.items() if type(value) is dict else enumerate(value)
        for key, item in items:
            walk(item, (*path, key))

    walk(data, ())
    return twice


def test_held_twice_finds_a_shared_list():
    shared = [1]
    assert _held_twice({"a": shared, "b": {"c": shared}}) == [("b", "c")]
    assert _held_twice({"a": [1], "b": {"c": [1]}}) == []


@pytest.mark.parametrize("num_players,options", VARIANTS, ids=[f"{n}p-{o}" for n, o in VARIANTS])
def test_uniform_random_match_through_the_runner(num_players, options):
    def on_step(state, seat, action, new_state, events):
        assert GAME.load(GAME.dump(new_state)) == new_state
        assert _held_twice(new_state.data) == []
        problems = support.state_problems(GAME.dump(new_state))
        assert not problems, problems

    record = play_match(GAME, [RandomPlayer()] * num_players, seed=7, options=options, on_step=on_step)
    dump = GAME.dump(record.final_state)
    assert support.outcome_problems(dump, record.outcome) == []
    final, _ = replay(GAME, num_players, options, 7, record.actions)
    assert final == record.final_state
