"""Action JSON -> its position in a fixed list of actions, compiled with the rules.

A learner's environment numbers every action a game can ever offer
(``tabula_env.codec``) and, at every step, looks up the position of each
legal action: dozens a step, about a fifth of an environment step in plain
Python once the rules ran compiled (issue 45). This module does that lookup
and is compiled by ``engine.native`` like the rules, so the lookup runs as
C: the environment hands over the list of actions and the parameter names
of each type, and gets back ``index``/``indices``.

    >>> from engine.action_index import ActionIndex
    >>> actions = [{"type": "pass"}, {"type": "settle", "at": [0, 1]}, {"type": "settle", "at": [2, 0]}]
    >>> index = ActionIndex(actions, {"pass": (), "settle": ("at",)}, {"settle": ("at",)})
    >>> index.indices([{"type": "settle", "at": [2, 0]}, {"type": "pass"}])
    [2, 0]

An action's key is its values in the order of its type's parameter names
(its squares, ``[row, col]``, as numbers): a left-out optional parameter
and one sent as ``null`` are the same action. Anything outside the list
raises ``KeyError`` (or ``TypeError``/``ValueError`` for a malformed value).
"""

from collections.abc import Mapping, Sequence
from typing import Any, Final

Action = dict[str, Any]
# Rows and columns of a square are below this: a square is one int up to SQUARE_SIDE ** 2.
SQUARE_SIDE: Final = 255
# A type's squares are the digits of one int in this base: a prime above every
# square's int, not a power of two, so that the low bits (where a dict looks
# first) depend on every square, not on the last one only (often left out).
SQUARES_BASE: Final = 65599


class Lookup:
    """One action type's actions -> their positions; the key of its actions.

    The positions are typed ``Any``, not ``int``: compiled, an ``int`` would be
    unboxed from the table and boxed again, a new int object for each action
    (the positions are above the few hundred small ints Python shares)."""

    def __init__(self) -> None:
        self.table: dict[Any, Any] = {}

    def key(self, action: Action) -> Any:
        raise NotImplementedError

    def index(self, action: Action) -> Any:
        return self.table[self.key(action)]


class Only(Lookup):
    """A type without parameters: one action."""

    def key(self, action: Action) -> Any:
        return None

    def index(self, action: Action) -> Any:
        return self.table[None]


class ByValue(Lookup):
    """A type with one plain parameter: the value is the key."""

    def __init__(self, name: str) -> None:
        super().__init__()
        self.name = name

    def key(self, action: Action) -> Any:
        return action.get(self.name)

    def index(self, action: Action) -> Any:
        return self.table[action.get(self.name)]


class Pair(Lookup):
    """A type with two plain parameters (a card and an open card)."""

    def __init__(self, first: str, second: str) -> None:
        super().__init__()
        self.first = first
        self.second = second

    def key(self, action: Action) -> Any:
        return (action.get(self.first), action.get(self.second))

    def index(self, action: Action) -> Any:
        return self.table[(action.get(self.first), action.get(self.second))]


class Flat(Lookup):
    """Any other type: its plain values in order, then one int for all its
    squares (each ``1 + row * SQUARE_SIDE + col``, 0 when left out: an int key
    hashes and compares faster than the squares' numbers in a longer tuple)."""

    def __init__(self, plain: Sequence[str], squares: Sequence[str]) -> None:
        super().__init__()
        self.plain = list(plain)
        self.squares = list(squares)

    def key(self, action: Action) -> Any:
        code = 0
        for name in self.squares:
            # Written out, not a function: a call per square costs as much again in plain Python.
            square = action.get(name)
            code *= SQUARES_BASE
            if square is not None:
                row: int
                col: int
                row, col = square  # ValueError unless two values
                if not (0 <= row < SQUARE_SIDE and 0 <= col < SQUARE_SIDE):
                    raise KeyError(square)
                code += 1 + row * SQUARE_SIDE + col
        plain = self.plain
        # A tuple of a fixed size for the common counts: no list to build.
        if len(plain) == 0:
            return code
        if len(plain) == 1:
            return (action.get(plain[0]), code)
        if len(plain) == 2:
            return (action.get(plain[0]), action.get(plain[1]), code)
        if len(plain) == 3:
            return (action.get(plain[0]), action.get(plain[1]), action.get(plain[2]), code)
        if len(plain) == 4:
            first, second, third, fourth = plain
            return (action.get(first), action.get(second), action.get(third), action.get(fourth), code)
        values = [action.get(name) for name in plain]
        values.append(code)
        return tuple(values)


def lookup_for(names: Sequence[str], squares: Sequence[str]) -> Lookup:
    """The lookup of a type with parameters ``names``, of which ``squares`` are squares."""
    if not names:
        return Only()
    if not squares and len(names) == 1:
        return ByValue(names[0])
    if not squares and len(names) == 2:
        return Pair(names[0], names[1])
    return Flat([name for name in names if name not in squares], [name for name in names if name in squares])


class ActionIndex:
    """``actions`` (each type's parameters named in ``names``, its square ones
    in ``squares``) -> their positions: ``index`` and ``indices``."""

    def __init__(
        self,
        actions: Sequence[Action],
        names: Mapping[str, Sequence[str]],
        squares: Mapping[str, Sequence[str]],
    ) -> None:
        self.lookups: dict[str, Lookup] = {
            kind: lookup_for(list(params), list(squares.get(kind, ()))) for kind, params in names.items()
        }
        for position, action in enumerate(actions):
            lookup = self.lookups[action["type"]]
            key = lookup.key(action)
            if key in lookup.table:
                raise ValueError(f"action listed twice: {action}")
            lookup.table[key] = position

    def index(self, action: Action) -> int:
        """The position of ``action``; ``KeyError`` when it is not in the list."""
        return self.lookups[action["type"]].index(action)

    def indices(self, actions: list[Action]) -> list[int]:
        """The positions of ``actions``, in order (the legal actions of a step)."""
        out: list[Any] = []  # Any: the table's int objects as they are (see Lookup)
        kind: Any = None
        lookup: Lookup = Only()  # never used: replaced at the first action
        for action in actions:
            # A step's actions come in runs of one type: the same lookup, without the
            # dict, while the type is the same string object (it is the rules' constant).
            if action["type"] is not kind:
                kind = action["type"]
                lookup = self.lookups[kind]
            out.append(lookup.index(action))
        return out
