"""`python -m service.worker` without Redis: it waits and reconnects, as in
`make run` and in the container, and still stops at once on SIGTERM/SIGINT."""

import os
import signal
import subprocess
import sys
import threading
import time

import pytest
import redis
from rq import Queue
from rq.job import Job
from rq.serializers import JSONSerializer

from launcher.redis_process import RedisProcess, free_port
from service.play import ai
from service.worker import archive, sweeper
from service.worker import runner as worker

from .stack import ROOT

# Left out by `make test-fast` (-m "not slow"): starts a whole stack.
pytestmark = pytest.mark.slow


class WorkerProcess:
    def __init__(self, tmp_path, redis_url):
        env = {
            **os.environ,
            "REDIS_URL": redis_url,
            "SWEEP_S": "0.5",
            "PYTHONUNBUFFERED": "1",
            "LOGLEVEL": "INFO",
        }
        env.pop("RQ_REDIS_URL", None)
        self.log_path = tmp_path / f"worker-{time.monotonic_ns()}.log"
        with open(self.log_path, "wb") as log:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "service.worker"],
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )

    def log(self):
        return self.log_path.read_text(errors="replace")

    def stop(self, signum=signal.SIGTERM, timeout=10):
        """Send ``signum``; returns ``(exit status, seconds it took)``."""
        started = time.monotonic()
        self.proc.send_signal(signum)
        status = self.proc.wait(timeout=timeout)
        return status, time.monotonic() - started

    def close(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


@pytest.fixture
def spawn_worker(tmp_path):
    started = []

    def spawn(redis_url):
        proc = WorkerProcess(tmp_path, redis_url)
        started.append(proc)
        return proc

    yield spawn
    for proc in started:
        proc.close()


def _wait(predicate, timeout, message):
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, message()
        time.sleep(0.1)


def _registered(client):
    """Names of the RQ workers registered in ``client``'s Redis."""
    return {name.decode().rsplit(":", 1)[-1] for name in client.smembers("rq:workers")}


def _finishes_a_job(client, log):
    """Enqueue a job (an AI decision for a match that does not exist: a no-op)
    and wait until a worker has run it."""
    queue = Queue("ai", connection=client, serializer=JSONSerializer)
    job = queue.enqueue("service.worker.ai_jobs.play_ai_turn", "no-such-match", 0, result_ttl=60)
    _wait(
        lambda: Job.fetch(job.id, connection=client, serializer=JSONSerializer).get_status() == "finished",
        20,
        lambda: f"the job did not run:\n{log()}",
    )


def test_worker_waits_for_redis_at_start_up(spawn_worker):
    port = free_port()
    proc = spawn_worker(f"redis://127.0.0.1:{port}/0")
    # One line per attempt; waited for, not slept on: a loaded machine takes
    # seconds just to import the worker.
    _wait(lambda: proc.log().count("Redis unreachable") >= 2, 30, proc.log)
    assert proc.proc.poll() is None, proc.log()  # it used to exit at once
    with RedisProcess(port=port) as server:
        client = redis.Redis.from_url(server.url)
        _wait(lambda: _registered(client), 15, proc.log)
        _finishes_a_job(client, proc.log)
        status, took = proc.stop(signal.SIGINT)
        assert status == 0 and took < 5, proc.log()


def test_worker_stops_at_once_while_waiting_for_redis(spawn_worker):
    proc = spawn_worker(f"redis://127.0.0.1:{free_port()}/0")
    # In its wait for Redis, not still importing (a slept 1.5 s was not
    # enough on a loaded machine: SIGTERM came before its handler, status -15).
    _wait(lambda: "Redis unreachable" in proc.log(), 30, proc.log)
    status, took = proc.stop(signal.SIGTERM)
    assert status == 0 and took < 3, proc.log()


def test_worker_reconnects_after_redis_restarts(spawn_worker, tmp_path):
    server = RedisProcess(persist_dir=tmp_path / "redis").start()
    try:
        proc = spawn_worker(server.url)
        client = redis.Redis.from_url(server.url)
        _wait(lambda: _registered(client), 15, proc.log)
        (name,) = _registered(client)
        # The heartbeat is the RQ worker's own name (recovery of its jobs).
        _wait(lambda: client.exists(ai.HEARTBEATS_KEY), 10, proc.log)
        assert client.zscore(ai.HEARTBEATS_KEY, name) is not None

        # Redis dies while the worker runs a job (RQ then gives up its loop).
        Queue("ai", connection=client, serializer=JSONSerializer).enqueue("time.sleep", 2)
        _wait(lambda: "ai: time.sleep(2)" in proc.log(), 10, proc.log)
        server.proc.kill()  # SIGKILL
        server.proc.wait()
        time.sleep(3)
        assert proc.proc.poll() is None, proc.log()  # it used to exit
        server = RedisProcess(port=server.port, persist_dir=tmp_path / "redis").start()
        client = redis.Redis.from_url(server.url)
        _finishes_a_job(client, proc.log)
        status, took = proc.stop(signal.SIGTERM)  # warm shutdown
        assert status == 0 and took < 5, proc.log()
        log = proc.log()
        assert f"RQ worker {name} stopped" in log and "Redis is reachable again" in log, log
        assert "warm shut down requested" in log
    finally:
        server.stop()


def test_sweeper_beats_with_the_rq_worker_name(monkeypatch):
    beats, sweeps = [], []
    monkeypatch.setattr(ai, "beat", lambda services, name: beats.append((services, name)))
    monkeypatch.setattr(sweeper, "sweep", lambda services: sweeps.append(services))
    monkeypatch.setattr(sweeper, "backfill_deadlines", lambda services: 0)
    monkeypatch.setattr(archive, "migrate_once", lambda services: 0)
    services, stop, status = object(), threading.Event(), worker._Status()
    status.worker_name = "3f2a-worker"
    thread = threading.Thread(target=worker._sweeper, args=(services, 0.01, stop, status))
    thread.start()
    time.sleep(0.2)
    status.worker_name = None  # between two RQ workers (Redis lost): no beat
    time.sleep(0.05)
    count = len(beats)
    time.sleep(0.1)
    stop.set()
    thread.join(5)
    assert beats and set(beats) == {(services, "3f2a-worker")}
    assert len(beats) == count
    assert len(sweeps) > count
