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

A move goes further (service/play/moves.py): the process keeps the doc's
JSON too, as its last commit wrote it or its last read found it, and the
seats of the tokens it saw acting, so the next move of that match by such a
token is planned without reading anything and committed by one script that
counts the request, checks the token and compares the revision (``latest``;
lua/commit.lua).
"""

import threading
from collections import OrderedDict
from typing import Any, NamedTuple

import orjson

from service.storage.records import StoredMatch


class _Entry(NamedTuple):
    rev: str
    state: Any  # the engine state
    # The doc's and the state's JSON at ``rev``, as its commit wrote them or
    # a read found them (None: unknown).
    written: tuple[bytes, bytes] | None


class EngineStateCache:
    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self._entries: OrderedDict[str, _Entry] = OrderedDict()  # by match id
        # match id -> {token hash: seat} of the seat tokens seen acting there
        # (a token's seat never changes; whether it is still live is the
        # commit script's to check). Dropped with the match's entry.
        self._seats: dict[str, dict[str, int]] = {}
        self._lock = threading.Lock()

    def get(self, match_id: str, rev: str) -> Any:
        """The state stored for ``match_id`` at exactly ``rev``, or None."""
        with self._lock:
            entry = self._entries.get(match_id)
            if entry is None or entry.rev != rev:
                return None
            self._entries.move_to_end(match_id)
            return entry.state

    def put(self, match_id: str, rev: str, state: Any, written: tuple[bytes, bytes] | None = None) -> None:
        """Remember ``state`` as the match's state at ``rev`` (replaces an
        older one); ``written``: the doc's and the state's JSON at ``rev``."""
        if self.capacity <= 0:
            return
        with self._lock:
            current = self._entries.get(match_id)
            # A thread that read an older revision must not push out the
            # newer state another thread just committed (hit rate only:
            # a wrong revision is never served either way).
            if current is None or int(current.rev) <= int(rev):
                self._entries[match_id] = _Entry(rev, state, written)
            self._entries.move_to_end(match_id)
            while len(self._entries) > self.capacity:
                self._seats.pop(self._entries.popitem(last=False)[0], None)

    def know_seat(self, match_id: str, token_hash: str, seat: int) -> None:
        """Remember that ``token_hash`` is a seat token of ``seat`` in ``match_id``."""
        with self._lock:
            if match_id in self._entries:
                self._seats.setdefault(match_id, {})[token_hash] = seat

    def latest(self, match_id: str, token_hash: str) -> StoredMatch | None:
        """The match as this process last committed or read it, with
        ``token_hash``'s seat, when both are known here; else None. It may be
        out of date: only a commit that expects its revision may act on it."""
        with self._lock:
            entry = self._entries.get(match_id)
            seat = self._seats.get(match_id, {}).get(token_hash)
            if entry is None or entry.written is None or seat is None:
                return None
            self._entries.move_to_end(match_id)
        doc_json, state_json = entry.written
        return StoredMatch(match_id, entry.rev, orjson.loads(doc_json), state_json, seat, doc_json=doc_json)

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
        read = None if stored.doc_json is None else (stored.doc_json, stored.state_json)
        services.states.put(stored.id, stored.rev, state, read)
    return state
