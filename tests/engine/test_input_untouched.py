"""Copy-on-write holds: no public call changes the state it is given.

service/runtime/state_cache.py hands one state object to every request thread that
reads the match, and ``apply`` builds its result from a clone that shares
untouched parts with its input. So every reachable part of a state must stay
as it was through ``legal_actions``, ``view`` (every viewer), ``outcome``,
``to_act`` and ``apply``. Checked at every step of one seeded match per
variant and player count (the golden playthroughs' cases), by pickling the
whole object graph, shared parts included, before and after."""

import pickle

import pytest

import engine
from engine.rng import mix_seed
from tests.engine.golden.playthrough import cases

CASES = cases()


def _touched(state, snapshot, call, where):
    assert pickle.dumps(state) == snapshot, f"{call} changed its input state at {where}"


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_no_call_changes_its_input(case):
    game = engine.get_game(case.game_id)
    player = case.variant.player()
    state = game.setup(case.num_players, dict(case.variant.options), case.seed)
    viewers = [None, *range(case.num_players)]
    for step in range(20_000):
        where = f"{case.name} step {step}"
        snapshot = pickle.dumps(state)
        if game.outcome(state) is not None:
            break
        seat = game.to_act(state)[0]
        legal = game.legal_actions(state, seat)
        _touched(state, snapshot, "legal_actions", where)
        if step % 10 == 0:  # views cost more than the rest together
            for viewer in viewers:
                game.view(state, viewer)
            _touched(state, snapshot, "view", where)
        action = player.choose(game, seat, None, legal, seed=mix_seed(case.seed, step))
        new_state, _ = game.apply(state, seat, action)
        _touched(state, snapshot, f"apply {action}", where)
        state = new_state
    assert game.outcome(state) is not None, f"{case.name}: no outcome"


def test_the_check_sees_a_change_in_a_shared_part():
    """A clone shares parts with its origin: a change made through the clone
    to a shared part shows in the origin's pickle, so the check above would
    catch an ``apply`` that did that."""
    game = engine.get_game("anno1503")
    state = game.setup(2, {}, 1)
    snapshot = pickle.dumps(state)
    clone = game.clone(state)
    shared = next(
        value
        for name in type(state).__slots__
        if isinstance(value := getattr(clone, name), list) and value is getattr(state, name)
    )
    shared.append("changed")
    with pytest.raises(AssertionError, match="changed its input"):
        _touched(state, snapshot, "a test", "here")
