"""Action schemas built from the engine's parameter domains."""

import random

import engine
from engine.params import IntRange, OneOf, Optional, Square
from service.spec.actions import _schema_for, validate_action


def test_every_legal_action_of_a_playout_passes_its_schema():
    game = engine.get_game("anno1503")
    state = game.setup(3, {}, 11)
    rng = random.Random(11)
    seen_types = set()
    for _ in range(400):
        if game.outcome(state) is not None:
            break
        seat = game.to_act(state)[0]
        actions = game.legal_actions(state, seat)
        for action in actions:
            assert validate_action(game, action) == {}, action
            seen_types.add(action["type"])
        state, _ = game.apply(state, seat, rng.choice(actions))
    assert len(seen_types) >= 5


def test_fields_follow_the_domains():
    params = {
        "colour": OneOf(["red", "blue"]),
        "count": IntRange(1, 3),
        "at": Square(5, 12),
        "note": Optional(IntRange(0, 9)),
    }
    described = {"description": "test", "params": {k: d.describe() for k, d in params.items()}}
    schema = _schema_for("toy", "paint", described)()
    good = {"type": "paint", "colour": "red", "count": 2, "at": [4, 11]}
    assert schema.validate(good) == {}
    assert schema.validate({**good, "note": None}) == {}
    assert schema.validate({**good, "note": 9}) == {}
    for bad in (
        {**good, "colour": "green"},
        {**good, "count": 4},
        {**good, "count": True},
        {**good, "at": [5, 0]},
        {**good, "at": [0, 12]},
        {**good, "at": [1]},
        {**good, "extra": 1},
        {k: v for k, v in good.items() if k != "count"},
        {**good, "type": "other"},
    ):
        assert schema.validate(bad), bad


# --- the quick accept in front of the schemas -------------------------------------


def _mutations(action, rng):
    """Variants of a well-formed action: wrong types, out of range, missing or extra keys."""
    odd_values = [
        None,
        True,
        False,
        -1,
        10**6,
        1.0,
        "",
        "x",
        [],
        [0],
        [0, 0, 0],
        [-1, 0],
        [0, 99],
        [True, 0],
        ["0", 0],
        {},
        2**70,
    ]
    out = [dict(action, extra=1), {k: v for k, v in action.items() if k != "type"}]
    for key in action:
        out.append({k: v for k, v in action.items() if k != key})
        for value in rng.sample(odd_values, 6):
            out.append(dict(action, **{key: value}))
    return out


def test_the_quick_accept_never_accepts_what_the_schema_refuses():
    from service.spec.actions import _plain_checks_by_game, _validators_by_game

    rng = random.Random(5)
    for game_id in engine.list_games():
        game = engine.get_game(game_id)
        checks, schemas = _plain_checks_by_game(game_id), _validators_by_game(game_id)
        state = game.setup(game.max_players, {}, 3)
        accepted = refused = 0
        for _ in range(150):
            if game.outcome(state) is not None:
                break
            seat = game.to_act(state)[0]
            actions = game.legal_actions(state, seat)
            for action in rng.sample(actions, min(4, len(actions))):
                # Every legal action takes the quick way...
                assert checks[action["type"]](action), action
                for variant in _mutations(action, rng):
                    kind = variant.get("type")
                    check = checks.get(kind) if isinstance(kind, str) else None
                    if check is not None and check(variant):
                        # ...and whatever it accepts, the schema accepts as well.
                        assert schemas[variant["type"]].validate(variant) == {}, variant
                        accepted += 1
                    else:
                        refused += 1
            state, _ = game.apply(state, seat, rng.choice(actions))
        assert accepted and refused


def test_a_refused_action_gets_the_schemas_messages():
    game = engine.get_game("anno1503")
    state = game.setup(3, {}, 11)
    action = game.legal_actions(state, game.to_act(state)[0])[0]
    problems = validate_action(game, {**action, "surplus": 1})
    assert problems == {"surplus": ["Unknown field."]}
