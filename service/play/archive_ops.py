"""The operator's archive commands (``python -m service.worker.archive``,
docs/archive.md): migrate the matches finished before records existed,
export a time range of records as NDJSON (zstd-compressed by the command),
import such a file into a Redis.

An export line is one finished match::

    {"format": 1, "id": "<match id>", "game": "anno1503", "finished_ms": ...,
     "record": {"doc", "actions", "extra", "skip", "tokens", "finished_ms"}}

``record`` is the archive record decoded (service/storage/archive.py): its
document holds the dice secret and the seats' account ids, and ``tokens``
the hashes of the seat tokens live at the end, so an export is the
operator's, never public. Importing re-encodes each record (the same bytes
with the same zstandard and dictionary) and rebuilds the indexes a finished
match is in: the lobby's, and, for seats bound to accounts, the account's
match list, finished list and figures (each counted once).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

import orjson

from service.accounts.seats import bound_seats
from service.model.documents import SERVICE_EVENTS
from service.play.archiving import record_of
from service.storage import accounts as stored_accounts
from service.storage.archive import FORMAT_VERSION, Record, RecordError, decode, encode
from service.storage.keys import lobby_key

if TYPE_CHECKING:
    from service.runtime.services import Services

PAGE = 500


def finished_ids(services: Services, created_until_ms: float = float("inf")) -> Iterator[str]:
    """Every finished match in the lobby index (created by ``created_until_ms``)."""
    key, start = lobby_key("finished", None), 0
    while True:
        ids = services.redis.zrangebyscore(key, "-inf", created_until_ms, start=start, num=PAGE)
        yield from (raw.decode() for raw in ids)
        if len(ids) < PAGE:
            return
        start += PAGE


def migrate_match(services: Services, match_id: str) -> str:
    """Give a match finished before records existed its record (built from
    its hot keys, written only if the match did not change meanwhile) and
    its hot keys the ``FINISHED_MATCH_TTL_S`` of today; returns what was
    done: ``written``, ``had`` (a record already), ``gone``, ``changed``."""
    store = services.store
    if store.read_record(match_id) is not None:
        return "had"
    doc = store.load_doc(match_id)
    if doc is None or doc["status"] != "finished":
        return "gone"
    actions, events, tokens, rev = store.hot_history(match_id, SERVICE_EVENTS)
    if rev is None:
        return "gone"
    raw = encode(record_of(doc, actions, events, tokens))
    ttl = int(services.config["FINISHED_MATCH_TTL_S"])
    return "written" if store.write_record_if(match_id, rev, raw, ttl) else "changed"


def migrate(services: Services) -> dict[str, int]:
    """``migrate_match`` for every finished match; returns the count by outcome."""
    counts: dict[str, int] = {}
    for match_id in finished_ids(services):
        outcome = migrate_match(services, match_id)
        counts[outcome] = counts.get(outcome, 0) + 1
    return counts


def export_lines(services: Services, since_ms: int, until_ms: int) -> Iterator[bytes]:
    """One NDJSON line per match finished in ``[since_ms, until_ms)`` (a record
    that cannot be read is reported and left out)."""
    for match_id in finished_ids(services, until_ms):
        raw = services.store.read_record(match_id)
        if raw is None:
            continue
        try:
            record = decode(match_id, raw)
        except RecordError as error:
            services.store.report_unreadable(error)
            continue
        if since_ms <= record.finished_ms < until_ms:
            line = {
                "format": FORMAT_VERSION,
                "id": match_id,
                "game": record.doc["game"],
                "finished_ms": record.finished_ms,
                "record": record.payload(),
            }
            yield orjson.dumps(line) + b"\n"


def import_lines(services: Services, lines: Iterable[bytes]) -> dict[str, int]:
    """Store each exported match's record (kept if one is there) and rebuild
    its indexes; returns ``{"imported", "kept"}``."""
    counts = {"imported": 0, "kept": 0}
    for line in lines:
        if not line.strip():
            continue
        entry = orjson.loads(line)
        if entry.get("format") != FORMAT_VERSION:
            raise ValueError(f"unknown export format {entry.get('format')!r} (match {entry.get('id')})")
        record = Record(**entry["record"])
        raw = encode(record)
        decode(entry["id"], raw)  # a line of another match, or a broken one, stops the import
        if not services.store.put_record(entry["id"], raw):
            counts["kept"] += 1
            continue
        _index(services, record)
        counts["imported"] += 1
    return counts


def _index(services: Services, record: Record) -> None:
    """The indexes of an imported finished match: the lobby's, the accounts'
    (counted once, at the time it finished)."""
    doc = record.doc
    services.store.after_commit(doc)
    seated = bound_seats(doc)
    if seated:
        indexed = [(aid, doc["id"], int(doc.get("created_ms", 0))) for _, aid in seated]
        stored_accounts.note_commit(services.redis, indexed, [])
        winners = set((doc.get("result") or {}).get("winners") or ())
        for seat, aid in seated:
            won = seat in winners
            stored_accounts.count_finished(
                services.redis, aid, doc["id"], doc["game"], won, record.finished_ms
            )
