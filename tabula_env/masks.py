"""Action masks: read-only int8 vectors over a variant's index space.

In a small space the mask of a legal set is built once and shared by every
state with the same legal indices: play meets the same sets over and over
(the end of a turn, the market, the ships' moves: random Anno 1503 play
found 6,200 different sets in 20,000 steps), and a lookup costs a fifth of
a build. In a large space (Anno 1452's 55,000 actions) the sets rarely
come back (14,000-16,000 different ones in 20,000 steps) and the cache
holds only a few hundred 55 kB masks, so nearly every lookup missed and
cost its key on top of the build: there each step builds its own mask.
A match builds it in an earlier step's mask that nothing outside holds any
more (``MaskBuffers``): a new 55 kB buffer and the array over it cost
about 1 µs a step more (issue 45).
A mask can never be made writable: a shared one is an array over an
immutable ``bytes`` buffer, a step's own one over a read-only view of its
buffer (no copy of the 55 kB).
"""

from sys import getrefcount
from typing import Any

import numpy as np

from engine.action_index import remark

# A dtype object, not ``np.int8``: numpy parses a type argument on every call.
INT8 = np.dtype(np.int8)
# Bytes of masks kept per index space; at the cap the cache starts over
# (cheaper per step than least-recently-used bookkeeping; the common sets return at once).
# Small enough to stay in the CPU's cache: with 16 MB (18,700 Anno 1503 masks)
# a step cost 1.4-3 µs more than with 2 MB (2,300), in one run (issue 45).
BUDGET = 2 * 2**20
# Spaces larger than this build every mask (the cache would hold too few of them).
CACHED_SIZE = 4096


class MaskCache:
    """``legal(indices)`` -> ``(flags, mask)`` for one index space of ``size`` actions."""

    def __init__(self, size):
        self.size = size
        self.capacity = max(16, BUDGET // max(size, 1))
        self.cached = size <= CACHED_SIZE
        self._entries = {}

    def legal(self, indices):
        """``flags``: 1 at each index of ``indices`` (``bytes`` or ``bytearray``: the
        legality test, without numpy's per-call cost); ``mask``: the read-only array over it."""
        if not self.cached:
            return self._own(indices)
        key = tuple(indices)
        entry = self._entries.get(key)
        if entry is None:
            entry = self._build(key)
            if len(self._entries) >= self.capacity:
                self._entries.clear()
            self._entries[key] = entry
        return entry

    def _marks(self, indices):
        marks = bytearray(self.size)
        for index in indices:
            marks[index] = 1
        return marks

    def _build(self, indices):
        flags = bytes(self._marks(indices))
        return flags, np.frombuffer(flags, INT8)

    def _own(self, indices):
        """A mask for one step, not shared: over a read-only view of its own buffer."""
        marks = self._marks(indices)
        return marks, read_only(marks)


def read_only(marks):
    """An int8 array over the ``bytearray`` ``marks`` that can never be made writable."""
    return np.frombuffer(memoryview(marks).toreadonly(), INT8)


# Masks a match keeps for reuse: the one it holds now, and earlier ones a
# learner may keep a step or two.
KEPT = 3


def _entry(size: int) -> list[Any]:
    """A kept mask: ``[mask, its bytearray, the indices set in it]``."""
    marks = bytearray(size)
    return [read_only(marks), marks, ()]


def _references(kept: list[Any]) -> tuple[int, int, int]:
    """References to a kept mask's array, its read-only memoryview (the array's
    base) and its bytearray, as counted here (compiled or not, the same code
    counts them for ``FREE`` below and for each step's mask)."""
    mask = kept[0]
    return getrefcount(mask), getrefcount(mask.base), getrefcount(kept[1])


# ``_references`` of a kept mask that nothing outside holds: the kept list's
# slots, the memoryview's hold on the array's buffer, and this module's own
# locals and call arguments, counted once on a mask made for it.
FREE_ARRAY, FREE_VIEW, FREE_BUFFER = _references(_entry(1))


class MaskBuffers:
    """``legal(indices)`` as ``MaskCache.legal`` in a large space, for one match
    (a match is not shared between threads: no two steps race for a mask).
    Each step's mask is its own until nothing but this object holds it, then
    the buffer of a later step: the reference counts are exact, so a mask, a
    view of it, its memoryview or its buffer held anywhere (a replay buffer,
    an observation) is never written again. Compiled (``engine.native``): a
    step's environment code, a few hundred ns in plain Python."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._kept: list[list[Any]] = []  # the kept masks (``_entry``), the last used last
        self.made = 0  # buffers made so far (the others were reused)

    def legal(self, indices: list[Any]) -> tuple[Any, Any]:
        kept_masks = self._kept
        kept: list[Any] | None = None
        for position in range(len(kept_masks)):
            # Free when nothing outside holds it (the match holds the last one,
            # and a learner any it keeps).
            array, view, buffer = _references(kept_masks[position])
            if array == FREE_ARRAY and view == FREE_VIEW and buffer == FREE_BUFFER:
                kept = kept_masks.pop(position)
                break
        if kept is None:
            kept = self._new()
        kept_masks.append(kept)
        kept[2] = remark(kept[1], kept[2], indices)
        return kept[1], kept[0]

    def _new(self) -> list[Any]:
        """A new mask (none kept is free), dropping the one held outside the longest."""
        self.made += 1
        if len(self._kept) == KEPT:
            del self._kept[0]  # held outside since the longest: theirs alone now
        return _entry(self.size)
