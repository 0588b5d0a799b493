"""Action masks: read-only int8 vectors over a variant's index space.

In a small space the mask of a legal set is built once and shared by every
state with the same legal indices: play meets the same sets over and over
(the end of a turn, the market, the ships' moves: random Anno 1503 play
found 6,200 different sets in 20,000 steps), and a lookup costs a fifth of
a build. In a large space (Anno 1452's 55,000 actions) the sets rarely
come back (14,000-16,000 different ones in 20,000 steps) and the cache
holds only a few hundred 55 kB masks, so nearly every lookup missed and
cost its key on top of the build: there each step builds its own mask.
A mask can never be made writable: a shared one is an array over an
immutable ``bytes`` buffer, a step's own one over a read-only view of its
buffer (no copy of the 55 kB).
"""

import numpy as np

# A dtype object, not ``np.int8``: numpy parses a type argument on every call.
INT8 = np.dtype(np.int8)
# Bytes of masks kept per index space; at the cap the cache starts over
# (cheaper per step than least-recently-used bookkeeping; the common sets return at once).
BUDGET = 16 * 2**20
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
        return marks, np.frombuffer(memoryview(marks).toreadonly(), INT8)
