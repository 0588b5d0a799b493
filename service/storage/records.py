"""The values a read returns and a commit writes: ``StoredMatch``, ``Change``,
``CommitResult``, and events as read from a stream."""

from dataclasses import dataclass
from functools import cached_property
from typing import Any

import orjson

from service.model.errors import ApiError


@dataclass
class ArchivedMatch:
    """A finished match rebuilt from its archive record (runtime/archive.py):
    what its hot keys held, derived again by replaying its actions."""

    doc: dict
    state: Any  # the engine state at the end (as ``game.load`` gives it)
    state_json: bytes
    events: list  # [(seq, version, event)], the whole log, private parts kept
    actions: list  # [{"seat", "action"}]
    tokens: dict  # token sha256 -> seat

    def stored(self, match_id: str, token_hash: str | None = None) -> "StoredMatch":
        seat = self.tokens.get(token_hash) if token_hash else None
        return StoredMatch(match_id, ARCHIVED_REV, self.doc, self.state_json, seat, self)

    def events_after(self, after: int, limit: int) -> list[tuple[int, int, dict]]:
        # seqs run 1..n without gaps: the events after ``after`` start at index ``after``
        return self.events[max(after, 0) : max(after, 0) + limit]


# The revision of a match read from its record: no commit can expect it.
ARCHIVED_REV = "archived"


@dataclass
class StoredMatch:
    """One match as read from Redis; ``rev`` is what a commit must still find."""

    id: str
    rev: str
    doc: dict
    state_json: bytes  # decoded on first use: a cached engine state needs no decoding
    token_seat: int | None = None  # seat of the token asked for in ``load``
    # Set when the hot keys are gone and the match was rebuilt from its record.
    archived: ArchivedMatch | None = None
    doc_json: bytes | None = None  # the doc as read (None: rebuilt, not read)

    @cached_property
    def state(self) -> Any:
        """The engine's dump, as stored (JSON-decoded)."""
        return orjson.loads(self.state_json)


@dataclass
class Change:
    """Everything one commit writes besides the revision."""

    doc: dict
    state: dict | None = None
    events: list | None = None  # [(seq, version, engine_event_dict)]
    action: dict | None = None  # {"seat", "action"} for the replay log
    set_tokens: dict | None = None  # token hash -> seat
    del_tokens: list | None = None  # token hashes
    idem_key: str | None = None
    idem_value: bytes | None = None
    record: bytes | None = None  # the archive record a finished match's commit writes


@dataclass
class SeatCount:
    """A request's count in its seat token's rate-limit window, taken by the
    commit script (lua/commit.lua's KEYS[8]): the counter (in the match's
    slot), the token, the counter's TTL and the window's limit; ``count``,
    once the script counted (None: it did not, the token held no seat)."""

    key: str
    token_hash: str
    ttl_s: int
    limit: int
    count: int | None = None


class CommitResult:
    def __init__(
        self, outcome: str, payload: Any = None, replicas: int | None = None, wanted: int = 0
    ) -> None:
        # "OK" | "CONFLICT" | "DUP"; with a SeatCount also "NOSEAT" | "LIMIT"
        self.outcome = outcome
        self.payload = payload  # OK: the new rev; DUP: the stored idempotency value
        self.replicas = replicas  # replicas that confirmed it (WAIT), None: not asked
        self.wanted = wanted
        # With a SeatCount, at a CONFLICT: the match as the script found it.
        self.fresh: StoredMatch | None = None
        # The doc's and the state's JSON as this commit wrote them (None: it
        # kept the state).
        self.written: tuple[bytes, bytes] | None = None

    def raise_if_unreplicated(self) -> None:
        """The 503 of a commit fewer replicas confirmed than ``REDIS_WAIT_REPLICAS``."""
        if self.replicas is not None and self.replicas < self.wanted and self.outcome in ("OK", "DUP"):
            raise ApiError(
                503,
                "unavailable",
                "the change is stored but fewer replicas than required confirmed it in time; "
                "retry with the same Idempotency-Key to get its result",
                retry=True,
                replicas=self.replicas,
                required_replicas=self.wanted,
            )


def field_map(reply: Any) -> dict:
    """A hash's or a stream entry's fields as a dict: redis-py and RESP3 give
    a map, hiredis under RESP2 a flat list of names and values."""
    return reply if isinstance(reply, dict) else dict(zip(reply[::2], reply[1::2], strict=True))


# How an event's JSON starts when its type is its first key, as the engine's
# and the service's events are written (orjson keeps their key order).
_TYPE_FIRST = b'{"type":"'


def _named_type(raw: bytes) -> bytes | None:
    """The type an event's JSON names first, read off its bytes; None where
    it does not start so or the name has an escape (then it is parsed)."""
    if not raw.startswith(_TYPE_FIRST):
        return None
    name = raw[len(_TYPE_FIRST) : raw.find(b'"', len(_TYPE_FIRST))]
    return None if b"\\" in name else name


def _version_and_json(fields: Any) -> tuple[bytes, bytes]:
    """A stream entry's ``v`` and ``e``: by position in the form the commit
    script writes (``v`` then ``e``: no dict built, 4,000 times in a long
    match), by name in any other."""
    if type(fields) is list and len(fields) == 4 and fields[0] == b"v" and fields[2] == b"e":
        return fields[1], fields[3]
    named = field_map(fields)
    return named[b"v"], named[b"e"]


def parse_events(entries: list, event_types: frozenset[str] | None = None) -> list[tuple[int, int, dict]]:
    """XRANGE entries of an event stream (``[id, fields]``, the fields as
    redis-py or hiredis give them) as ``[(seq, version, event)]``; with
    ``event_types``, only those events: one whose JSON names another type
    first is skipped unread (the finishing move reads a whole stream, and
    parsing costs about 2 us an event)."""
    wanted = None if event_types is None else {name.encode() for name in event_types}
    events = []
    for entry_id, fields in entries:
        version, raw = _version_and_json(fields)
        if wanted is not None:
            named = _named_type(raw)
            if named is not None and named not in wanted:
                continue
        event = orjson.loads(raw)
        if event_types is None or event["type"] in event_types:
            events.append((int(entry_id.split(b"-")[1]), int(version), event))
    return events
