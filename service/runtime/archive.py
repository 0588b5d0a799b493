"""A finished match rebuilt from its archive record (service/storage/archive.py).

Once a finished match's hot keys have expired (FINISHED_MATCH_TTL_S), every
read of it goes through ``Store.load_archived`` to ``Archive.rebuild``: the
record is decoded and its actions replayed with the engine from the seed,
which gives the final engine state and the whole event log again, private
parts kept; the events the service made (joins, resignations, time-outs,
the rematch claim) come from the record as they were, at their seqs. The
result is what the hot keys held, so the routes serve the same bytes as
before (tests/service/test_archive.py compares them).

Replaying a long match costs 50 ms to a second, so the rebuilt matches are
kept in a per-process LRU keyed by match id, format version and a hash of
the record's bytes (a record written again, by an import, is never served
from the old entry), bounded by their events: a rebuilt match holds about
0.8 KB of Python objects per event (1.5 MB for a 1,000-action Anno 1503
match, 3.4 MB for 2,500 actions of the expansion). A record that cannot be read is logged, counted
(``tabula_archive{what="unreadable"}``) and answered 410
``archive_unreadable``: never served as another match.
"""

from __future__ import annotations

import hashlib
import logging
import threading
from collections import OrderedDict
from typing import Any

import orjson

import engine
from service.model.errors import ApiError
from service.runtime import metrics
from service.storage.archive import FORMAT_VERSION, Record, RecordError, decode
from service.storage.records import ArchivedMatch

log = logging.getLogger(__name__)

# Rebuilt matches kept per process, and the events they may hold in all
# (about 0.8 KB each: 50,000 are about 40 MB).
CACHE_SIZE = 256
CACHE_EVENTS = 50_000


def unreadable(error: RecordError) -> ApiError:
    return ApiError(
        410,
        "archive_unreadable",
        "this finished match's archive record cannot be read (corrupt, or a format this server "
        "does not know); the operator has been told",
        match_id=error.match_id,
        reason=error.reason,
    )


class Archive:
    """Rebuilds archived matches, caching the results (thread-safe)."""

    def __init__(self, capacity: int = CACHE_SIZE, max_events: int = CACHE_EVENTS) -> None:
        self.capacity = capacity
        self.max_events = max_events
        self._entries: OrderedDict[tuple[str, int, bytes], ArchivedMatch] = OrderedDict()
        self._events = 0  # held by the entries
        self._lock = threading.Lock()

    def rebuild(self, match_id: str, raw: bytes) -> ArchivedMatch:
        """The match stored as record ``raw``; raises the 410 of an unreadable one."""
        key = (match_id, FORMAT_VERSION, hashlib.blake2b(raw, digest_size=16).digest())
        with self._lock:
            cached = self._entries.get(key)
            if cached is not None:
                self._entries.move_to_end(key)
                return cached
        try:
            archived = replay(decode(match_id, raw))
        except RecordError as error:
            self.report(error)
            raise unreadable(error) from None
        metrics.archive_event("rebuilt")
        with self._lock:
            if key not in self._entries:
                self._entries[key] = archived
                self._events += len(archived.events)
            while len(self._entries) > 1 and (
                len(self._entries) > self.capacity or self._events > self.max_events
            ):
                _, evicted = self._entries.popitem(last=False)
                self._events -= len(evicted.events)
        return archived

    def report(self, error: RecordError) -> None:
        log.error("unreadable archive record: %s", error)
        metrics.archive_event("unreadable")


def _action_versions(record: Record) -> list[int]:
    """The version of each action: those of 1..version the record does not skip."""
    skip = set(record.skip)
    versions = [v for v in range(1, record.doc["version"] + 1) if v not in skip]
    if len(versions) != len(record.actions):
        raise RecordError(record.doc["id"], f"{len(record.actions)} actions for {len(versions)} versions")
    return versions


def _engine_events(game: Any, record: Record) -> tuple[Any, list[tuple[int, dict]]]:
    """``(final state, [(version, event)])`` of the set-up and every action."""
    doc = record.doc
    state, setup = game.setup_with_events(len(doc["seats"]), doc["options"], doc["seed"])
    events = [(0, event) for event in setup]
    for version, (seat, action) in zip(_action_versions(record), record.actions, strict=True):
        state, new = game.apply(state, seat, action)
        events.extend((version, event) for event in new)
    return state, events


def replay(record: Record) -> ArchivedMatch:
    """What the hot keys of ``record``'s match held, derived again."""
    doc = record.doc
    match_id = doc["id"]
    try:
        game = engine.get_game(doc["game"])
        state, engine_events = _engine_events(game, record)
        state_json = orjson.dumps(game.dump(state))
        # Through JSON, as a stored state and stored events are read back.
        state = game.load(orjson.loads(state_json))
        shaped = orjson.loads(orjson.dumps(engine_events))
    except RecordError:
        raise
    except Exception as error:  # noqa: BLE001 - whatever the engine refuses, the record is wrong
        raise RecordError(match_id, f"the actions do not replay: {error!r}") from None
    extra = {int(seq): (int(seq), int(version), event) for seq, version, event in record.extra}
    events: list[tuple[int, int, dict]] = []
    made = iter(shaped)
    for seq in range(1, int(doc["seq"]) + 1):
        if seq in extra:
            events.append(extra[seq])
            continue
        try:
            version, event = next(made)
        except StopIteration:
            raise RecordError(match_id, f"the replay ends before seq {seq}") from None
        events.append((seq, version, event))
    if next(made, None) is not None:
        raise RecordError(match_id, "the replay has more events than the match")
    return ArchivedMatch(doc, state, state_json, events, record.action_entries(), dict(record.tokens))
