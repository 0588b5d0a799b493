"""engine.rng against the textbook SplitMix64 on whole 64-bit integers.

The generator has two implementations of the same arithmetic: on whole
64-bit ints (``_wide``, run by plain Python) and on 32-bit halves
(``_halves``, run compiled, engine/native.py). Every draw of every seeded
match depends on both giving exactly the 64-bit algorithm's values, which
this reference spells out; both are checked, whichever this process runs.
"""

import random

import pytest

from engine import rng as rng_module
from engine.rng import Rng, mix_seed

MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15


def reference_step(state):
    state = (state + GOLDEN) & MASK
    z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return state, z ^ (z >> 31)


def reference_mix_seed(*parts):
    acc = 0x5EED
    for part in parts:
        if isinstance(part, str):
            part = int.from_bytes(part.encode("utf-8")[:32].ljust(32, b"\0"), "big")
        _, acc = reference_step((acc ^ (part & MASK) ^ (part >> 64)) & MASK)
    return acc & ((1 << 63) - 1)


def reference_below(state, n):
    """``(new state, value)`` of ``Rng(state).below(n)``."""
    limit = MASK - (MASK + 1) % n
    while True:
        state, x = reference_step(state)
        if x <= limit:
            return state, x % n


# States near the edges of the halves' carries, and seeded random ones.
_pick = random.Random(45)
STATES = [0, 1, MASK, MASK - GOLDEN, MASK - GOLDEN + 1, (1 << 32) - 1, 1 << 32, 1 << 63] + [
    _pick.getrandbits(64) for _ in range(300)
]
# Small counts, powers of two, and counts whose rejected tail is large.
COUNTS = [1, 2, 3, 6, 7, 30, 255, 256, 1000, (1 << 30) - 1, 1 << 30, (1 << 30) + 1, 3 << 62, (1 << 64) - 1]


def test_next64_is_splitmix64():
    for state in STATES:
        rng = Rng(state)
        expected = state
        for _ in range(3):
            expected, out = reference_step(expected)
            assert rng.next64() == out
            assert rng.state == expected


def _draws(n):
    """Each implementation of ``below(n)``'s draws that handles ``n``."""
    draws = [Rng._draw_wide]
    if n <= rng_module._SMALL_N:
        draws.append(Rng._draw_halves)
    return draws


@pytest.mark.parametrize("n", COUNTS)
def test_below_is_rejection_sampling_on_splitmix64(n):
    for state in STATES:
        rng = Rng(state)
        assert (rng.below(n), rng.state) == reference_below(state, n)[::-1]
        for draw in _draws(n):
            rng = Rng(state)
            assert (draw(rng, n, 1), rng.state) == (
                [reference_below(state, n)[1]],
                reference_below(state, n)[0],
            )


def _unshift(y, k):
    """The x with ``x ^ (x >> k) == y``."""
    x = y
    for _ in range(64 // k + 1):
        x = y ^ (x >> k)
    return x


def state_before_output(out):
    """The state whose next output is ``out`` (SplitMix64's steps inverted)."""
    z = _unshift(out, 31)
    z = _unshift((z * pow(0x94D049BB133111EB, -1, 1 << 64)) & MASK, 27)
    z = _unshift((z * pow(0xBF58476D1CE4E5B9, -1, 1 << 64)) & MASK, 30)
    return (z - GOLDEN) & MASK


@pytest.mark.parametrize(("n", "rejected"), [(3, 1), (6, 4), (1000, 616), ((1 << 30) - 1, 16)])
def test_the_last_outputs_are_drawn_again(n, rejected):
    # 2**64 % n outputs at the top are refused (no modulo bias): a state
    # whose next output is one of them gives the draw after it.
    assert (1 << 64) % n == rejected
    for draw in _draws(n):
        for out in (MASK, MASK - rejected + 1):
            state = state_before_output(out)
            assert reference_step(state)[1] == out
            rng = Rng(state)
            assert draw(rng, n, 1) == [reference_step(reference_step(state)[0])[1] % n]
            assert rng.state == reference_step(reference_step(state)[0])[0]
        kept = state_before_output(MASK - rejected)  # the highest output kept
        assert draw(Rng(kept), n, 1) == [(MASK - rejected) % n]


def test_dice_and_shuffle_follow_below():
    for state in STATES[:50]:
        rng, again = Rng(state), Rng(state)
        assert rng.dice(5) == [again.die() for _ in range(5)]
        assert rng.dice(2, sides=20) == [again.die(20) for _ in range(2)]
        assert rng.state == again.state
        items, expected, ref = list(range(10)), list(range(10)), Rng(state)
        Rng(state).shuffle(items)
        for i in range(9, 0, -1):
            j = ref.below(i + 1)
            expected[i], expected[j] = expected[j], expected[i]
        assert items == expected


def _reference_shuffle(state, items):
    """``(new state, items shuffled)``: Fisher-Yates on ``reference_below``."""
    items = list(items)
    for i in range(len(items) - 1, 0, -1):
        state, j = reference_below(state, i + 1)
        items[i], items[j] = items[j], items[i]
    return state, items


# States whose first output a shuffle of 10 refuses (2**64 % 10 = 6: the top 6).
_REFUSED_FIRST = [state_before_output(MASK), state_before_output(MASK - 5)]


@pytest.mark.parametrize("length", [0, 1, 2, 10, 90])
def test_shuffle_is_fisher_yates_on_below(length):
    # Both ways a shuffle runs (on the halves in one pass when compiled,
    # below() per item otherwise) give the reference's order and state.
    for state in STATES[:60] + _REFUSED_FIRST:
        expected = _reference_shuffle(state, range(length))
        for shuffle in (Rng.shuffle, Rng._shuffle_halves):
            rng, items = Rng(state), list(range(length))
            shuffle(rng, items)
            assert (rng.state, items) == expected


def test_mix_seed_is_splitmix64_over_the_parts():
    cases = [(), (0,), (7,), (1000, 3), (1 << 32,), (1 << 62, 5), (MASK,), (1 << 70, -3), (-1,), ("greedy",)]
    cases += [("bot-sample", 12, "x" * 40)] + [(s, s >> 7, 3) for s in STATES[:100]]
    for parts in cases:
        expected = reference_mix_seed(*parts)
        assert mix_seed(*parts) == expected, parts
        assert rng_module._mix_seed_wide(parts) == rng_module._mix_seed_halves(parts) == expected, parts


def test_bad_counts_are_refused():
    with pytest.raises(ValueError):
        Rng(1).below(0)
    with pytest.raises(ValueError):
        Rng(1).dice(2, sides=0)
