"""AI seats: RQ jobs play pending AI decisions until a human must decide.

After every commit that leaves an AI decision pending, ``schedule`` enqueues
``play_ai_turn(match_id, version)`` under the job id ``ai-<match>-<version>``
(``unique=True``: a second enqueue of the same decision is a no-op). The job
asks the seat's AI player for a choice from that seat's *view* and legal
actions (never the state) and submits it through ``playing.submit_action``
with the version it decided at, like any client. It goes on with the next
AI decision for up to ``AI_CHAIN_BUDGET_S``, then enqueues a job for the
rest, so a long AI chain never holds one worker for long.

A lost job must not stall a match, and the queue's Redis may lose jobs: a
crash, or a failover of its primary (Sentinel) that loses what the replica
had not received yet (an enqueue, a worker's pop of a job or its
"started" mark). So nothing the queue says is trusted for long:
``recover_if_stalled`` (on every read of a match, and from the workers'
sweep of the deadline index, service/sweeper.py) enqueues the decision
again, at the front of the queue, once the match's version has not moved
for ``AI_STALL_S`` seconds, unless its job is really in hand: still in the
queue's list, or started within ``JOB_TIMEOUT_S`` by a worker whose
heartbeat is fresh. Each worker beats its own heartbeat (a sorted set of
worker names by last beat), so a worker killed in the middle of a job is
noticed within ``WORKER_SEEN_S``; a worker that reconnects drops its old
RQ name at once (service/worker.py).

A second job for the same decision is harmless: a job plays only at the
version it was enqueued for, and each commit carries that version (a
conflict means the decision was made: the job stops).

Seeds derive from the match seed, the version and the seat, so AI choices
are reproducible.
"""

import logging
import time

from rq.exceptions import DuplicateJobError, NoSuchJobError
from rq.job import Job, JobStatus

import engine
from engine.rng import mix_seed

from . import deadlines, metrics
from .documents import pending_ai_seat, view_for
from .errors import ApiError

log = logging.getLogger(__name__)

JOB_TIMEOUT_S = 60
# Worker name -> time of its last heartbeat (epoch seconds), on the queue's Redis.
HEARTBEATS_KEY = "tabula:workers"
# Heartbeats older than this are dropped from the set.
HEARTBEAT_FORGET_S = 3600

# The worker process binds its Services here at start-up (see worker.py).
_bound = {}


def bind(services):
    """Make ``services`` the ones jobs of this process use."""
    _bound["services"] = services


def _services():
    if "services" not in _bound:
        from .config import load_config  # noqa: PLC0415
        from .context import Services  # noqa: PLC0415

        bind(Services(load_config()))
    return _bound["services"]


def job_id(match_id, version):
    return f"ai-{match_id}-{version}"


def schedule(services, doc, at_front=False):
    """Enqueue the AI decision pending in ``doc``, if any; duplicates are no-ops."""
    if pending_ai_seat(doc) is None:
        return None
    try:
        return services.queue.enqueue(
            "service.ai.play_ai_turn", doc["id"], doc["version"],
            job_id=job_id(doc["id"], doc["version"]), unique=True, at_front=at_front,
            job_timeout=JOB_TIMEOUT_S, result_ttl=0, failure_ttl=24 * 3600,
        )
    except DuplicateJobError:
        return None


def recover_if_stalled(services, doc, now_ms=None):
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


def _in_hand(services, job, idle_ms):
    """True when ``job`` is in the queue's list, or started (within
    ``JOB_TIMEOUT_S``) by a worker that is alive."""
    status = job.get_status(refresh=False)
    if status == JobStatus.QUEUED:
        return services.rq_redis.lpos(services.queue.key, job.id) is not None
    if status != JobStatus.STARTED or idle_ms >= JOB_TIMEOUT_S * 1000:
        return False
    age = worker_beat_age(services, job.worker_name)
    return age is not None and age <= services.config["WORKER_SEEN_S"]


def chooser(seat):
    """The AI's decision function for ``seat``, called on the state the commit
    is checked against; a human seat (its turn timed out) gets ``medium``."""

    def choose(game, doc, state):
        view = view_for(game, doc, state, seat)
        actions = game.legal_actions(state, seat)
        level = doc["seats"][seat]["level"] or "medium"
        player = engine.ai.get_player(level)
        with metrics.ai_decision(game.id, level):
            return player.choose(game, seat, view, actions, seed=mix_seed(doc["seed"], doc["version"], seat))

    return choose


def play_ai_turn(match_id, version):
    """RQ job: play the AI decision pending at ``version``, and the ones after it.

    Consecutive AI decisions are played in this job for up to
    ``AI_CHAIN_BUDGET_S`` seconds (one RQ job costs dozens of Redis round
    trips; an AI decision costs two), each committed separately with its
    version check; then the next pending AI decision, if any, is enqueued.
    """
    from .playing import Submission, submit_action  # noqa: PLC0415  (playing -> commits -> ai)

    services = _services()
    deadline = time.monotonic() + services.config["AI_CHAIN_BUDGET_S"]
    outcome = "stale"
    doc = services.store.load_doc(match_id)
    while doc is not None and doc["version"] == version:
        seat = pending_ai_seat(doc)
        if seat is None or time.monotonic() > deadline:
            schedule(services, doc)
            break
        submission = Submission(seat, version=version, choose=chooser(seat),
                                respond=False, schedule_ai=False)
        try:
            # The committed document is the match now, unless someone wrote
            # after us; then the next commit's version check says so.
            doc = submit_action(services, match_id, submission)["doc"]
            version = doc["version"]
            outcome = "played"
        except ApiError as error:
            # Someone else moved first (a resign, a join...): the newer version
            # has its own job. Anything else is a bug worth a log line.
            level = logging.INFO if error.code == "version_conflict" else logging.ERROR
            log.log(level, "AI move in %s at v%s refused: %s", match_id, version, error.code)
            return error.code
    return outcome


def beat(services, worker_name):
    """Record that ``worker_name`` is alive (read by /readyz and the recovery
    of jobs a dead worker held)."""
    now = time.time()
    pipe = services.rq_redis.pipeline(transaction=False)
    pipe.zadd(HEARTBEATS_KEY, {worker_name: now})
    pipe.zremrangebyscore(HEARTBEATS_KEY, "-inf", now - HEARTBEAT_FORGET_S)
    pipe.execute()


def forget(services, worker_name):
    """A worker that stops cleanly drops its heartbeat at once."""
    services.rq_redis.zrem(HEARTBEATS_KEY, worker_name)


def worker_beat_age(services, worker_name):
    """Seconds since ``worker_name``'s last heartbeat, or None."""
    if not worker_name:
        return None
    score = services.rq_redis.zscore(HEARTBEATS_KEY, worker_name)
    return None if score is None else time.time() - score


def alive_workers(services, client=None):
    """How many workers beat within ``WORKER_SEEN_S``."""
    client = client or services.rq_redis
    return client.zcount(HEARTBEATS_KEY, time.time() - services.config["WORKER_SEEN_S"], "+inf")
