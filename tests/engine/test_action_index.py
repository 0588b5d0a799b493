"""engine.action_index: every action of a list finds its own position, and
nothing else finds one (it runs compiled under ``make``, plain otherwise:
the suite runs on both)."""

import pytest

from engine.action_index import ActionIndex, Digits
from tabula_env.codec import codec_for

NAMES = {
    "pass": (),
    "build": ("region",),
    "swap": ("card", "open_card"),
    "settle": ("at", "at2", "at3"),
    "draft": ("side", "item", "amount", "card", "estate"),
    "many": ("a", "b", "c", "d", "e", "at"),
}
SQUARES = {"settle": ("at", "at2", "at3"), "draft": ("estate",), "many": ("at",)}
ACTIONS = [
    {"type": "pass"},
    {"type": "build", "region": "Tirol"},
    {"type": "build", "region": "Bayern"},
    {"type": "swap", "card": 3, "open_card": 0},
    {"type": "swap", "card": 0, "open_card": 3},
    {"type": "settle", "at": [0, 1]},
    {"type": "settle", "at": [1, 0]},
    {"type": "settle", "at": [0, 1], "at2": [1, 0]},
    {"type": "settle", "at": [1, 0], "at2": [0, 1]},
    {"type": "settle", "at": [0, 1], "at2": [0, 1], "at3": [14, 4]},
    {"type": "draft", "side": "give", "item": "gold", "amount": 2},
    {"type": "draft", "side": "give", "item": "estate", "estate": [2, 0]},
    {"type": "many", "a": 1, "b": 2, "c": 3, "d": 4, "e": 5, "at": [0, 0]},
    {"type": "many", "a": 1, "b": 2, "c": 3, "d": 4, "e": 5},
]
INDEX = ActionIndex(ACTIONS, NAMES, SQUARES)


def test_each_action_finds_its_own_position():
    assert INDEX.indices(ACTIONS) == list(range(len(ACTIONS)))
    assert [INDEX.index(action) for action in reversed(ACTIONS)] == list(reversed(range(len(ACTIONS))))


def test_left_out_and_null_are_the_same_and_a_square_may_be_a_tuple():
    assert INDEX.index({"type": "settle", "at": (1, 0), "at2": None, "at3": None}) == 6
    assert INDEX.index({"type": "draft", "side": "give", "item": "gold", "amount": 2, "card": None}) == 10


@pytest.mark.parametrize(
    "action",
    [
        {"type": "no_such_type"},
        {"type": None},
        {"region": "Tirol"},
        {"type": "build", "region": "Mars"},
        {"type": "swap", "card": 3, "open_card": 3},
        {"type": "settle", "at": [1, 1]},
        {"type": "settle", "at2": [0, 1]},  # the squares keep their places
        {"type": "settle", "at": [0, 1, 0]},
        {"type": "settle", "at": [0]},
        {"type": "settle", "at": [-1, 1]},
        {"type": "settle", "at": [0, 255]},
        {"type": "settle", "at": "ab"},
        {"type": "settle", "at": 5},
        {"type": "build", "region": ["Tirol"]},
        {"type": "many", "a": 1, "b": 2, "c": 3, "d": 4, "e": 6},
    ],
)
def test_anything_else_finds_no_position(action):
    with pytest.raises((KeyError, TypeError, ValueError)):
        INDEX.index(action)
    with pytest.raises((KeyError, TypeError, ValueError)):
        INDEX.indices([ACTIONS[0], action])
    with pytest.raises((KeyError, TypeError, ValueError)):
        INDEX.indices([action, ACTIONS[0]])


def test_every_square_of_the_largest_board_has_its_own_key():
    squares = [[row, col] for row in range(255) for col in range(255)]
    actions = [{"type": "go", "to": square} for square in squares] + [{"type": "go"}]
    index = ActionIndex(actions, {"go": ("to",)}, {"go": ("to",)})  # a key twice: ValueError
    assert index.indices(actions) == list(range(len(actions)))


def test_every_action_of_the_largest_space_finds_its_own_position():
    # Anno 1452's space keeps its positions in each of a type's three places:
    # small tables as lists of the position ints, dense ones as bytes, sparse ones in a dict.
    codec = codec_for("anno1452-expert-standard-4p")
    index = codec._lookup
    assert index.indices(list(codec.actions)) == list(range(codec.size))
    digits = [lookup for lookup in index.lookups.values() if isinstance(lookup, Digits)]
    assert {(lookup.listed, lookup.dense) for lookup in digits} == {
        (True, True),
        (False, True),
        (False, False),
    }
    assert not index.lookups["draft_add"].dense  # 328 actions over 1.3 million slots


def test_an_action_listed_twice_is_refused():
    with pytest.raises(ValueError, match="listed twice"):
        ActionIndex([*ACTIONS, {"type": "settle", "at": (0, 1), "at2": None}], NAMES, SQUARES)


def test_the_codec_names_legal_actions_outside_its_space():
    codec = codec_for("anno1503-base-2p")
    legal = [{"type": "end_turn"}, {"type": "sell", "commodity": "gold"}]
    with pytest.raises(ValueError, match=r"legal actions outside.*gold"):
        codec.indices(legal)
