"""A per-process cache of loaded engine states, keyed by match id and revision.

Loading a match's engine state (JSON decode plus ``game.load``) was a sizable
part of a move. A process that just committed a move already holds the new
state, so the next read of that match at that revision can reuse it.

Why it is never stale: the revision (``rev`` in the match hash) grows with
every commit, whoever makes it (another worker, the AI worker, a join), and
an entry is used only when the revision just read from Redis is the one it
was stored under. A miss simply loads the stored JSON. Entries are shared
between threads as they are: the engine never changes a state it is given
(``Game.apply`` works on a clone), and the service only reads them.

Bounded: one entry per match, least recently used evicted first.
"""

import threading
from collections import OrderedDict
from typing import Any


class EngineStateCache:
    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self._entries: OrderedDict[str, tuple[str, Any]] = OrderedDict()  # match id -> (rev, engine state)
        self._lock = threading.Lock()

    def get(self, match_id: str, rev: str) -> Any:
        """The state stored for ``match_id`` at exactly ``rev``, or None."""
        with self._lock:
            entry = self._entries.get(match_id)
            if entry is None or entry[0] != rev:
                return None
            self._entries.move_to_end(match_id)
            return entry[1]

    def put(self, match_id: str, rev: str, state: Any) -> None:
        """Remember ``state`` as the match's state at ``rev`` (replaces an older one)."""
        if self.capacity <= 0:
            return
        with self._lock:
            current = self._entries.get(match_id)
            # A thread that read an older revision must not push out the
            # newer state another thread just committed (hit rate only:
            # a wrong revision is never served either way).
            if current is None or int(current[0]) <= int(rev):
                self._entries[match_id] = (rev, state)
            self._entries.move_to_end(match_id)
            while len(self._entries) > self.capacity:
                self._entries.popitem(last=False)

    def __len__(self) -> int:
        return len(self._entries)


def engine_state(services: Any, game: Any, stored: Any) -> Any:
    """The engine state of ``stored`` (a StoredMatch): cached, or loaded and
    cached; a match read from its archive record brings its own."""
    if stored.archived is not None:
        return stored.archived.state
    state = services.states.get(stored.id, stored.rev)
    if state is None:
        state = game.load(stored.state)
        services.states.put(stored.id, stored.rev, state)
    return state
