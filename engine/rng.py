"""A small seeded generator whose whole state is one JSON-safe integer.

The rules never touch the global ``random``: every state carries a ``Rng``
and dumps its state as an int, so a match is its seed plus its actions and a
copy for search costs nothing. SplitMix64 is used because it is tiny, fast in
pure Python and passes BigCrush; cryptographic strength is not needed (the
seed commitment, not the generator, keeps the server honest).

Two implementations of the same arithmetic, chosen once at import: plain
Python computes on whole 64-bit ints (``_wide``: few operations, each in
C); compiled (engine/native.py), on two 32-bit halves multiplied by 16-bit
pieces (``_halves``), where whole 64-bit values would be heap integers at
every operation (about 6 times slower than the halves; the halves in plain
Python, about 5 times slower than whole ints). The halves' arithmetic is
typed ``i64``: mypyc computes it in plain C machine words, without the
checks and tags of its ints (the random player's pick and the dice cost a
tenth as much), and since no intermediate value reaches 2**36 nothing can
overflow, so plain Python (where ``i64`` is only an annotation) computes
the same. ``tests/engine/test_rng.py`` checks both against the textbook
64-bit SplitMix64.
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import TYPE_CHECKING, Any, Final, Protocol, TypeVar

if TYPE_CHECKING:
    # A machine word to mypyc; to Python (and at run time: never imported) an int.
    from mypy_extensions import i64

T = TypeVar("T")

# Final: compiled, these are constants, not module lookups.
_MASK: Final = (1 << 64) - 1
_GOLDEN: Final = 0x9E3779B97F4A7C15
_M32: Final = 0xFFFFFFFF
_M16: Final = 0xFFFF
# SplitMix64's constants, as (high, low) 32-bit halves.
_GOLDEN_HI: Final = 0x9E3779B9
_GOLDEN_LO: Final = 0x7F4A7C15
_MUL1_HI: Final = 0xBF58476D
_MUL1_LO: Final = 0x1CE4E5B9
_MUL2_HI: Final = 0x94D049BB
_MUL2_LO: Final = 0x133111EB
# below() draws on the halves for n up to this (its products' operands stay
# below 2**30, what mypyc multiplies unboxed).
_SMALL_N: Final = 1 << 30
# True when this module runs compiled (its file is then the extension's).
_COMPILED: Final = not __file__.endswith(".py")


def _mul32(x: i64, y: i64) -> i64:
    """``x * y mod 2**32`` for 32-bit ``x``, ``y``, by 16-bit pieces."""
    x_lo, x_hi, y_lo, y_hi = x & _M16, x >> 16, y & _M16, y >> 16
    return (x_lo * y_lo + (((x_hi * y_lo + x_lo * y_hi) & _M16) << 16)) & _M32


def _mul64(hi: i64, lo: i64, by_hi: i64, by_lo: i64) -> tuple[i64, i64]:
    """``(hi, lo) * (by_hi, by_lo) mod 2**64``, as halves."""
    a, b, c, e = lo & _M16, lo >> 16, by_lo & _M16, by_lo >> 16
    middle = b * c + a * e  # lo * by_lo = a*c + middle * 2**16 + b*e * 2**32
    low = a * c + ((middle & _M16) << 16)
    carry = (low >> 32) + (middle >> 16) + b * e
    return (carry + _mul32(hi, by_lo) + _mul32(lo, by_hi)) & _M32, low & _M32


def _mix(hi: i64, lo: i64) -> tuple[i64, i64]:
    """SplitMix64's output function of the (already advanced) state."""
    lo ^= ((hi << 2) & _M32) | (lo >> 30)  # z ^= z >> 30
    hi ^= hi >> 30
    hi, lo = _mul64(hi, lo, _MUL1_HI, _MUL1_LO)
    lo ^= ((hi << 5) & _M32) | (lo >> 27)  # z ^= z >> 27
    hi ^= hi >> 27
    hi, lo = _mul64(hi, lo, _MUL2_HI, _MUL2_LO)
    lo ^= ((hi << 1) & _M32) | (lo >> 31)  # z ^= z >> 31
    hi ^= hi >> 31
    return hi, lo


def _advance(hi: i64, lo: i64) -> tuple[i64, i64]:
    """The state plus the golden gamma, mod 2**64."""
    lo += _GOLDEN_LO
    return (hi + _GOLDEN_HI + (lo >> 32)) & _M32, lo & _M32


def _halves(value: int) -> tuple[i64, i64]:
    """``value mod 2**64`` as (high, low) halves."""
    if value < 0 or value > _MASK:  # a generator's state never is: no new int for it
        value &= _MASK
    return value >> 32, value & _M32


def mix_seed(*parts: int | str) -> int:
    """Derive a 63-bit seed from ints and strings, stable across runs."""
    return _mix_seed_halves(parts) if _COMPILED else _mix_seed_wide(parts)


def _as_int(part: int | str) -> int:
    if isinstance(part, str):
        return int.from_bytes(part.encode("utf-8")[:32].ljust(32, b"\0"), "big")
    return part


def _mix_seed_wide(parts: tuple[int | str, ...]) -> int:
    acc = 0x5EED
    for value in parts:
        part = _as_int(value)
        # _splitmix(...)[1], inlined: every random player's pick derives a seed.
        z = (((acc ^ (part & _MASK) ^ (part >> 64)) & _MASK) + _GOLDEN) & _MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        acc = z ^ (z >> 31)
    return acc & ((1 << 63) - 1)


def _mix_seed_halves(parts: tuple[int | str, ...]) -> int:
    hi: i64 = 0
    lo: i64 = 0x5EED
    for value in parts:
        part = _as_int(value)
        # The state acc ^ (part mod 2**64) ^ (part >> 64), advanced and mixed.
        part_hi: i64 = 0
        part_lo: i64 = 0
        if 0 <= part <= _M32:
            part_lo = part
        else:
            part_hi, part_lo = _halves(part ^ (part >> 64))
        hi, lo = _advance(hi ^ part_hi, lo ^ part_lo)
        hi, lo = _mix(hi, lo)
    return ((hi & 0x7FFFFFFF) << 32) | lo


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
        """Uniform int in ``[0, n)``, without modulo bias (outputs in the
        last ``2**64 % n`` values are drawn again)."""
        if n <= 0:
            raise ValueError("below() needs n > 0")
        return self._draw(n, 1)[0]

    def _draw(self, n: int, count: int) -> list[int]:
        """``count`` values of ``below(n)``, for ``n > 0``."""
        if _COMPILED and n <= _SMALL_N:
            return self._draw_halves(n, count)
        return self._draw_wide(n, count)

    def _draw_wide(self, n: int, count: int) -> list[int]:
        limit = _MASK - (_MASK + 1) % n
        state = self.state
        out: list[int] = []
        while len(out) < count:  # next64, inlined (dice and random players draw often)
            state = (state + _GOLDEN) & _MASK
            z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            x = z ^ (z >> 31)
            if x <= limit:
                out.append(x % n)
        self.state = state
        return out

    def _draw_halves(self, n: int, count: int) -> list[int]:
        """``_draw_wide`` for ``n <= _SMALL_N``, on the halves."""
        m: i64 = n
        word: i64 = (1 << 32) % m  # 2**32 mod n; 2**64 mod n is its square mod n
        skip: i64 = (word * word) % m  # the rejected outputs: the last ``skip``
        first_rejected: i64 = (1 << 32) - skip
        hi, lo = _halves(self.state)
        out: list[int] = []
        while len(out) < count:
            hi, lo = _advance(hi, lo)
            x_hi, x_lo = _mix(hi, lo)
            if skip and x_hi == _M32 and x_lo >= first_rejected:
                continue
            out.append(((x_hi % m) * word + x_lo) % m)
        high: int = hi  # ints again: the whole state does not fit a signed word
        low: int = lo
        self.state = (high << 32) | low
        return out

    def die(self, sides: int = 6) -> int:
        """A roll of a fair die, 1..sides."""
        return self.below(sides) + 1

    def dice(self, count: int, sides: int = 6) -> list[int]:
        """``count`` rolls: the same as ``[self.die(sides) for _ in range(count)]``."""
        if sides <= 0:
            raise ValueError("below() needs n > 0")
        return [value + 1 for value in self._draw(sides, count)]

    def choice(self, seq: Sequence[T]) -> T:
        return seq[self.below(len(seq))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates in place: item ``i`` (from the last down) swapped with
        ``below(i + 1)``."""
        if _COMPILED and len(items) <= _SMALL_N:
            self._shuffle_halves(items)
            return
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def _shuffle_halves(self, items: MutableSequence[T]) -> None:
        """``shuffle``'s draws, each ``_draw_halves(i + 1, 1)``, on one pair of
        halves kept in machine words for the whole pass (the state is split
        and joined once, not at every item: a deck is shuffled whole)."""
        hi, lo = _halves(self.state)
        i: i64 = len(items) - 1
        while i > 0:
            m: i64 = i + 1
            word: i64 = (1 << 32) % m
            first_rejected: i64 = (1 << 32) - (word * word) % m
            hi, lo = _advance(hi, lo)
            x_hi, x_lo = _mix(hi, lo)
            while x_hi == _M32 and x_lo >= first_rejected:  # never when nothing is rejected
                hi, lo = _advance(hi, lo)
                x_hi, x_lo = _mix(hi, lo)
            j: i64 = ((x_hi % m) * word + x_lo) % m
            items[i], items[j] = items[j], items[i]
            i -= 1
        high: int = hi
        low: int = lo
        self.state = (high << 32) | low
