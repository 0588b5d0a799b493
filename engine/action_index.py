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
# A ``Squares`` table: bytes per position (little-endian), the empty slot's
# value (every byte set) and its most slots (6 MB).
SLOT: Final = 3
EMPTY: Final = 2 ** (8 * SLOT) - 1
MAX_SLOTS: Final = 2**21


class Lookup:
    """One action type's actions -> their positions; the key of its actions.

    The positions are typed ``Any``, not ``int``: compiled, an ``int`` would be
    unboxed from the table and boxed again, a new int object for each action
    (the positions are above the few hundred small ints Python shares)."""

    def __init__(self) -> None:
        self.table: dict[Any, Any] = {}

    def key(self, action: Action) -> Any:
        raise NotImplementedError

    def fill(self, entries: list[tuple[int, Action]]) -> None:
        """Record each ``(position, action)``; ``ValueError`` for an action listed twice."""
        for position, action in entries:
            key = self.key(action)
            if key in self.table:
                raise ValueError(f"action listed twice: {action}")
            self.table[key] = position

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
            code = code * SQUARES_BASE + square_code(action.get(name), SQUARE_SIDE, SQUARE_SIDE)
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


def square_code(square: Any, rows: int, cols: int) -> int:
    """``1 + row * cols + col`` for a square ``[row, col]`` of a ``rows`` x ``cols``
    board, 0 for None (left out); ``KeyError`` outside the board."""
    if square is None:
        return 0
    row: int
    col: int
    if isinstance(square, list) and len(square) == 2:
        # The rules' squares: two reads (unpacking a value of a type unknown
        # to the compiler iterates it, three calls; issue 45).
        row = square[0]
        col = square[1]
    else:
        row, col = square  # a tuple; ValueError unless two values
    if not (0 <= row < rows and 0 <= col < cols):
        raise KeyError(square)
    return 1 + row * cols + col


class Squares(Lookup):
    """A type whose parameters are all squares (Anno 1452's settle and attack,
    the most common legal actions): its key is one int, a digit per square
    (``square_code``), and the positions are in a table of ``SLOT``-byte
    slots at the keys. A dict over their tens of thousands of actions cost
    several cache misses a lookup (the slot, the key int it compares, the
    position int it hands out), a third of the lookups' time in an environment step."""

    def __init__(self, names: list[str], rows: int, cols: int) -> None:
        super().__init__()
        self.names = names
        self.rows = rows
        self.cols = cols
        self.base = rows * cols + 1
        self.positions = b""

    def key(self, action: Action) -> int:
        code = 0
        for name in self.names:
            code = code * self.base + square_code(action.get(name), self.rows, self.cols)
        return code

    def fill(self, entries: list[tuple[int, Action]]) -> None:
        table = bytearray(b"\xff" * (SLOT * self.base ** len(self.names)))
        for position, action in entries:
            at = SLOT * self.key(action)
            if int.from_bytes(table[at : at + SLOT], "little") != EMPTY:
                raise ValueError(f"action listed twice: {action}")
            table[at : at + SLOT] = position.to_bytes(SLOT, "little")
        self.positions = bytes(table)

    def index(self, action: Action) -> Any:
        at = SLOT * self.key(action)
        positions = self.positions
        position = positions[at] | positions[at + 1] << 8 | positions[at + 2] << 16
        if position == EMPTY:
            raise KeyError(action)
        return position


def dense(names: list[str], squares: list[str], entries: list[tuple[int, Action]]) -> Squares | None:
    """A ``Squares`` lookup for a type's ``entries`` when all its parameters are
    squares and its table stays within ``MAX_SLOTS``; None otherwise."""
    if not names or names != squares:
        return None
    rows, cols = 1, 1
    for _, action in entries:
        for name in names:
            square = action.get(name)
            if square is not None:
                rows = max(rows, square[0] + 1)
                cols = max(cols, square[1] + 1)
    if (rows * cols + 1) ** len(names) > MAX_SLOTS:
        return None
    return Squares(names, rows, cols)


def lookup_for(names: list[str], squares: list[str], entries: list[tuple[int, Action]]) -> Lookup:
    """The lookup of a type with parameters ``names``, of which ``squares`` are
    squares, for its ``(position, action)`` entries (not yet filled in)."""
    if not names:
        return Only()
    table = dense(names, squares, entries)
    if table is not None:
        return table
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
        if len(actions) >= EMPTY:
            raise ValueError(f"{len(actions)} actions: more than a table slot holds")
        entries: dict[str, list[tuple[int, Action]]] = {kind: [] for kind in names}
        for position, action in enumerate(actions):
            entries[action["type"]].append((position, action))
        self.lookups: dict[str, Lookup] = {}
        for kind, params in names.items():
            lookup = lookup_for(list(params), list(squares.get(kind, ())), entries[kind])
            lookup.fill(entries[kind])
            self.lookups[kind] = lookup

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


def remark(marks: bytearray, cleared: Sequence[int], marked: Sequence[int]) -> None:
    """Set ``marks`` (an action mask's bytes) to 0 at ``cleared``, then to 1 at
    ``marked``: an environment's mask of a step, in the buffer of an earlier
    one. Here, compiled, for the same reason as the lookups: a few dozen
    indices a step, a tenth of the environment's time in plain Python."""
    for index in cleared:
        marks[index] = 0
    for index in marked:
        marks[index] = 1
