"""When a match next needs the sweeper: the policy of the deadline index.

The index (service/storage/deadline_index.py: sorted sets ``deadlines:{<tag>}``) holds,
for every match with something that must happen by a certain time, a due
time no later than the real one. The sweeper reads only entries that are due
(O(due), not O(active matches)); each visit reads the match and either acts
or moves the entry to the match's real due time. So an entry may be early,
never late, and a match with a deadline is never out of reach:

- a commit writes the entry when its match's due time appears or comes
  earlier, in its own script (on a cluster, in a shard on the match's
  node): written if and only if the commit is; a due time that moves later
  is left for the sweeper's visit to move;
- entries are version-stamped: the newest version of a match wins a race
  between a commit and a sweeper that read an older document.

Two kinds of deadline share the index: a pending AI decision's stall time
(a crashed job is re-enqueued) and each pending human seat's turn timer
(the ``medium`` AI decides for it: service/worker/timers.py).
"""

import time
from typing import Any

from service.model.documents import pending_ai_seat


def now_ms() -> int:
    return int(time.time() * 1000)


def due_ms(doc: dict, config: dict[str, Any]) -> int | None:
    """When ``doc`` next needs the sweeper (epoch ms), or None."""
    dues = []
    if pending_ai_seat(doc) is not None:
        dues.append(doc["updated_ms"] + config["AI_STALL_S"] * 1000)
    if doc["status"] == "active":
        dues += (doc.get("deadlines") or {}).values()
    return min(dues) if dues else None


def commit_deadline(old_doc_due: int | None, new_doc: dict, config: dict[str, Any]) -> tuple[int, int] | None:
    """``(version, due ms)`` a commit of ``new_doc`` writes to the index, or
    None when the entry already there is early enough."""
    due = due_ms(new_doc, config)
    if due is None or (old_doc_due is not None and due >= old_doc_due):
        return None
    return new_doc["version"], due


def next_visit_ms(doc: dict, config: dict[str, Any], now: int) -> int | None:
    """The entry's new due time after a visit at ``now`` (None: remove it).

    A deadline already past was acted on in this visit: look again after
    one more stall period.
    """
    due = due_ms(doc, config)
    if due is None:
        return None
    return due if due > now else now + config["AI_STALL_S"] * 1000
