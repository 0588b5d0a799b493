"""The harness every HTTP benchmark of bench/ shares: servers, load, CPU.

- ``Gunicorn`` starts the service (or ``bench.trivial_app``) under
  ``deploy/gunicorn.conf.py`` on a free port and waits until every worker is
  up; ``unlimited_env`` is the service's environment with rate limits off
  (the benchmark is not abuse).
- ``Phase`` runs N client threads of one kind (``bench.move_clients``)
  against one server in rounds, each client keeping one keep-alive ``Http``
  connection, a ``Recorder`` of latencies and a shared ``Budget`` (a
  deadline and a request count); ``run_interleaved`` alternates the rounds
  of several phases so a shared machine's background load hits them alike;
  ``summarize`` turns the recorders into count, rate, p50/p99 and errors.
- ``CpuMeter`` counts the CPU seconds of the server's process tree, of
  redis-server and of this process over each round (psutil): throughput on
  a shared machine moves with everyone else's load, CPU per request much
  less, and it shows where a request's cost goes.
"""

import http.client
import os
import shutil
import subprocess
import tempfile
import threading
import time
from pathlib import Path

import orjson
import psutil

from launcher.redis_process import free_port
from launcher.supervision import gunicorn_command

from .redis_counts import RedisCounts

ROOT = Path(__file__).resolve().parent.parent
UNLIMITED = str(10**9)


def unlimited_env(**settings):
    """This process's environment, rate limits off, plus ``settings``."""
    return dict(os.environ, RATE_LIMIT=UNLIMITED, CREATE_RATE_LIMIT=UNLIMITED, **settings)


class Http:
    """One keep-alive connection; reconnects once when the server closed it."""

    def __init__(self, port):
        self.port = port
        self.conn = None

    def call(self, method, path, body=None, token=None, parse=True):
        """``(status, decoded body, seconds)``; the body stays undecoded
        (bytes) when ``parse`` is False."""
        payload = orjson.dumps(body) if body is not None else None
        headers = {"Content-Type": "application/json"} if payload is not None else {}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        for attempt in (1, 2):
            if self.conn is None:
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
            started = time.perf_counter()
            try:
                self.conn.request(method, path, payload, headers)
                response = self.conn.getresponse()
                data = response.read()
            except (http.client.RemoteDisconnected, ConnectionError):
                # An idle keep-alive connection closed by the server: the
                # request was not processed, so sending it again is safe
                # (and a move carries its version, so it can never apply twice).
                self.conn.close()
                self.conn = None
                if attempt == 2:
                    raise
                continue
            elapsed = time.perf_counter() - started
            if response.will_close:
                self.conn.close()
                self.conn = None
            if parse and data:
                data = orjson.loads(data)
            return response.status, data or None, elapsed
        raise AssertionError("unreachable")


class Recorder:
    """Latencies of counted requests by kind, plus errors; one per client thread."""

    def __init__(self, count_from):
        self.count_from = count_from
        self.latencies = {}
        self.errors = {}

    def add(self, kind, started, seconds, ok=True):
        if started < self.count_from:
            return
        if ok:
            self.latencies.setdefault(kind, []).append(seconds)
        else:
            self.errors[kind] = self.errors.get(kind, 0) + 1


class Budget:
    """Shared stop condition: a deadline and a request count."""

    def __init__(self, deadline, max_requests):
        self.deadline = deadline
        self._left = max_requests
        self._lock = threading.Lock()

    def take(self):
        if time.monotonic() >= self.deadline:
            return False
        with self._lock:
            self._left -= 1
            return self._left >= 0


def process_tree(pid):
    """``pid`` and its descendants, e.g. gunicorn's master and workers."""
    try:
        process = psutil.Process(pid)
        return [pid, *(child.pid for child in process.children(recursive=True))]
    except psutil.NoSuchProcess:
        return [pid]


def cpu_seconds(pids):
    """User + system CPU seconds used so far by ``pids`` (those still running)."""
    total = 0.0
    for pid in pids:
        try:
            times = psutil.Process(pid).cpu_times()
        except psutil.NoSuchProcess:
            continue
        total += times.user + times.system
    return total


def rss_kb(pids):
    """Resident memory of ``pids`` (those still running), in KB."""
    total = 0
    for pid in pids:
        try:
            total += psutil.Process(pid).memory_info().rss // 1024
        except psutil.NoSuchProcess:
            continue
    return total


class CpuMeter:
    """CPU used by the server under test, redis-server and this client, per phase.

    Throughput on a shared machine moves with everyone else's load; CPU
    seconds per request do much less, and show where a request's cost goes.
    """

    def __init__(self, server_pid, redis_pid):
        self.server_pids = process_tree(server_pid)
        # One redis-server, or several (a cluster's nodes: scaleout_bench.py).
        self.redis_pids = list(redis_pid) if isinstance(redis_pid, (list, tuple)) else [redis_pid]
        self.used = {"server": 0.0, "redis": 0.0, "client": 0.0}

    def _sample(self):
        return {
            "server": cpu_seconds(self.server_pids),
            "redis": cpu_seconds(self.redis_pids),
            "client": time.process_time(),
        }

    def measure(self, run):
        before = self._sample()
        run()
        after = self._sample()
        for key in self.used:
            self.used[key] += after[key] - before[key]


class Gunicorn:
    """A gunicorn child process with deploy/gunicorn.conf.py (``conf``: another
    one) on a free port, started in ``cwd`` (this checkout by default), which
    ``python -m`` puts first on the path: the app is imported from there."""

    def __init__(self, app, env, args, extra=(), log=None, cwd=ROOT, conf=None):
        self.port = free_port()
        self.workers = args.workers
        self.ready_dir = tempfile.mkdtemp(prefix="tabula-bench-ready-")
        env = dict(
            env,
            TABULA_BIND=f"127.0.0.1:{self.port}",
            WEB_CONCURRENCY=str(args.workers),
            GUNICORN_THREADS=str(args.threads),
            GUNICORN_ACCESSLOG="off",
            GUNICORN_MAX_REQUESTS="0",
            GUNICORN_LOGLEVEL="warning",
            GUNICORN_READY_DIR=self.ready_dir,
        )
        command = gunicorn_command(app, *extra)
        if conf is not None:
            command[command.index("-c") + 1] = str(conf)
        self.proc = subprocess.Popen(command, cwd=cwd, env=env, stdout=log, stderr=log)

    def wait_healthy(self, timeout=60):
        """Wait until every worker has loaded the app (see post_worker_init in
        deploy/gunicorn.conf.py) and /healthz answers. Clients that connected
        while only the first worker was up would all stay on it (keep-alive):
        the phase would measure one worker where the other phase has two."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"gunicorn exited with status {self.proc.returncode}")
            try:
                if (
                    len(os.listdir(self.ready_dir)) >= self.workers
                    and Http(self.port).call("GET", "/healthz")[0] == 200
                ):
                    return self
            except OSError:
                pass
            time.sleep(0.2)
        raise RuntimeError("gunicorn did not answer /healthz with every worker up")

    def stop(self):
        self.proc.terminate()
        try:
            self.proc.wait(30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        shutil.rmtree(self.ready_dir, ignore_errors=True)


class Phase:
    """N clients of one kind against one server, run in rounds; with
    ``redis_ports``, the commands and round trips its Redis servers saw
    (bench/redis_counts.py)."""

    def __init__(self, client_class, server, redis_pid, args, redis_ports=None):
        self.recorders = [Recorder(float("inf")) for _ in range(args.clients)]
        self.clients = [client_class(server.port, self.recorders[i], i, args) for i in range(args.clients)]
        self.counted_s = 0.0
        self.cpu = CpuMeter(server.proc.pid, redis_pid)
        self.redis_counts = RedisCounts(redis_ports) if redis_ports else None

    def run_round(self, warmup, duration, max_requests):
        start = time.monotonic()
        for recorder in self.recorders:
            recorder.count_from = start + warmup
        budget = Budget(start + warmup + duration, max_requests)
        threads = [threading.Thread(target=client.run, args=(budget,)) for client in self.clients]
        for thread in threads:
            thread.start()
        # CPU is counted from the end of the warm-up, like the requests, so a
        # worker's one-off start-up work (imports, schemas) is not in it.
        time.sleep(max(0.0, start + warmup - time.monotonic()))

        def rest_of_round():
            for thread in threads:
                thread.join()

        if self.redis_counts is None:
            self.cpu.measure(rest_of_round)
        else:
            self.redis_counts.measure(lambda: self.cpu.measure(rest_of_round))
        self.counted_s += time.monotonic() - (start + warmup)

    def counted(self):
        """Counted requests of every kind the phase sends, refused ones included."""
        return sum(sum(map(len, r.latencies.values())) + sum(r.errors.values()) for r in self.recorders)

    def cpu_ms_per_request(self):
        """``{"server", "redis", "client"}`` CPU milliseconds per counted request
        (of every kind the phase sends)."""
        counted = self.counted() or 1
        return {key: round(1000 * used / counted, 3) for key, used in self.cpu.used.items()}

    def redis_per_request(self):
        """``RedisCounts.per_request`` of the counted requests; None without ``redis_ports``."""
        return None if self.redis_counts is None else self.redis_counts.per_request(self.counted())


def run_interleaved(phases, args):
    """Alternate short rounds of every phase, so a change in the machine's
    background load (it is shared) hits all phases alike."""
    cap = max(1, args.max_moves // args.rounds)
    for number in range(args.rounds):
        for phase in phases:
            warmup = args.warmup if number == 0 else 0.2
            phase.run_round(warmup, args.duration / args.rounds, cap)


def percentile(ordered, p):
    """The ``p`` (0 to 1) quantile of the sorted, non-empty ``ordered``, as the bench reports it."""
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))]


def summarize(recorders, seconds, kind):
    latencies = sorted(x for r in recorders for x in r.latencies.get(kind, []))
    errors = sum(r.errors.get(kind, 0) for r in recorders)
    if not latencies:
        return {"count": 0, "per_s": 0.0, "p50_ms": None, "p99_ms": None, "errors": errors}
    return {
        "count": len(latencies),
        "per_s": round(len(latencies) / seconds, 1),
        "p50_ms": round(1000 * percentile(latencies, 0.50), 2),
        "p99_ms": round(1000 * percentile(latencies, 0.99), 2),
        "errors": errors,
    }
