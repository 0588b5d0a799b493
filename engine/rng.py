"""A small seeded generator whose whole state is one JSON-safe integer.

The rules never touch the global ``random``: every state carries a ``Rng``
and dumps its state as an int, so a match is its seed plus its actions and a
copy for search costs nothing. SplitMix64 is used because it is tiny, fast in
pure Python and passes BigCrush; cryptographic strength is not needed (the
seed commitment, not the generator, keeps the server honest).
"""

from collections.abc import MutableSequence, Sequence
from typing import Any, Final, Protocol, TypeVar

T = TypeVar("T")

# Final: compiled (engine/native.py), these are constants, not module lookups.
_MASK: Final = (1 << 64) - 1
_GOLDEN: Final = 0x9E3779B97F4A7C15


def mix_seed(*parts: int | str) -> int:
    """Derive a 63-bit seed from ints and strings, stable across runs."""
    acc = 0x5EED
    for part in parts:
        if isinstance(part, str):
            part = int.from_bytes(part.encode("utf-8")[:32].ljust(32, b"\0"), "big")
        # _splitmix(...)[1], inlined: every random player's pick derives a seed.
        z = (((acc ^ (part & _MASK) ^ (part >> 64)) & _MASK) + _GOLDEN) & _MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        acc = z ^ (z >> 31)
    return acc & ((1 << 63) - 1)


def _splitmix(state: int) -> tuple[int, int]:
    state = (state + _GOLDEN) & _MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return state, z ^ (z >> 31)


class Dice(Protocol):
    """What rules that roll dice and shuffle draw from: an ``Rng``, or in the
    scenario tests a script (``engine.games.anno1452.state.use_dice``)."""

    state: int

    def dice(self, count: int, sides: int = 6) -> list[int]: ...

    def shuffle(self, items: MutableSequence[Any]) -> None: ...


class Rng:
    """Deterministic generator; ``state`` is the only thing to persist."""

    __slots__ = ("state",)

    def __init__(self, state: int) -> None:
        self.state = state & _MASK

    def next64(self) -> int:
        self.state, out = _splitmix(self.state)
        return out

    def below(self, n: int) -> int:
        """Uniform int in ``[0, n)``, without modulo bias."""
        if n <= 0:
            raise ValueError("below() needs n > 0")
        limit = _MASK - (_MASK + 1) % n
        state = self.state
        while True:  # next64, inlined (dice and random players draw often)
            state = (state + _GOLDEN) & _MASK
            z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            x = z ^ (z >> 31)
            if x <= limit:
                self.state = state
                return x % n

    def die(self, sides: int = 6) -> int:
        """A roll of a fair die, 1..sides."""
        return self.below(sides) + 1

    def dice(self, count: int, sides: int = 6) -> list[int]:
        """``count`` rolls: the same as ``[self.die(sides) for _ in range(count)]``
        (``below``'s loop inlined: a battle throws dice by the handful)."""
        if sides <= 0:
            raise ValueError("below() needs n > 0")
        limit = _MASK - (_MASK + 1) % sides
        state = self.state
        out: list[int] = []
        while len(out) < count:
            state = (state + _GOLDEN) & _MASK
            z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            x = z ^ (z >> 31)
            if x <= limit:
                out.append(x % sides + 1)
        self.state = state
        return out

    def choice(self, seq: Sequence[T]) -> T:
        return seq[self.below(len(seq))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
