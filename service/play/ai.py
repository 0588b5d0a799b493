"""AI seats: scheduling RQ jobs for pending AI decisions, and recovering lost ones.

After every commit that leaves an AI decision pending, ``schedule`` enqueues
``play_ai_turn(match_id, version)`` (service/worker/ai_jobs.py) under the job id
``ai-<match>-<version>`` (``unique=True``: a second enqueue of the same
decision is a no-op). The job plays the decision from the seat's view, and
the AI decisions after it for up to ``AI_CHAIN_BUDGET_S``, then schedules
the rest, so a long AI chain never holds one worker for long.

A lost job must not stall a match, and the queue's Redis may lose jobs: a
crash, or a failover of its primary (Sentinel) that loses what the replica
had not received yet (an enqueue, a worker's pop of a job or its
"started" mark). So nothing the queue says is trusted for long:
``recover_if_stalled`` (on every read of a match, and from the workers'
sweep of the deadline index, service/worker/sweeper.py) enqueues the decision
again, at the front of the queue, once the match's version has not moved
for ``AI_STALL_S`` seconds, unless its job is really in hand: still in the
queue's list, or started within ``JOB_TIMEOUT_S`` by a worker whose
heartbeat is fresh. Each worker beats its own heartbeat (a sorted set of
worker names by last beat), so a worker killed in the middle of a job is
noticed within ``WORKER_SEEN_S``; a worker that reconnects drops its old
RQ name at once (service/worker/runner.py).

A second job for the same decision is harmless: a job plays only at the
version it was enqueued for, and each commit carries that version (a
conflict means the decision was made: the job stops).
"""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING, Any

import redis
from rq.exceptions import DuplicateJobError, NoSuchJobError
from rq.job import Job, JobStatus

from service.model.documents import pending_ai_seat
from service.play import deadlines

if TYPE_CHECKING:
    from service.play.commits import Committed
    from service.runtime.services import Services

log = logging.getLogger(__name__)

JOB_TIMEOUT_S = 60
# The job (service/worker/ai_jobs.py), named for RQ: this module, which commits
# import to schedule, does not import the playing code the job runs.
JOB_FUNCTION = "service.worker.ai_jobs.play_ai_turn"
# Worker name -> time of its last heartbeat (epoch seconds), on the queue's Redis.
HEARTBEATS_KEY = "tabula:workers"
# Heartbeats older than this are dropped from the set.
HEARTBEAT_FORGET_S = 3600


def job_id(match_id: str, version: int) -> str:
    return f"ai-{match_id}-{version}"


def schedule(services: Services, doc: dict, at_front: bool = False) -> Job | None:
    """Enqueue the AI decision pending in ``doc``, if any; duplicates are no-ops."""
    if pending_ai_seat(doc) is None:
        return None
    try:
        return services.queue.enqueue(
            JOB_FUNCTION,
            doc["id"],
            doc["version"],
            job_id=job_id(doc["id"], doc["version"]),
            unique=True,
            at_front=at_front,
            job_timeout=JOB_TIMEOUT_S,
            result_ttl=0,
            failure_ttl=24 * 3600,
        )
    except DuplicateJobError:
        return None


def schedule_after_commit(services: Services, committed: Committed) -> None:
    """After a commit: enqueue the AI decision pending in the document it
    committed (``commits.Committed``; none when nothing was). Best effort,
    never an error: the change is stored, and a missed job is found by the
    stall check and the sweeper."""
    if committed.doc is None:
        return
    try:
        schedule(services, committed.doc)
    except redis.RedisError:
        log.warning("could not enqueue the AI decision of match %s", committed.doc["id"], exc_info=True)


def recover_if_stalled(services: Services, doc: dict, now_ms: int | None = None) -> bool:
    """Re-enqueue an AI decision that has not moved for ``AI_STALL_S`` seconds
    (by ``now_ms``, default now)."""
    if pending_ai_seat(doc) is None:
        return False
    idle_ms = (deadlines.now_ms() if now_ms is None else now_ms) - doc["updated_ms"]
    if idle_ms < services.config["AI_STALL_S"] * 1000:
        return False
    jid = job_id(doc["id"], doc["version"])
    try:
        job = Job.fetch(jid, connection=services.rq_redis, serializer=services.queue.serializer)
    except NoSuchJobError:
        job = None  # never enqueued, or lost with the queue's primary
    status = "no job"
    if job is not None:
        if _in_hand(services, job, idle_ms):
            return False
        # Failed, stopped, started by a dead worker, or marked queued but
        # out of the queue's list (a pop the failover kept, its "started"
        # lost): replace it.
        status = job.get_status(refresh=False)
        services.queue.remove(job)
        job.delete()
    log.info("re-enqueueing stalled AI decision %s (its job: %s)", jid, status)
    # At the front: it has waited its turn once already.
    schedule(services, doc, at_front=True)
    return True


def _in_hand(services: Services, job: Job, idle_ms: int) -> bool:
    """True when ``job`` is in the queue's list, or started (within
    ``JOB_TIMEOUT_S``) by a worker that is alive."""
    status = job.get_status(refresh=False)
    if status == JobStatus.QUEUED:
        return services.rq_redis.lpos(services.queue.key, job.id) is not None
    if status != JobStatus.STARTED or idle_ms >= JOB_TIMEOUT_S * 1000:
        return False
    age = worker_beat_age(services, job.worker_name)
    return age is not None and age <= services.config["WORKER_SEEN_S"]


def beat(services: Services, worker_name: str) -> None:
    """Record that ``worker_name`` is alive (read by /readyz and the recovery
    of jobs a dead worker held)."""
    now = time.time()
    pipe = services.rq_redis.pipeline(transaction=False)
    pipe.zadd(HEARTBEATS_KEY, {worker_name: now})
    pipe.zremrangebyscore(HEARTBEATS_KEY, "-inf", now - HEARTBEAT_FORGET_S)
    pipe.execute()


def forget(services: Services, worker_name: str) -> None:
    """A worker that stops cleanly drops its heartbeat at once."""
    services.rq_redis.zrem(HEARTBEATS_KEY, worker_name)


def worker_beat_age(services: Services, worker_name: str | None) -> float | None:
    """Seconds since ``worker_name``'s last heartbeat, or None."""
    if not worker_name:
        return None
    score = services.rq_redis.zscore(HEARTBEATS_KEY, worker_name)
    return None if score is None else time.time() - score


def alive_workers(services: Services, client: Any = None) -> int:
    """How many workers beat within ``WORKER_SEEN_S``."""
    client = client or services.rq_redis
    return client.zcount(HEARTBEATS_KEY, time.time() - services.config["WORKER_SEEN_S"], "+inf")
