"""``python -m service.worker``: an RQ worker for AI decisions, plus the sweeper.

Reads ``REDIS_URL`` (in ``REDIS_MODE``) and ``RQ_REDIS_URL`` (default:
``REDIS_URL``; standalone or Sentinel, a cluster is refused), uses the
JSON serializer and listens on the ``AI_QUEUE`` queue (default ``ai``). A
background thread beats this worker's heartbeat (``ai.beat`` with the RQ
worker's name: /readyz counts live workers, and a job held by a worker whose
heartbeat went stale is given to another) and sweeps the matches that are
due every ``SWEEP_S`` seconds (default 1) for stalled AI decisions and
turn timers that ran out (service/worker/sweeper.py; a sweep costs O(due)).
Another thread runs the seek pools' pairing waves (service/meet/waves.py).

Redis unreachable, at start-up or later, does not end the process: it waits
and reconnects, 0.5 s after the first failure and then twice as long each
time up to ``RECONNECT_MAX_S`` (5 s), one log line per attempt (RQ's own
lines while it waits for a job, ours otherwise); each connection registers
a new RQ worker (a new name) and drops the old name's heartbeat, so a job
the old one held is recovered.
SIGINT/SIGTERM give RQ's warm shutdown (the current job finishes, then the
process exits 0), and stop a wait for Redis at once; a second signal while a
job runs is RQ's cold shutdown.

``TABULA_WORKER_CLASS=fork`` uses RQ's forking ``Worker`` (a crashing job
cannot take the worker down) instead of the default in-process
``SimpleWorker`` (no fork per job: the engine is imported once; AI jobs are
short and pure Python).
"""

import logging
import os
import signal
import threading
import time
from collections.abc import Callable
from typing import Any

import redis
from rq import SimpleWorker, Worker
from rq.serializers import JSONSerializer

import engine  # noqa: F401  (imported once, before any job: games register here)
from service.meet import waves
from service.play import ai
from service.runtime import heap, logs, metrics
from service.runtime.config import load_config
from service.runtime.services import Services
from service.storage import redis_modes, targets
from service.worker import ai_jobs, archive, sweeper

log = logging.getLogger("service.worker")

RECONNECT_FIRST_S = 0.5
RECONNECT_MAX_S = 5.0


class _StopAware:
    """An RQ worker that also tells ``main`` a stop was asked for.

    RQ's ``work()`` returns the same way on a stop request and when it gives
    up on Redis; ``main`` must only reconnect in the second case.
    """

    stop_event: Any = None  # a threading.Event, set per instance by build_worker

    def request_stop(self, signum: int, frame: Any) -> None:
        self.stop_event.set()
        super().request_stop(signum, frame)  # type: ignore[misc]  # RQ's Worker, after this mixin

    def _install_signal_handlers(self) -> None:
        super()._install_signal_handlers()  # type: ignore[misc]
        if self.stop_event.is_set():  # a signal came during RQ's start-up
            self._stop_requested = True

    def execute_job(self, job: Any, queue: Any) -> Any:
        """Count the job's wait in the queue; bind its id and match id (a
        webhook job's: account id) to every log line while it runs."""
        metrics.job_picked_up(job.enqueued_at)
        args = job.args or ()
        # A webhook job's first argument is the account's id, an AI job's the match's.
        key = "account_id" if job.func_name.startswith("service.worker.webhook_jobs") else "match_id"
        tokens = logs.bind(job_id=job.id, **{key: args[0] if args else None})
        try:
            return super().execute_job(job, queue)  # type: ignore[misc]
        finally:
            logs.unbind(tokens)


class TabulaSimpleWorker(_StopAware, SimpleWorker):
    pass


class TabulaForkWorker(_StopAware, Worker):
    pass


class _Status:
    """What the sweeper thread needs from the main thread: the name of the
    RQ worker that is working now (None while waiting for Redis)."""

    def __init__(self) -> None:
        self.worker_name = None


# What the webhook worker (webhook_worker.py) shares of this module.
Status = _Status


def _sweeper(services: Services, interval_s: float, stop: threading.Event, status: _Status) -> None:
    """Beat ``status.worker_name``'s heartbeat and sweep due matches, every
    ``interval_s`` (the first time at once); one log line per outage."""
    backfilled = False
    failing = False
    while not stop.is_set():
        try:
            name = status.worker_name
            if name is not None:
                ai.beat(services, name)
            if not backfilled:
                sweeper.backfill_deadlines(services)
                archive.migrate_once(services)  # records for matches finished before they existed
                backfilled = True
            sweeper.sweep(services)
            if failing:
                log.info("sweeper: storage reachable again")
            failing = False
        except redis.RedisError as exc:
            if not failing:
                log.warning("sweeper: storage unreachable (%s); trying again every %.1f s", exc, interval_s)
            failing = True
        except Exception:  # the sweeper must outlive one bad match
            log.exception("sweep failed")
        stop.wait(interval_s)


WAVE_POLL_S = 0.25


def _waves(services: Services, stop: threading.Event) -> None:
    """Run the pairing waves of the pools whose turn it is (service/meet/waves.py:
    a lock per pool lets one worker run each wave, one ``SEEK_WAVE_S`` apart)."""
    me = f"{os.uname().nodename}:{os.getpid()}"
    failing = False
    while not stop.is_set():
        try:
            waves.run_waves(services, me)
            failing = False
        except redis.RedisError as exc:
            if not failing:
                log.warning("waves: storage unreachable (%s)", exc)
            failing = True
        except Exception:  # the wave thread must outlive one bad wave
            log.exception("pairing wave failed")
        stop.wait(WAVE_POLL_S)


def build_worker(services: Services, stop_event: threading.Event | None = None, hooks: bool = False) -> Any:
    """An RQ worker on the AI queue, or with ``hooks`` on the webhook queue."""
    cls = TabulaForkWorker if os.environ.get("TABULA_WORKER_CLASS") == "fork" else TabulaSimpleWorker
    queue = services.webhook_queue if hooks else services.queue
    worker = cls([queue], connection=services.rq_redis, serializer=JSONSerializer)
    worker.stop_event = stop_event or threading.Event()
    # RQ's own wait while Redis is away from its blocking dequeue.
    worker.max_connection_wait_time = RECONNECT_MAX_S
    return worker


def _install_stop_handlers(stop: threading.Event) -> None:
    """Outside RQ's ``work()``: SIGINT/SIGTERM only set ``stop``."""

    def handler(signum: int, frame: Any) -> None:
        stop.set()

    signal.signal(signal.SIGINT, handler)
    signal.signal(signal.SIGTERM, handler)


install_stop_handlers = _install_stop_handlers


def _sleep(stop: threading.Event, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while not stop.is_set() and time.monotonic() < deadline:
        time.sleep(min(0.1, max(0.0, deadline - time.monotonic())))


def wait_for_redis(services: Services, stop: threading.Event, delay: float = RECONNECT_FIRST_S) -> bool:
    """Block until the queue's Redis answers PING (True) or ``stop`` is set (False)."""
    attempt = 0
    while not stop.is_set():
        try:
            services.rq_redis.ping()
            redis_modes.refuse_cluster_queue(services.rq_redis)
            if attempt:
                log.info("Redis is reachable again after %d attempts", attempt + 1)
            return True
        except redis.RedisError as exc:
            attempt += 1
            log.warning("Redis unreachable (%s): attempt %d, next in %.1f s", exc, attempt, delay)
            _sleep(stop, delay)
            delay = min(delay * 2, RECONNECT_MAX_S)
    return False


def _beat_now(services: Services, name: str, hooks: bool = False) -> None:
    """A first heartbeat without waiting for the sweeper's next round (AI
    workers only: /readyz counts those)."""
    if hooks:
        return
    try:
        ai.beat(services, name)
    except redis.RedisError:
        pass  # RQ's start-up will say what is wrong


def _forget(services: Services, name: str) -> None:
    try:
        ai.forget(services, name)
    except redis.RedisError:
        pass  # the heartbeat goes stale by itself


def _run_worker(worker: Any, stop: threading.Event, logging_level: str, hooks: bool) -> Exception | None:
    """One RQ worker's loop; the Redis error that ended it, or None."""
    try:
        # The webhook worker's scheduler promotes the retries (enqueue_in).
        worker.work(with_scheduler=hooks, logging_level=logging_level)
    except (redis.ConnectionError, redis.TimeoutError) as exc:
        # From RQ's start-up or its clean-up: Redis went away meanwhile.
        return exc
    finally:
        _install_stop_handlers(stop)  # work() had replaced them
        if getattr(worker, "pubsub_thread", None) is not None:
            worker.pubsub_thread.stop()  # RQ's clean-up may not have got that far
    return None


def work(
    services: Services,
    stop: threading.Event,
    status: _Status,
    logging_level: str = "INFO",
    hooks: bool = False,
) -> None:
    """Run RQ workers until ``stop``: a new one each time RQ's loop ends
    without a stop request (it gives up on Redis errors outside its wait for
    a job: a timeout, a connection lost during a job or its clean-up)."""
    pause = RECONNECT_FIRST_S
    worker = None
    while wait_for_redis(services, stop):
        if worker is not None:
            # The last RQ worker is gone: a job it had started is nobody's
            # now (ai.recover_if_stalled gives it to another at once, not
            # after its heartbeat goes stale).
            _forget(services, worker.name)
        worker = build_worker(services, stop, hooks)
        status.worker_name = worker.name
        _beat_now(services, worker.name, hooks)
        started = time.monotonic()
        try:
            error = _run_worker(worker, stop, logging_level, hooks)
        finally:
            status.worker_name = None
        if stop.is_set():
            _forget(services, worker.name)
            return
        if time.monotonic() - started > 60:
            pause = RECONNECT_FIRST_S
        log.warning(
            "RQ worker %s stopped (%s): a new one in %.1f s",
            worker.name,
            error or "its work loop ended, see above",
            pause,
        )
        _sleep(stop, pause)
        pause = min(pause * 2, RECONNECT_MAX_S)


def start_services(bind: Callable[[Services], None]) -> tuple[str, Services] | None:
    """A worker process's logging, config and Services (``bind`` hands them
    to its jobs); None after logging bad Redis settings."""
    level = os.environ.get("LOGLEVEL", "INFO")
    # LOG_FORMAT: JSON lines (default) or console; under `make run` each line
    # names its program (SUPERVISOR_PROCESS_NAME).
    logs.configure(level=level)
    try:
        config = load_config()
    except targets.ConfigError as exc:
        log.error("bad Redis settings: %s", exc)
        return None
    metrics.configure(config["METRICS"])
    services = Services(config, worker=True)
    bind(services)
    heap.settle()
    return level, services


def run_until_stopped(
    services: Services, stop: threading.Event, status: _Status, level: str, hooks: bool = False
) -> int:
    """``work`` until a stop request; the process's exit status."""
    try:
        work(services, stop, status, logging_level=level, hooks=hooks)
    except targets.ConfigError as exc:
        log.error("bad Redis settings: %s", exc)
        return 2
    finally:
        stop.set()
    log.info("stopped")
    return 0


def main() -> int:
    started = start_services(ai_jobs.bind)
    if started is None:
        return 2
    level, services = started
    metrics.serve_worker_metrics(os.environ.get("WORKER_METRICS_PORT"))
    stop = threading.Event()
    _install_stop_handlers(stop)
    status = _Status()
    # Turn timers fire within one period of their deadline.
    interval = float(os.environ.get("SWEEP_S", "1"))
    thread = threading.Thread(target=_sweeper, args=(services, interval, stop, status), daemon=True)
    thread.start()
    threading.Thread(target=_waves, args=(services, stop), daemon=True).start()
    return run_until_stopped(services, stop, status, level)
