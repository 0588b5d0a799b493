"""``State.clone`` (``clone_data``: fixed-shape parts by hand, the rest by
marshal) is a deep copy on every state of seeded matches of every variant.

The hand-written part is fast but must follow the dump format: a list or
dict added to an Estate, a region, a player or a queued step would be shared
between a state and its clone, and a later ``apply`` would change both. Here
every clone must equal its state and share no list or dict with it, and
changing the clone everywhere must leave the state as it was.
"""

import copy

import pytest

from engine.ai import RandomPlayer
from engine.games.anno1452.state import clone_data
from engine.rng import mix_seed
from tests.engine.support import anno1452 as support

from .anno1452_helpers import GAME

CASES = [
    (variant.label, count, variant.options)
    for variant in support.MATCH_VARIANTS
    for count in variant.player_counts
]


def _containers(value, out):
    """ids of every list and dict in ``value``."""
    if type(value) is dict:
        out.add(id(value))
        for item in value.values():
            _containers(item, out)
    elif type(value) is list:
        out.add(id(value))
        for item in value:
            _containers(item, out)
    return out


def _scribble(value):
    """Change every list and dict in ``value`` in place."""
    if type(value) is dict:
        for item in list(value.values()):
            _scribble(item)
        value["scribbled"] = True
    elif type(value) is list:
        for item in value:
            _scribble(item)
        value.append("scribbled")


@pytest.mark.parametrize(("name", "count", "options"), CASES, ids=[f"{n}-{c}" for n, c, _ in CASES])
def test_clone_is_a_deep_copy_on_every_state(name, count, options):
    player, state, step = RandomPlayer(), GAME.setup(count, options, 5), 0
    while GAME.outcome(state) is None:
        data = state.data
        clone = clone_data(data)
        assert clone == data
        assert not _containers(clone, set()) & _containers(data, set()), (name, step)
        if step % 50 == 0:
            before = copy.deepcopy(data)
            _scribble(clone)
            assert data == before
        seat = GAME.to_act(state)[0]
        action = player.choose(GAME, seat, None, GAME.legal_actions(state, seat), seed=mix_seed(5, step))
        state, _ = GAME.apply(state, seat, action)
        step += 1
