"""``State.clone`` (``clone_data``: fixed-shape parts by hand, the rest by
marshal, the map copy-on-write) on every state of seeded matches of every variant.

The hand-written part is fast but must follow the dump format: a list or
dict added to a player or a new part of the state would be shared between a state and
its clone, and a later ``apply`` would change both. Here every clone must
equal its state and share no list or dict with it outside the regions and
the queue (their items, the regions' slot lists and Estates, and the
queued steps are shared by design and only ever replaced), the options,
the pending decision, the evaluation round's effects, the turn order and
the lists of initial regions, Landfrieden's seats and the seats that played
in the evaluation round (shared whole, replaced, never changed:
``tests/engine/test_input_untouched.py`` checks that no ``apply`` changes
them), and changing the clone everywhere else must leave the state as it
was.
"""

import copy
import pickle

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


# Parts whose items a clone shares by design (copy-on-write: replaced, never
# changed in place); the lists themselves are copied.
SHARED_ITEMS = ("regions", "queue")
# Parts a clone shares whole: never changed in place (the options never
# change; the others are replaced when they change).
SHARED_WHOLE = ("options", "decision", "er_effects", "order", "initial_regions", "landfrieden", "er_used")
SHARED = SHARED_ITEMS + SHARED_WHOLE


def _own_parts(data):
    """ids of the lists and dicts of ``data`` a clone must not share: all but
    the items of ``SHARED_ITEMS`` and the parts ``SHARED_WHOLE``."""
    out = {id(data), *(id(data[key]) for key in SHARED_ITEMS)}
    for key, value in data.items():
        if key not in SHARED:
            _containers(value, out)
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
        assert not _own_parts(clone) & _own_parts(data), (name, step)
        if step % 50 == 0:
            before = copy.deepcopy(data)
            for key, value in list(clone.items()):
                if key in SHARED_ITEMS:
                    value.append("scribbled")
                elif key in SHARED_WHOLE:
                    clone[key] = "scribbled"
                else:
                    _scribble(value)
            clone["scribbled"] = True
            assert data == before
        seat = GAME.to_act(state)[0]
        action = player.choose(GAME, seat, None, GAME.legal_actions(state, seat), seed=mix_seed(5, step))
        shared = pickle.dumps([data[key] for key in SHARED])
        state, _ = GAME.apply(state, seat, action)
        # The shared parts (the map, the queued steps and the parts
        # shared whole) stay as they were.
        assert pickle.dumps([data[key] for key in SHARED]) == shared, (name, step, action)
        step += 1
