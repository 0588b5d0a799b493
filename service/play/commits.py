"""The optimistic write loop every change of a match goes through.

An operation reads the match, plans a change from what it read, and commits
it with the revision it read (the Lua compare-and-set, storage/lua/commit.lua).
If another writer got there first, the plan is rebuilt from the fresh match:
a stale client ``version`` then fails in the plan (409), a retry without one
is simply re-planned. The loop returns what it committed; what follows a
commit (the AI's next turn) is its caller's.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import redis

from service.model.errors import ApiError, not_found
from service.play import finishing
from service.play.archiving import record_for_commit
from service.play.deadlines import commit_deadline, due_ms
from service.storage.records import Change, CommitResult, SeatCount, StoredMatch

if TYPE_CHECKING:
    from service.play.idempotency import Record
    from service.runtime.services import Services

log = logging.getLogger(__name__)

MAX_ATTEMPTS = 25


@dataclass
class Plan:
    """What to write (``change``, None for a read-only answer) and what to answer."""

    response: Any
    change: Change | None = None
    new_token_hashes: list = field(default_factory=list)
    revoked_token_hashes: list = field(default_factory=list)
    # The engine state ``change`` stores, kept in this process's cache once
    # committed (the next move of the match then skips loading it).
    state_after: Any = None
    on_commit: Callable[[], None] | None = None  # called once this plan's commit won (metrics)


@dataclass
class Committed:
    """What ``change_match`` did: the answer, and the document it committed
    (None: nothing was, a read-only answer or a replayed retry). The caller
    schedules what follows a commit (the AI's turn: ``ai.schedule_after_commit``)
    and then takes the ``answer()``."""

    response: Any
    doc: dict | None = None
    result: CommitResult | None = None
    finished_now: bool = False  # this commit finished the match: its finish steps follow

    def answer(self) -> Any:
        """The response; the 503 of a commit too few replicas confirmed
        (``REDIS_WAIT_REPLICAS``), raised after the caller's follow-ups."""
        if self.result is not None:
            self.result.raise_if_unreplicated()
        return self.response


def change_match(
    services: Services,
    match_id: str,
    plan_change: Callable[[StoredMatch], Plan],
    first: StoredMatch | None = None,
    record: Record | None = None,
) -> Committed:
    """Run ``plan_change(stored) -> Plan`` until its commit wins; returns Committed.

    ``first``: the match as the caller already read it, used for the first
    attempt instead of reading it again. ``record``: the request's
    idempotency.Record, or None. The caller looked it up before the first
    attempt; a new attempt after a lost race looks again (the winner may
    have been this request's own retry), and the commit script refuses to
    apply it twice (``DUP``: its stored answer is replayed).
    """
    store = services.store
    for attempt in range(MAX_ATTEMPTS):
        stored = first if attempt == 0 and first is not None else store.load(match_id)
        if stored is None:
            raise not_found("match", match_id=match_id)
        if record is not None and attempt > 0:
            replay = record.stored_response(store)
            if replay is not None:
                return Committed(replay)
        committed = attempt_commit(services, stored, plan_change, record)
        if isinstance(committed, Committed):
            return committed
    raise ApiError(503, "unavailable", "the match is too busy; retry", retry=True)


def attempt_commit(
    services: Services,
    stored: StoredMatch,
    plan_change: Callable[[StoredMatch], Plan],
    record: Record | None,
    seat_count: SeatCount | None = None,
) -> Committed | CommitResult:
    """Plan a change of ``stored`` and commit it: Committed, or the
    CommitResult of a commit that did not win (another writer's came first;
    with ``seat_count``, Store.commit's, also a token with no seat or a
    request over its rate limit: nothing was written)."""
    match_id = stored.id
    old_status = stored.doc["status"]
    old_due = due_ms(stored.doc, services.config)  # the plan changes the doc in place
    plan = plan_change(stored)
    if plan.change is None:
        return Committed(plan.response)
    doc = plan.change.doc
    finished_now = _prepare_archive(services, stored, plan.change, old_status)
    deadline = commit_deadline(old_due, doc, services.config)
    result = services.store.commit(match_id, stored.rev, plan.change, deadline, seat_count)
    if result.outcome == "OK":
        if plan.state_after is not None:
            services.states.put(match_id, result.payload, plan.state_after, result.written)
        if plan.on_commit is not None:
            plan.on_commit()
        tokens_moved = bool(plan.new_token_hashes or plan.revoked_token_hashes)
        update_indexes(
            services,
            doc,
            plan.new_token_hashes,
            plan.revoked_token_hashes,
            moved=doc["status"] != old_status or tokens_moved,
        )
        return Committed(plan.response, doc, result, finished_now)
    if result.outcome == "DUP" and record is not None:  # only a request with a record meets one
        result.raise_if_unreplicated()
        return Committed(record.replayed(result.payload))
    return result


def _prepare_archive(services: Services, stored: StoredMatch, change: Change, old_status: str) -> bool:
    """Before committing ``change``: refuse it on an archived match; give a
    finished match's commit its archive record (play/archiving.py); note the
    finish steps' intent before a finishing commit (play/finishing.py).
    Returns whether this commit finishes the match."""
    if stored.archived is not None:
        raise ApiError(
            409, "illegal_action", "the match is archived: it can no longer change", reason="match_archived"
        )
    finished_now = change.doc["status"] == "finished" and old_status != "finished"
    if change.doc["status"] == "finished":
        change.record = record_for_commit(services.store, stored.id, change, not finished_now)
    if finished_now:
        finishing.intend(services, stored.id)
    return finished_now


def create_match_record(
    services: Services, doc: dict, change: Change, new_token_hashes: list[str]
) -> Committed:
    """Commit a new match (fails if the id exists, which random ids make
    unlikely); returns Committed, as ``change_match``."""
    result = services.store.commit(doc["id"], None, change, commit_deadline(None, doc, services.config))
    if result.outcome != "OK":
        raise ApiError(503, "unavailable", "could not allocate a match id; retry")
    update_indexes(services, doc, new_token_hashes)
    return Committed(None, doc, result)


def update_indexes(
    services: Services,
    doc: dict,
    new_token_hashes: Iterable[str] = (),
    revoked_token_hashes: Iterable[str] = (),
    moved: bool = True,
) -> None:
    """The lobby and token indexes after a commit: best effort, never an error.

    The change is already stored, so failing the request now would lie
    ("nothing was changed"). A missed lobby update is repaired by the next
    status change or by the lobby listing. Only a status change or a new
    token moves an index (``moved``).
    """
    if not moved:
        return
    try:
        services.store.after_commit(doc, new_token_hashes, revoked_token_hashes)
    except redis.RedisError:
        log.warning("lobby/token index update failed for match %s", doc["id"], exc_info=True)
