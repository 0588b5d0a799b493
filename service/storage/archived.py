"""Reads of a finished match from its archive record, once its hot keys are
gone (keys.py, archive.py); ``Store`` carries these methods and falls back
to them in every read of a match.

Rebuilding a match from its record replays its actions with the engine: that
is ``Store.archive``'s (service/runtime/archive.Archive, set by Services: it
caches what it rebuilt), since the storage layer never runs the engine.
Reading only a document (the lobby's and the accounts' lists) just decodes
the record here.
"""

import logging
from typing import Any

import orjson

from service.storage.archive import RecordError, decode
from service.storage.keys import actions_key, events_key, match_key, record_key
from service.storage.records import StoredMatch, field_map, parse_events
from service.storage.transport import raise_error_replies

log = logging.getLogger(__name__)


# The script that writes a record only if the match is still at the
# revision it was built from and has none (the migration of matches
# finished earlier), then gives its hot keys (KEYS[3..]) at most the TTL
# ARGV[4] (0: as they are).
_WRITE_RECORD_IF = """
if redis.call('HGET', KEYS[1], 'rev') ~= ARGV[1] then return 0 end
if redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
if tonumber(ARGV[3]) > 0 then
  redis.call('SET', KEYS[2], ARGV[2], 'EX', tonumber(ARGV[3]))
else
  redis.call('SET', KEYS[2], ARGV[2])
end
local ttl = tonumber(ARGV[4])
if ttl > 0 then
  for k = 1, #KEYS do
    if k ~= 2 then
      local left = redis.call('TTL', KEYS[k])
      if left == -1 or left > ttl then redis.call('EXPIRE', KEYS[k], ttl) end
    end
  end
end
return 1
"""


class ArchivedReads:
    """The record methods of ``Store`` (a mixin over its client)."""

    redis: Any
    transport: Any  # transport.Transport: raw replies
    archive: Any
    archive_ttl_s: int

    def read_record(self, match_id: str) -> bytes | None:
        """The record's bytes as stored, or None."""
        raw = self.redis.get(record_key(match_id))
        return None if raw is None else bytes(raw)

    def read_records(self, match_ids: list[str]) -> list[bytes | None]:
        pipe = self.redis.pipeline(transaction=False)
        for match_id in match_ids:
            pipe.get(record_key(match_id))
        return list(pipe.execute())

    def load_archived(self, match_id: str, token_hash: str | None = None) -> StoredMatch | None:
        """The match rebuilt from its record (None: no record). An unreadable
        record raises (the Archive's error: 410 ``archive_unreadable``)."""
        if self.archive is None:
            return None
        raw = self.read_record(match_id)
        if raw is None:
            return None
        return self.archive.rebuild(match_id, raw).stored(match_id, token_hash)

    def archived_docs(self, match_ids: list[str]) -> list[dict | None]:
        """The documents in the records of ``match_ids`` (None: no record, or
        one that cannot be read, which is reported and left out)."""
        if not match_ids:
            return []
        docs: list[dict | None] = []
        for match_id, raw in zip(match_ids, self.read_records(match_ids), strict=True):
            doc = None
            if raw is not None:
                try:
                    doc = decode(match_id, raw).doc
                except RecordError as error:
                    self.report_unreadable(error)
            docs.append(doc)
        return docs

    def report_unreadable(self, error: RecordError) -> None:
        if self.archive is not None:
            self.archive.report(error)
        else:
            log.error("%s", error)

    def archived_actions(self, match_id: str) -> list[dict]:
        """The replay log in the record (decoded only: no replay); [] when
        there is none or it cannot be read (reported)."""
        raw = self.read_record(match_id)
        if raw is None:
            return []
        try:
            return decode(match_id, raw).action_entries()
        except RecordError as error:
            self.report_unreadable(error)
            return []

    def hot_history(
        self, match_id: str, event_types: frozenset[str]
    ) -> tuple[list[dict], list, dict[str, int], str | None]:
        """``(actions, events, {token hash: seat}, rev)`` from the hot keys, in
        one round trip: what a record is built from, with only the events of
        ``event_types``. A record keeps only the service's events
        (documents.SERVICE_EVENTS), and the finishing move reads the whole
        stream while its worker waits: the other events' JSON is not even
        parsed (about 2 us each, 4,000 in a long match)."""
        raw_actions, entries, fields = self.transport.replies(
            [
                ("LRANGE", actions_key(match_id), 0, -1),
                ("XRANGE", events_key(match_id), "-", "+"),
                ("HGETALL", match_key(match_id)),
            ],
            True,
        )
        raise_error_replies([raw_actions, entries, fields])
        hash_fields = field_map(fields)
        tokens = {
            name[4:].decode(): int(value) for name, value in hash_fields.items() if name.startswith(b"tok:")
        }
        rev = hash_fields.get(b"rev")
        return (
            [orjson.loads(raw) for raw in raw_actions],
            parse_events(entries, event_types),
            tokens,
            None if rev is None else rev.decode(),
        )

    def write_record_if(self, match_id: str, rev: str, record: bytes, hot_ttl_s: int) -> bool:
        """Store ``record`` if the match is still at ``rev`` and has none, and
        cap its hot keys' TTL at ``hot_ttl_s`` (0: leave it); True when written."""
        keys = (match_key(match_id), record_key(match_id), events_key(match_id), actions_key(match_id))
        return bool(
            self.redis.eval(_WRITE_RECORD_IF, len(keys), *keys, rev, record, self.archive_ttl_s, hot_ttl_s)
        )

    def put_record(self, match_id: str, record: bytes) -> bool:
        """Store ``record`` unless the match has one (an import); True when stored."""
        ttl = self.archive_ttl_s or None
        return bool(self.redis.set(record_key(match_id), record, nx=True, ex=ttl))
