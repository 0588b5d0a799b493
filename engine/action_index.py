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
(a type with one plain parameter: the value; any other: one int, see
``Digits``): a left-out optional parameter and one sent as ``null`` are
the same action. ``index`` of an action outside the list raises
``KeyError`` (or ``TypeError``/``ValueError`` for a malformed value);
``indices`` raises ``ValueError`` naming the first few outside.
"""

from collections.abc import Mapping, Sequence
from typing import Any, Final

Action = dict[str, Any]
# A ``Digits`` table: bytes per position (little-endian), the empty slot's
# value (every byte set) and its most slots (6 MB).
SLOT: Final = 3
EMPTY: Final = 2 ** (8 * SLOT) - 1
MAX_SLOTS: Final = 2**21
# A type's table has at most this many slots per action: a sparser one (Anno
# 1452's trade drafts: 328 actions over 1.3 million slots, 3.9 MB) is a cache
# miss at nearly every lookup, where its int-keyed dict is a few kB (issue 45).
SLOTS_PER_ACTION: Final = 64
# A table of at most this many slots holds the position int objects themselves
# (a list: no bytes to combine, no new int per lookup).
OBJECT_SLOTS: Final = 8192
# Plain values that are ints below this are their own digits (+ 1) in a ``Digits`` key.
SMALL_INT: Final = 1024


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


NO_LOOKUP: Final[Lookup] = Only()


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


class Digits(Lookup):
    """Any other type: its key is one int with a digit per parameter, 0 when
    left out: a plain value's rank among the type's values, or the value + 1
    when all are small ints (cards, counts: no dict to look in), then each
    square's ``square_code`` (its board: the rows and columns its actions use). The
    positions are in a table of ``SLOT``-byte slots at the keys while it
    stays within ``MAX_SLOTS`` and ``SLOTS_PER_ACTION`` (Anno 1452's settle and
    attack), in the dict otherwise. A dict over tens of thousands of actions cost
    several cache misses a lookup (its slot, the key it compares, the position
    int it hands out), and a tuple key its hash and compare: a third of an
    environment step's lookups (issue 45)."""

    def __init__(self, plain: list[str], squares: list[str], entries: list[tuple[int, Action]]) -> None:
        super().__init__()
        self.plain = plain
        self.squares = squares
        self.ranks: list[dict[Any, int] | None] = []  # None: the value + 1 is the digit
        self.bases: list[int] = []
        for name in plain:
            values = list(
                dict.fromkeys(action[name] for _, action in entries if action.get(name) is not None)
            )
            if all(type(value) is int and 0 <= value < SMALL_INT for value in values):
                self.ranks.append(None)
                self.bases.append(max(values, default=-1) + 2)
            else:
                self.ranks.append({value: rank for rank, value in enumerate(values, 1)})
                self.bases.append(len(values) + 1)
        rows, cols = 1, 1
        for _, action in entries:
            for name in squares:
                square = action.get(name)
                if square is not None:
                    rows, cols = max(rows, square[0] + 1), max(cols, square[1] + 1)
        self.rows = rows
        self.cols = cols
        slots: int = (rows * cols + 1) ** len(squares)
        for base in self.bases:
            slots *= base
        self.slots = slots
        # Where the positions are: in a list of slots (``objects``), in the bytes
        # table (``positions``), or else in the dict.
        self.dense: bool = slots <= MAX_SLOTS and slots <= SLOTS_PER_ACTION * len(entries)
        self.listed: bool = self.dense and slots <= OBJECT_SLOTS
        self.positions = b""
        self.objects: list[Any] = []

    def key(self, action: Action) -> int:
        code = 0
        for name, ranks, base in zip(self.plain, self.ranks, self.bases):
            value = action.get(name)
            code *= base
            if value is None:
                continue
            if ranks is not None:
                code += ranks[value]
            elif isinstance(value, int) and 0 <= value < base - 1:
                code += value + 1
            else:
                raise KeyError(value)
        rows, cols = self.rows, self.cols
        for name in self.squares:
            code = code * (rows * cols + 1) + square_code(action.get(name), rows, cols)
        return code

    def fill(self, entries: list[tuple[int, Action]]) -> None:
        if not self.dense:
            super().fill(entries)
            return
        if self.listed:
            self._fill_objects(entries)
            return
        table = bytearray(b"\xff" * (SLOT * self.slots))
        for position, action in entries:
            at = SLOT * self.key(action)
            if int.from_bytes(table[at : at + SLOT], "little") != EMPTY:
                raise ValueError(f"action listed twice: {action}")
            table[at : at + SLOT] = position.to_bytes(SLOT, "little")
        self.positions = bytes(table)

    def _fill_objects(self, entries: list[tuple[int, Action]]) -> None:
        objects: list[Any] = [None] * self.slots
        for position, action in entries:
            code = self.key(action)
            if objects[code] is not None:
                raise ValueError(f"action listed twice: {action}")
            objects[code] = position
        self.objects = objects

    def index(self, action: Action) -> Any:
        code = self.key(action)
        if self.listed:
            found = self.objects[code]
            if found is None:
                raise KeyError(action)
            return found
        if not self.dense:
            return self.table[code]
        at = SLOT * code
        positions = self.positions
        position = positions[at] | positions[at + 1] << 8 | positions[at + 2] << 16
        if position == EMPTY:
            raise KeyError(action)
        return position


def lookup_for(names: list[str], squares: list[str], entries: list[tuple[int, Action]]) -> Lookup:
    """The lookup of a type with parameters ``names``, of which ``squares`` are
    squares, for its ``(position, action)`` entries (not yet filled in)."""
    if not names:
        return Only()
    if not squares and len(names) == 1:
        return ByValue(names[0])
    return Digits(
        [name for name in names if name not in squares], [name for name in names if name in squares], entries
    )


class ActionIndex:
    """``actions`` (each type's parameters named in ``names``, its square ones
    in ``squares``) -> their positions: ``index`` and ``indices``."""

    def __init__(
        self,
        actions: Sequence[Action],
        names: Mapping[str, Sequence[str]],
        squares: Mapping[str, Sequence[str]],
        name: str = "the",
    ) -> None:
        self.name = name  # in the message of actions outside the list: "outside {name} space"
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
        """The positions of ``actions``, in order (the legal actions of a step);
        ``ValueError`` naming the first few outside the list."""
        # Any: the table's int objects as they are (see Lookup); made at its full
        # length (appending grew it four times for a step's few dozen actions).
        out: list[Any] = [None] * len(actions)
        kind: Any = None
        lookup: Lookup = NO_LOOKUP  # never used: replaced at the first action
        try:
            for at in range(len(actions)):
                action = actions[at]
                # A step's actions come in runs of one type: the same lookup, without the
                # dict, while the type is the same string object (it is the rules' constant).
                if action["type"] is not kind:
                    kind = action["type"]
                    lookup = self.lookups[kind]
                out[at] = lookup.index(action)
        except (KeyError, TypeError, ValueError):
            outside = [action for action in actions if not self.has(action)]
            raise ValueError(f"legal actions outside {self.name} space: {outside[:3]}") from None
        return out

    def has(self, action: Action) -> bool:
        """True when ``action`` is in the list."""
        try:
            self.index(action)
        except (KeyError, TypeError, ValueError):
            return False
        return True


def remark(marks: bytearray, cleared: tuple[Any, ...], marked: list[Any]) -> tuple[Any, ...]:
    """Set ``marks`` (an action mask's bytes) to 0 at ``cleared``, then to 1 at
    ``marked``: an environment's mask of a step, in the buffer of an earlier
    one; returns ``marked`` as a tuple, what to clear next time (a copy: the
    caller's list may change). Here, compiled, for the same reason as the
    lookups: a few dozen indices a step, a tenth of the environment's time in
    plain Python. The indices are typed ``Any``: as ``int`` each would be
    unboxed and boxed again, a new int object per write."""
    for index in cleared:
        marks[index] = 0
    for index in marked:
        marks[index] = 1
    return tuple(marked)
