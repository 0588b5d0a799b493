"""Action schemas built from the engine's parameter domains."""

import random

import engine
from engine.params import IntRange, OneOf, Optional, Square
from service.action_schemas import _schema_for, validate_action


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
