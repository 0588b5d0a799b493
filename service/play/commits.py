"""The optimistic write loop every change of a match goes through.

An operation reads the match, plans a change from what it read, and commits
it with the revision it read (the Lua compare-and-set in storage.py). If
another writer got there first, the plan is rebuilt from the fresh match: a
stale client ``version`` then fails in the plan (409), a retry without one is
simply re-planned.
"""

import logging
from dataclasses import dataclass, field

import redis

from service.model.errors import ApiError, not_found
from service.play import ai
from service.play.deadlines import commit_deadline, due_ms
from service.storage.records import Change

log = logging.getLogger(__name__)

MAX_ATTEMPTS = 25


@dataclass
class Plan:
    """What to write (``change``, None for a read-only answer) and what to answer."""

    response: object
    change: Change | None = None
    new_token_hashes: list = field(default_factory=list)
    revoked_token_hashes: list = field(default_factory=list)
    on_duplicate: object = None  # callable(stored idempotency value) -> response
    # The engine state ``change`` stores, kept in this process's cache once
    # committed (the next move of the match then skips loading it).
    state_after: object = None
    on_commit: object = None  # called once this plan's commit won (metrics)


def change_match(services, match_id, plan_change, schedule_ai=True, first=None):
    """Run ``plan_change(stored) -> Plan`` until its commit wins; return the response.

    ``first``: the match as the caller already read it, used for the first
    attempt instead of reading it again.
    """
    store = services.store
    for attempt in range(MAX_ATTEMPTS):
        stored = first if attempt == 0 and first is not None else store.load(match_id)
        if stored is None:
            raise not_found("match", match_id=match_id)
        old_status = stored.doc["status"]
        old_due = due_ms(stored.doc, services.config)  # the plan changes the doc in place
        plan = plan_change(stored)
        if plan.change is None:
            return plan.response
        doc = plan.change.doc
        result = store.commit(
            match_id, stored.rev, plan.change, commit_deadline(old_due, doc, services.config)
        )
        if result.outcome == "OK":
            if plan.state_after is not None:
                services.states.put(match_id, result.payload, plan.state_after)
            if plan.on_commit is not None:
                plan.on_commit()
            tokens_moved = bool(plan.new_token_hashes or plan.revoked_token_hashes)
            after_commit(
                services,
                doc,
                plan.new_token_hashes,
                schedule_ai,
                indexes=doc["status"] != old_status or tokens_moved,
                revoked_token_hashes=plan.revoked_token_hashes,
            )
            result.raise_if_unreplicated()  # REDIS_WAIT_REPLICAS: 503 after the indexes
            return plan.response
        if result.outcome == "DUP":
            result.raise_if_unreplicated()
            return plan.on_duplicate(result.payload)
    raise ApiError(503, "unavailable", "the match is too busy; retry", retry=True)


def create_match_record(services, doc, change, new_token_hashes):
    """Commit a new match (fails if the id exists, which random ids make unlikely)."""
    result = services.store.commit(doc["id"], None, change, commit_deadline(None, doc, services.config))
    if result.outcome != "OK":
        raise ApiError(503, "unavailable", "could not allocate a match id; retry")
    after_commit(services, doc, new_token_hashes)
    result.raise_if_unreplicated()


def after_commit(services, doc, new_token_hashes=(), schedule_ai=True, indexes=True, revoked_token_hashes=()):
    """Indexes and AI scheduling after a commit: best effort, never an error.

    The change is already stored, so failing the request now would lie
    ("nothing was changed"). A missed lobby update is repaired by the next
    status change or by the lobby listing; a missed AI job by the stall
    check and the sweeper.
    """
    try:
        if indexes:  # only a status change or a new token moves an index
            services.store.after_commit(doc, new_token_hashes, revoked_token_hashes)
    except redis.RedisError:
        log.warning("lobby/token index update failed for match %s", doc["id"], exc_info=True)
    if not schedule_ai:
        return
    try:
        ai.schedule(services, doc)
    except redis.RedisError:
        log.warning("could not enqueue the AI decision of match %s", doc["id"], exc_info=True)
