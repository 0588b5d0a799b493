"""Action masks: read-only int8 vectors over a variant's index space, shared
by every state whose legal indices are the same.

Play meets the same legal sets over and over (the end of a turn, the
market, the ships' moves: random Anno 1503 play found 6,200 different sets
in 20,000 steps, Anno 1452 14,000), so the mask of a set is built once and
handed out again: building one costs more than looking it up.
A mask is an array over an immutable ``bytes`` buffer, so no holder can
switch it to writable and change it under the others.
"""

import numpy as np

# A dtype object, not ``np.int8``: numpy parses a type argument on every call.
INT8 = np.dtype(np.int8)
# Bytes of masks kept per index space; at the cap the cache starts over
# (cheaper per step than least-recently-used bookkeeping; the common sets return at once).
BUDGET = 16 * 2**20


class MaskCache:
    """``legal(indices)`` -> ``(flags, mask)`` for one index space of ``size`` actions."""

    def __init__(self, size):
        self.size = size
        self.capacity = max(16, BUDGET // max(size, 1))
        self._entries = {}

    def legal(self, indices):
        """``flags``: ``bytes`` with 1 at each index of ``indices`` (the legality
        test, without numpy's per-call cost); ``mask``: the read-only array over it."""
        key = tuple(indices)
        entry = self._entries.get(key)
        if entry is None:
            entry = self._build(key)
            if len(self._entries) >= self.capacity:
                self._entries.clear()
            self._entries[key] = entry
        return entry

    def _build(self, indices):
        marks = bytearray(self.size)
        for index in indices:
            marks[index] = 1
        flags = bytes(marks)
        return flags, np.frombuffer(flags, INT8)
