"""Costly probes run at sampled states: apply everything, try bad actions.

Both leave the probed state untouched, which is checked by comparing its
dump before and after (``apply`` must never mutate its input).
"""

import engine

from .checks import canonical, events_shape, first_diff, strict_json
from .domains import iter_well_formed, malformed_actions, random_well_formed

# How many unlisted but well-formed actions to try per action type, and how
# many random draws to find them in (a draw may hit a listed action).
UNLISTED_PER_TYPE = 3
UNLISTED_DRAWS = 12


def every_listed_applies(game, state, seat, legal, num_players, on_result, where):
    """Apply each listed action; ``on_result(dump, where)`` checks each result."""
    before = game.dump(state)
    for action in legal:
        at = f"{where}, applying listed {action!r}"
        try:
            new_state, events = game.apply(state, seat, action)
        except engine.EngineError as exc:
            raise AssertionError(f"listed action refused at {at}: {exc!r} {exc.details}") from None
        events_shape(events, num_players, at)
        on_result(strict_json(game.dump(new_state), f"dump after {at}"), at)
    _unchanged(game, state, before, f"{where} (after applying every listed action)")


def refusals(game, state, seat, legal, num_players, rng, where):
    """Refuse other seats, malformed and unlisted actions; return how many were tried."""
    before = game.dump(state)
    described = game.describe_actions()
    tried = _other_seats(game, state, seat, legal, num_players, where)
    tried += _malformed(game, state, seat, legal, described, where)
    tried += _unlisted(game, state, seat, legal, described, rng, where)
    _unchanged(game, state, before, f"{where} (after {tried} refused actions)")
    return tried


def game_over_refusals(game, state, num_players, described, where):
    """At the end every seat gets ``GameOverError``, whatever it sends."""
    before = game.dump(state)
    for seat in range(num_players):
        for kind in described:
            action = next(iter_well_formed(described, kind), {"type": kind})
            _expect(game, state, seat, action, (engine.GameOverError,), where)
    _unchanged(game, state, before, f"{where} (game over)")


def _other_seats(game, state, seat, legal, num_players, where):
    others = [s for s in range(num_players) if s not in game.to_act(state)]
    for other in others:
        for action in legal[:3]:
            _expect(game, state, other, action, (engine.NotYourTurnError,), where)
    return len(others) * len(legal[:3])


def _malformed(game, state, seat, legal, described, where):
    """One malformed family per listed action type (the first of each type)."""
    tried = 0
    seen_types = set()
    for action in legal:
        if action["type"] in seen_types:
            continue
        seen_types.add(action["type"])
        for bad in malformed_actions(described, action):
            _expect(game, state, seat, bad, (engine.InvalidActionError,), where)
            tried += 1
    return tried


def _unlisted(game, state, seat, legal, described, rng, where):
    """Well-formed actions that are not listed: illegal now, or rejected as malformed.

    A game may add cross-field shape rules beyond the per-field domains
    (``InvalidActionError``); anything else, or acceptance, is a failure.
    """
    listed = {_same_action(a) for a in legal}
    tried = 0
    for kind in sorted(described):
        drawn = (random_well_formed(described, kind, rng) for _ in range(UNLISTED_DRAWS))
        pool = [a for a in drawn if _same_action(a) not in listed]
        for action in pool[:UNLISTED_PER_TYPE]:
            _expect(game, state, seat, action, (engine.IllegalActionError, engine.InvalidActionError), where)
            assert not game.is_legal(state, seat, action), f"is_legal accepts unlisted {action!r} at {where}"
            tried += 1
    return tried


def _same_action(action):
    """Canonical form where an optional parameter left out equals one sent as
    null (``engine.params.Optional``): ``{"type": "react"}`` is the listed
    ``{"type": "react", "card": None}``."""
    return canonical({k: v for k, v in action.items() if v is not None})


def _expect(game, state, seat, action, errors, where):
    try:
        game.apply(state, seat, action)
    except errors as exc:
        assert isinstance(exc, engine.EngineError) and exc.message, f"error without message for {action!r}"
        if isinstance(exc, engine.IllegalActionError):
            assert type(exc.reason) is str and exc.reason, f"illegal {action!r} without reason at {where}"
        return
    except Exception as exc:  # noqa: BLE001 - the wrong error type is the finding
        names = "/".join(e.__name__ for e in errors)
        raise AssertionError(f"seat {seat} {action!r} at {where}: expected {names}, got {exc!r}") from None
    raise AssertionError(f"seat {seat} {action!r} at {where} was accepted but is not listed")


def _unchanged(game, state, before, where):
    after = game.dump(state)
    assert after == before, f"state changed by apply at {where}: {first_diff(before, after)}"
