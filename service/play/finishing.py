"""Finish steps: what must take effect exactly once for each finished match.

A finish step is a function ``(services, doc) -> None`` registered here
(``finish_step``); ``doc`` is the finished match's document as stored. Every
registered step runs AT LEAST once per finished match, and each must be
idempotent per match id (a marker written atomically with its effect, on
its own slot): at least once plus idempotent is exactly once.

How "at least once" holds (cluster-safe, one slot per key):

1. just before committing a move that finishes a match, the API writes an
   intent, the match id, into the outbox ``finishing:{<shard>}`` (a sorted
   set by time, keys.finishing_key; its own round trip, so it is stored
   before the commit can be);
2. after the commit, ``play.follow.after_commit`` runs every step inline and,
   if all succeeded, removes the intent;
3. the workers' sweep (service/worker/sweeper.py) takes intents older than
   ``FINISH_RECOVERY_S``: a finished match gets its steps run again and its
   intent removed; an intent whose match did not finish (its commit lost a
   race, or the process died before it) is dropped once ``DROP_AFTER_S``
   old, and one whose match is gone at once.

A step that raises is logged and counted (``tabula_archive{what=
"finish_step_failed"}``); the intent stays, so the sweep retries it (and the
steps that succeeded, which are idempotent).

    @finish_step("ratings.update")
    def update_ratings(services, doc): ...

Steps register when their module is imported: a step defined elsewhere is
imported at the end of this module, so every process that finishes or
sweeps (the API, the workers) has the same registry.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

import redis

from service.accounts.seats import bound_seats
from service.ratings.update import apply_ratings
from service.runtime import metrics
from service.storage import accounts as stored_accounts
from service.storage.keys import FINISHING_SHARDS, finishing_key, finishing_shard_key

if TYPE_CHECKING:
    from service.runtime.services import Services

log = logging.getLogger(__name__)

FinishStep = Callable[["Services", dict], None]

# An intent whose match has not finished this long after is dropped.
DROP_AFTER_S = 120
# Intents one sweep takes from each outbox shard.
RECOVERY_BATCH = 100

_STEPS: dict[str, FinishStep] = {}


def finish_step(name: str) -> Callable[[FinishStep], FinishStep]:
    """Register the decorated function as the finish step ``name`` (once per name)."""

    def register(step: FinishStep) -> FinishStep:
        _STEPS[name] = step
        return step

    return register


def steps() -> dict[str, FinishStep]:
    """The registered steps by name, in registration order."""
    return dict(_STEPS)


def _now_ms() -> int:
    return int(time.time() * 1000)


def intend(services: Services, match_id: str) -> None:
    """Note, before its finishing commit, that ``match_id`` is about to finish."""
    services.redis.zadd(finishing_key(match_id), {match_id: _now_ms()})


def run_steps(services: Services, doc: dict) -> bool:
    """Run every step on finished ``doc``; True when all succeeded."""
    ok = True
    for name, step in _STEPS.items():
        try:
            step(services, doc)
        except Exception:  # one step's failure must not stop the others; the sweep retries
            ok = False
            metrics.archive_event("finish_step_failed")
            log.exception("finish step %s failed for match %s", name, doc["id"])
    return ok


def finish(services: Services, doc: dict) -> bool:
    """Run the steps, then clear the intent if all succeeded; True when done.
    Never raises: the match is committed, the sweep completes what fails."""
    if not run_steps(services, doc):
        return False
    try:
        services.redis.zrem(finishing_key(doc["id"]), doc["id"])
    except redis.RedisError:
        log.warning("finish intent of match %s not cleared (the sweep will)", doc["id"], exc_info=True)
        return False
    return True


def recover(services: Services, now_ms: int | None = None) -> int:
    """The sweep's part: complete the finishes left undone; returns how many."""
    now = _now_ms() if now_ms is None else now_ms
    due_by = now - int(services.config["FINISH_RECOVERY_S"] * 1000)
    pipe = services.redis.pipeline(transaction=False)
    for shard in range(FINISHING_SHARDS):
        pipe.zrangebyscore(
            finishing_shard_key(shard), "-inf", due_by, start=0, num=RECOVERY_BATCH, withscores=True
        )
    done = 0
    for entries in pipe.execute():
        for raw_id, score in entries:
            match_id = raw_id.decode()
            doc = services.store.load_doc(match_id)
            if doc is not None and doc["status"] == "finished":
                if finish(services, doc):
                    done += 1
                    metrics.archive_event("finish_recovered")
            elif doc is None or score < now - DROP_AFTER_S * 1000:
                services.redis.zrem(finishing_key(match_id), match_id)
    return done


@finish_step("accounts.count_finished")
def count_finished(services: Services, doc: dict) -> None:
    """The match counted once in each bound seat's account figures (games
    played and won, the finished index): storage.accounts.count_finished
    is a script that counts a match id once."""
    winners = set((doc.get("result") or {}).get("winners") or ())
    for seat, aid in bound_seats(doc):
        stored_accounts.count_finished(
            services.redis, aid, doc["id"], doc["game"], seat in winners, int(doc.get("updated_ms", 0))
        )


# The ratings update (docs/ratings.md): service.ratings sits below play, so
# its step is registered here. It leaves unrated matches alone.
finish_step("ratings.update")(apply_ratings)
