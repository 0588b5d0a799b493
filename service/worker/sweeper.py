"""The workers' sweep of the deadline index (service/play/deadlines.py).

Every ``SWEEP_S`` a worker reads the entries that are due (O(due), never
O(active matches)); for each match it re-enqueues a stalled AI decision
(ai.recover_if_stalled), lets the AI make the human decisions whose turn
timer ran out (timers.fire_due), then moves the entry to the match's next
due time or drops it.

Each sweep also completes the finish steps a dead process left undone
(``finishing.recover``, service/play/finishing.py, O(intents due)) and drops
from the lobby the finished matches whose archive records' retention
(ARCHIVE_TTL_S) ran out (``Store.prune_expired``, O(expired)).
"""

from service.play import ai, deadlines, finishing
from service.runtime import metrics
from service.runtime.services import Services
from service.worker import timers

# Due entries of the deadline index one sweep takes from each shard.
SWEEP_BATCH = 100
# Outranks every real version in the deadline index (for deleted matches).
LAST_VERSION = 1 << 62


def _counted_timeout(doc: dict) -> None:
    metrics.turn_timed_out(doc["game"])


def visit(services: Services, doc: dict, now: int, found: str | None = None) -> tuple[int, int]:
    """Act on one due match; returns ``(AI decisions recovered, timers fired)``.
    ``found``: the shard its entry was found in (moved to its current shard)."""
    store = services.store
    recovered = int(ai.recover_if_stalled(services, doc, now))
    fired, doc = timers.fire_due(services, doc, now, on_timeout=_counted_timeout)
    due = deadlines.next_visit_ms(doc, services.config, now)
    store.set_deadline(doc["id"], doc["version"], due, found=found)
    return recovered, fired


def sweep(services: Services, now_ms: int | None = None) -> tuple[int, int]:
    """Visit every match whose entry is due; returns ``(recovered, fired)``."""
    store = services.store
    now = deadlines.now_ms() if now_ms is None else now_ms
    recovered = fired = 0
    for match_id, found in store.due_entries(now, SWEEP_BATCH):
        doc = store.load_doc(match_id)
        if doc is None:  # deleted: nothing will ever be due
            store.set_deadline(match_id, LAST_VERSION, None, found=found)
            continue
        done = visit(services, doc, now, found)
        recovered += done[0]
        fired += done[1]
    finishing.recover(services, now)
    store.prune_expired(now)
    return recovered, fired


def backfill_deadlines(services: Services, batch: int = 1000) -> int:
    """Put every active match in the deadline index once (matches stored
    before the index existed); entries already there are kept. Runs once
    per Redis (a marker key), at a worker's start."""
    if not services.redis.set("deadlines:backfilled", "1", nx=True):
        return 0
    added, start = 0, 0
    while True:
        ids = services.store.active_match_ids(start, batch)
        for match_id in ids:
            added += bool(services.store.set_deadline(match_id, -1, deadlines.now_ms()))
        if len(ids) < batch:
            return added
        start += batch
