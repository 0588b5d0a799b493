"""The archive record a finished match's commit writes (docs/archive.md).

Every commit that stores a finished match (the finishing move, and any later
change such as the rematch claim) carries the match's archive record
(service/storage/archive.py) in the same script, so no finished match is
without its record and no record without a finished match, on every Redis
mode. The record is built here, before the commit, from what the hot keys
hold (the replay log, the service's events, the live tokens: one pipelined
read, ``Store.hot_history``) plus what the commit adds. That read is made
after the match was read at the revision the commit expects, so the commit
script's revision check makes both agree: a change in between makes the
commit a ``CONFLICT`` and the plan is built again.

Actions are stored as compact JSON, not as indices into each moment's legal
actions: indices need a replay at the finish (the last move would wait for
it, 0.05-1.4 s on long matches) and are only as stable as the engine's
ordering of legal actions; see docs/archive.md for the figures.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from service.model.documents import OPERATION_EVENTS, SERVICE_EVENTS
from service.storage.archive import Record, RecordError, decode, encode

if TYPE_CHECKING:
    from service.storage.records import Change
    from service.storage.store import Store


def record_of(
    doc: dict, actions: list[dict], events: list, tokens: dict[str, int], finished_ms: int | None = None
) -> Record:
    """The record of finished match ``doc`` from its whole log: ``actions``
    (``{"seat", "action"}``), ``events`` (``(seq, version, event)``),
    ``tokens`` (live token hash -> seat)."""
    extra = [[seq, version, event] for seq, version, event in events if event["type"] in SERVICE_EVENTS]
    skip = sorted({version for seq, version, event in events if event["type"] in OPERATION_EVENTS})
    return Record(
        doc=doc,
        actions=[[entry["seat"], entry["action"]] for entry in actions],
        extra=extra,
        skip=skip,
        tokens=tokens,
        finished_ms=int(doc.get("updated_ms", 0)) if finished_ms is None else finished_ms,
    )


def record_for_commit(store: Store, match_id: str, change: Change, was_finished: bool) -> bytes:
    """The record bytes of the commit of ``change`` (its doc finished) on
    ``match_id`` (``was_finished``: before this change too)."""
    actions, events, tokens, _ = store.hot_history(match_id, SERVICE_EVENTS)
    if change.action is not None:
        actions.append(change.action)
    events.extend(change.events or ())
    for token_hash, seat in (change.set_tokens or {}).items():
        tokens[token_hash] = int(seat)
    for token_hash in change.del_tokens or ():
        tokens.pop(token_hash, None)
    finished_ms = None
    if was_finished:  # a later change keeps the time it ended
        previous = store.read_record(match_id)
        if previous is not None:
            finished_ms = _finished_ms(match_id, previous)
    return encode(record_of(change.doc, actions, events, tokens, finished_ms))


def _finished_ms(match_id: str, raw: bytes) -> int | None:
    try:
        return decode(match_id, raw).finished_ms
    except RecordError:
        return None  # written again whole from the hot keys
