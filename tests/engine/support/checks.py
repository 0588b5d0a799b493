"""Generic checks of the engine API, valid for every registered game.

Each function raises ``AssertionError`` with a message that names the step
and the offending value, so a failing random match says what broke where.
Game-specific knowledge (what is conserved, what is hidden) is not here: it
comes from the per-game modules of this package.
"""

import json

import orjson

import engine

from .domains import action_problem

EVENT_KEYS = {"type", "seat", "data", "private"}


def strict_json(value, what):
    """``value`` re-read from its JSON text; fails unless it is pure JSON.

    orjson (fast enough for every step) refuses non-string keys; reading the
    text back and comparing catches tuples and NaN, which it would change.
    """
    try:
        back = orjson.loads(orjson.dumps(value))
    except (TypeError, orjson.JSONEncodeError) as exc:
        raise AssertionError(f"{what} is not JSON-serializable: {exc}") from None
    assert back == value, f"{what} changes through JSON (tuples, NaN?): {first_diff(value, back)}"
    return back


def stdlib_json(value, what):
    """``json.dumps`` (what most clients use) accepts ``value`` too."""
    try:
        json.dumps(value, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise AssertionError(f"json.dumps fails on {what}: {exc}") from None


def canonical(action):
    """One canonical encoding (bytes) per action, for sets and comparisons."""
    return orjson.dumps(action, option=orjson.OPT_SORT_KEYS)


def round_trip(game, state, where):
    """``(dump, loaded_state)``; asserts dump -> JSON -> load -> dump is the identity."""
    dumped = game.dump(state)
    data = strict_json(dumped, f"dump at {where}")
    loaded = game.load(data)
    again = game.dump(loaded)
    assert again == dumped, f"load(dump(s)) differs from s at {where}: {first_diff(dumped, again)}"
    return dumped, loaded


def turn_consistency(game, state, num_players, where):
    """Check to_act/outcome/listing agree; return ``(to_act, legal)``.

    ``legal`` is the listing of the first seat to act (None when over).
    ``to_act`` empty <=> outcome known <=> that seat has nothing to do.
    Runs at every step, so the other seats are left to ``others_get_nothing``.
    """
    to_act = game.to_act(state)
    outcome = game.outcome(state)
    assert type(to_act) is list, f"to_act is not a list at {where}: {to_act!r}"
    assert (not to_act) == (outcome is not None), f"to_act={to_act} but outcome={outcome} at {where}"
    if not to_act:
        return to_act, None
    assert len(set(to_act)) == len(to_act), f"duplicate seats in to_act at {where}: {to_act}"
    assert all(type(s) is int and 0 <= s < num_players for s in to_act), f"bad seats {to_act} at {where}"
    legal = game.legal_actions(state, to_act[0])
    assert legal, f"seat {to_act[0]} must decide at {where} but has no legal action"
    return to_act, legal


def others_get_nothing(game, state, num_players, where):
    """Seats outside ``to_act`` (and non-seats) are offered nothing; every seat in it is."""
    to_act = game.to_act(state)
    for seat in [*range(num_players), -1, num_players]:
        legal = game.legal_actions(state, seat)
        if seat in to_act:
            assert legal, f"seat {seat} must decide at {where} but has no legal action"
        else:
            assert legal == [], f"seat {seat} is not in to_act={to_act} at {where} but got {legal[:3]}"


def listing(game, state, seat, legal, described, where):
    """Legal actions: JSON dicts with a described type, no duplicates."""
    keys = []
    for action in legal:
        strict_json(action, f"legal action {action!r} at {where}")
        problem = action_problem(action, described)
        assert problem is None, f"listed action does not fit describe_actions at {where}: {problem}"
        keys.append(canonical(action))
    if len(set(keys)) != len(keys):
        dupes = sorted({k for k in keys if keys.count(k) > 1})
        raise AssertionError(f"duplicate legal actions at {where}: {dupes}")


def listing_is_stable(game, state, loaded, seat, legal, where):
    """The same state (and its reloaded copy) lists the same actions in the same order."""
    assert game.legal_actions(state, seat) == legal, f"legal_actions order changed between calls at {where}"
    assert game.legal_actions(loaded, seat) == legal, f"reloaded state lists other actions at {where}"
    for action in legal:
        assert game.is_legal(state, seat, action), f"is_legal rejects listed {action!r} at {where}"


def events_shape(events, num_players, where):
    """Events are ``{type, seat, data, private?}``; private parts redact correctly.

    ``redact_event`` is exercised on every event carrying ``private``; for
    the others it has nothing to drop, which ``redaction`` also checks when
    called on them (at probed steps).
    """
    assert type(events) is list, f"events are not a list at {where}"
    # A move that leaves no event is invisible to a client following the
    # stream: it would wait forever for its turn (seen with keep_hand).
    assert events, f"an accepted move left no event at {where}"
    strict_json(events, f"events at {where}")
    for event in events:
        assert (
            type(event) is dict and event.keys() <= EVENT_KEYS and {"type", "seat", "data"} <= event.keys()
        ), f"event {event!r} at {where}"
        assert type(event["type"]) is str and event["type"], f"event type {event!r} at {where}"
        seat = event["seat"]
        assert seat is None or (type(seat) is int and 0 <= seat < num_players), (
            f"event seat {event!r} at {where}"
        )
        assert type(event["data"]) is dict, f"event data {event!r} at {where}"
        if "private" in event:
            redaction(event, num_players, where)


def redaction(event, num_players, where):
    """``redact_event`` merges ``private`` for its seats only, drops it for others."""
    private = event.get("private") or {}
    assert type(private) is dict, f"private is not a dict in {event!r} at {where}"
    for key in private:
        assert key in {str(s) for s in range(num_players)}, f"private key {key!r} is not a seat at {where}"
    for viewer in [None, *range(num_players)]:
        shown = engine.redact_event(event, viewer)
        assert "private" not in shown, f"redact_event kept 'private' for viewer {viewer} at {where}"
        extra = private.get(str(viewer)) if viewer is not None else None
        expected = {**event["data"], **extra} if extra else event["data"]
        assert shown["data"] == expected, f"viewer {viewer} sees {shown['data']} at {where}"
        assert shown["type"] == event["type"] and shown["seat"] == event["seat"]


def first_diff(a, b, path="$"):
    """Path of the first difference between two JSON values (for messages)."""
    if type(a) is not type(b):
        return f"{path}: {a!r} != {b!r}"
    if isinstance(a, dict):
        for key in sorted(set(a) | set(b), key=str):
            if key not in a or key not in b:
                return f"{path}.{key}: missing on one side"
            if a[key] != b[key]:
                return first_diff(a[key], b[key], f"{path}.{key}")
    if isinstance(a, list):
        if len(a) != len(b):
            return f"{path}: lengths {len(a)} != {len(b)}"
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                return first_diff(x, y, f"{path}[{i}]")
    return f"{path}: {a!r} != {b!r}"
