"""HTTP benchmark: accepted moves through gunicorn + Flask + Redis, against a trivial app.

    .venv/bin/python bench/http_bench.py --clients 32 --duration 15

It starts a private redis-server and two gunicorn servers with the same
configuration (``deploy/gunicorn.conf.py``) on free ports: one serving
``service:create_app()``, one serving ``bench/trivial_app.py`` (``POST /echo``
of a small JSON body). In the moves phase N client threads each play their
own Anno 1503 match in which every seat is human, so every move is a real
accepted ``POST /v1/matches/{id}/actions``; in the trivial phase the same N
clients post to ``/echo``. The phases alternate in ``--rounds`` short rounds
so that the shared machine's background load hits both alike. The report
gives requests/s, p50/p99 latency and the ratio moves/s over trivial
requests/s (target >= 0.5), and the CPU milliseconds per request of the
server (gunicorn master and workers), of redis-server and of this client
(Linux /proc): on a shared machine throughput swings with everyone else's
load, CPU per request much less, and it shows where a request's cost goes.

Choosing a move needs the legal actions. ``--legal script`` (default) plays
each client's matches with the engine before the phases start (a match is its
seed plus its actions, and the bench picks the seeds), so while the clock
runs a client only sends moves and checks their status, as cheaply as the
trivial phase's client sends its echo: on a two-core machine the client's own
CPU would otherwise be taken from the server's. ``--legal local`` computes
them in the client during the phase, with the engine from the match seed; a
client whose local state disagrees with the server falls back to reading
``/actions``. ``--legal server`` reads ``GET /actions`` before every move,
and that latency is reported too.

Both phases stop by themselves: after ``--duration`` seconds or
``--max-moves`` requests each, whichever comes first. The first ``--warmup``
seconds of each phase are not counted. Access logs are off and worker recycling
(max_requests) is off in both phases, so the steady state is measured.
"""

import argparse
import http.client
import os
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import orjson

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import engine  # noqa: E402
from launcher.redis_process import RedisProcess, free_port  # noqa: E402

GAME_ID = "anno1503"
TRIVIAL_BODY = {"action": {"type": "buy", "commodity": "spice"}, "version": 17}


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


def default_options(game, players):
    """The options the server plays a match of ``players`` with when none are
    given (some defaults depend on the player count: the game decides)."""
    return game.resolve_options(players, {})


def create_human_match(http, game, players, seed):
    """POST a match of ``game`` with the default options and ``players``
    human seats from ``seed``; returns ``(match id, {seat: token}, match)``."""
    body = {
        "game": game.id,
        "options": default_options(game, players),
        "seed": seed,
        "dice": "reproducible",
        "seats": [{"kind": "human", "name": f"bench{i}"} for i in range(players)],
    }
    status, reply, _ = http.call("POST", "/v1/matches", body)
    if status != 201:
        raise RuntimeError(f"POST /v1/matches -> {status}: {reply}")
    tokens = {int(seat): token for seat, token in reply["tokens"].items()}
    return reply["match"]["id"], tokens, reply["match"]


class MatchPlayer:
    """Plays every seat of its own matches with random legal moves."""

    def __init__(self, http, recorder, rng, players, legal_from):
        self.http, self.recorder, self.rng = http, recorder, rng
        self.game = engine.get_game(GAME_ID)
        self.players = players
        self.use_local = legal_from == "local"
        self.match_id = None
        self.finished = True

    def _new_match(self):
        seed = self.rng.randrange(1 << 31)
        self.match_id, self.tokens, match = create_human_match(self.http, self.game, self.players, seed)
        self._follow(match)
        self.state = (
            self.game.setup(self.players, default_options(self.game, self.players), seed)
            if self.use_local
            else None
        )

    def _follow(self, match):
        self.version = match["version"]
        self.to_act = match["to_act"]
        self.finished = match["status"] == "finished" or not self.to_act

    def _legal(self, seat):
        if self.state is not None:
            return self.game.legal_actions(self.state, seat)
        started = time.monotonic()
        status, reply, seconds = self.http.call(
            "GET", f"/v1/matches/{self.match_id}/actions", token=self.tokens[seat]
        )
        self.recorder.add("actions", started, seconds, ok=status == 200)
        return reply["actions"] if status == 200 else []

    def _resync(self, seat):
        """After a refused move: trust the server from now on."""
        self.state = None
        status, reply, _ = self.http.call("GET", f"/v1/matches/{self.match_id}", token=self.tokens[seat])
        if status != 200:
            raise RuntimeError(f"GET match -> {status}: {reply}")
        self._follow(reply)

    def step(self):
        if self.finished:
            self._new_match()
            return
        seat = self.to_act[0]
        actions = self._legal(seat)
        if not actions:
            self._resync(seat)
            return
        action = self.rng.choice(actions)
        started = time.monotonic()
        status, reply, seconds = self.http.call(
            "POST",
            f"/v1/matches/{self.match_id}/actions",
            {"action": action, "version": self.version},
            token=self.tokens[seat],
        )
        self.recorder.add("move", started, seconds, ok=status == 200)
        if status != 200:
            self._resync(seat)
            return
        self._follow(reply["match"])
        if self.state is not None:
            self.state, _ = self.game.apply(self.state, seat, action)
            if self.game.to_act(self.state) != self.to_act:
                self.state = None  # local and server rules disagree: ask the server


def scripted_match(game, players, seed, length):
    """The first ``length`` moves ``[(seat, action)]`` of a uniformly random
    match from ``seed`` (fewer if it ends sooner)."""
    rng = random.Random(seed)
    state = game.setup(players, default_options(game, players), seed)
    moves = []
    while len(moves) < length and game.outcome(state) is None:
        seat = game.to_act(state)[0]
        action = rng.choice(game.legal_actions(state, seat))
        moves.append((seat, action))
        state, _ = game.apply(state, seat, action)
    return moves


class ScriptedPlayer:
    """Posts moves played beforehand (``scripted_match``), one match after another.

    Every accepted move raises the version by one (all seats are human), so
    replies need not be decoded. A refused move ends that match's script.
    Should the scripts run out mid-phase, more are played then (counted in
    ``top_ups``: that client CPU falls inside the measurement).
    """

    def __init__(self, http, recorder, rng, players, moves):
        self.http, self.recorder, self.rng = http, recorder, rng
        self.game = engine.get_game(GAME_ID)
        self.players = players
        self.scripts = []
        self.top_ups = 0
        while sum(len(moves_) for _, moves_ in self.scripts) < moves:
            self._script_one(moves)
        self.pending = []

    def _script_one(self, length):
        seed = self.rng.randrange(1 << 31)
        self.scripts.append((seed, scripted_match(self.game, self.players, seed, length)))

    def _new_match(self):
        if not self.scripts:
            self.top_ups += 1
            self._script_one(1000)
        seed, moves = self.scripts.pop(0)
        self.match_id, self.tokens, match = create_human_match(self.http, self.game, self.players, seed)
        self.version = match["version"]
        self.pending = moves[::-1]  # popped from the end

    def step(self):
        if not self.pending:
            self._new_match()
            return
        seat, action = self.pending.pop()
        started = time.monotonic()
        status, _reply, seconds = self.http.call(
            "POST",
            f"/v1/matches/{self.match_id}/actions",
            {"action": action, "version": self.version},
            token=self.tokens[seat],
            parse=False,
        )
        self.recorder.add("move", started, seconds, ok=status == 200)
        if status == 200:
            self.version += 1
        else:
            self.pending = []


class MoveClient:
    """A client thread's state across rounds: its connection and its match."""

    def __init__(self, port, recorder, index, args):
        rng = random.Random(args.seed + index)
        if args.legal == "script":
            self.player = ScriptedPlayer(Http(port), recorder, rng, args.players, args.script_moves)
        else:
            self.player = MatchPlayer(Http(port), recorder, rng, args.players, args.legal)

    def run(self, budget):
        while budget.take():
            self.player.step()


class TrivialClient:
    def __init__(self, port, recorder, index, args):
        self.http, self.recorder = Http(port), recorder

    def run(self, budget):
        while budget.take():
            started = time.monotonic()
            status, _, seconds = self.http.call("POST", "/echo", TRIVIAL_BODY)
            self.recorder.add("echo", started, seconds, ok=status == 200)


def process_tree(pid):
    """``pid`` and its descendants (Linux /proc), e.g. gunicorn's master and workers."""
    children = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                parent = int(stat.read().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(parent, []).append(int(entry))
    tree, todo = [], [pid]
    while todo:
        current = todo.pop()
        tree.append(current)
        todo.extend(children.get(current, []))
    return tree


def cpu_seconds(pids):
    """User + system CPU seconds used so far by ``pids`` (Linux /proc; 0 elsewhere)."""
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime (clock ticks)
    return total / os.sysconf("SC_CLK_TCK")


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
    """A gunicorn child process with deploy/gunicorn.conf.py on a free port."""

    def __init__(self, app, env, args, extra=(), log=None):
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
        command = [
            sys.executable,
            "-m",
            "gunicorn",
            "-c",
            str(ROOT / "deploy" / "gunicorn.conf.py"),
            *extra,
            app,
        ]
        self.proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=log)

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
    """N clients of one kind against one server, run in rounds."""

    def __init__(self, client_class, server, redis_pid, args):
        self.recorders = [Recorder(float("inf")) for _ in range(args.clients)]
        self.clients = [client_class(server.port, self.recorders[i], i, args) for i in range(args.clients)]
        self.counted_s = 0.0
        self.cpu = CpuMeter(server.proc.pid, redis_pid)

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

        self.cpu.measure(rest_of_round)
        self.counted_s += time.monotonic() - (start + warmup)

    def cpu_ms_per_request(self):
        """``{"server", "redis", "client"}`` CPU milliseconds per counted request
        (of every kind the phase sends)."""
        counted = (
            sum(sum(map(len, r.latencies.values())) + sum(r.errors.values()) for r in self.recorders) or 1
        )
        return {key: round(1000 * used / counted, 3) for key, used in self.cpu.used.items()}


def run_interleaved(phases, args):
    """Alternate short rounds of every phase, so a change in the machine's
    background load (it is shared) hits all phases alike."""
    cap = max(1, args.max_moves // args.rounds)
    for number in range(args.rounds):
        for phase in phases:
            warmup = args.warmup if number == 0 else 0.2
            phase.run_round(warmup, args.duration / args.rounds, cap)


def summarize(recorders, seconds, kind):
    latencies = sorted(x for r in recorders for x in r.latencies.get(kind, []))
    errors = sum(r.errors.get(kind, 0) for r in recorders)
    if not latencies:
        return {"count": 0, "per_s": 0.0, "p50_ms": None, "p99_ms": None, "errors": errors}

    def pct(p):
        return round(1000 * latencies[min(len(latencies) - 1, int(p * len(latencies)))], 2)

    return {
        "count": len(latencies),
        "per_s": round(len(latencies) / seconds, 1),
        "p50_ms": pct(0.50),
        "p99_ms": pct(0.99),
        "errors": errors,
    }


def start_servers(redis_url, args):
    service_env = dict(
        os.environ,
        REDIS_URL=redis_url,
        RQ_REDIS_URL=redis_url,
        RATE_LIMIT=str(10**9),
        CREATE_RATE_LIMIT=str(10**9),
    )  # the benchmark is not abuse
    service = Gunicorn("service:create_app()", service_env, args)
    trivial = Gunicorn(
        "trivial_app:create_app()", dict(os.environ), args, extra=("--pythonpath", str(ROOT / "bench"))
    )
    return service.wait_healthy(), trivial.wait_healthy()


def measure(args):
    """Returns ``{"move", "actions", "trivial"}`` summaries."""
    with RedisProcess() as redis_server:
        servers = start_servers(redis_server.url, args)
        redis_pid = redis_server.proc.pid
        try:
            moves = Phase(MoveClient, servers[0], redis_pid, args)
            trivial = Phase(TrivialClient, servers[1], redis_pid, args) if not args.moves_only else None
            run_interleaved([p for p in (moves, trivial) if p], args)
        finally:
            for server in servers:
                server.stop()
    result = {
        "move": summarize(moves.recorders, moves.counted_s, "move"),
        "actions": summarize(moves.recorders, moves.counted_s, "actions"),
        "cpu_ms": {"move": moves.cpu_ms_per_request()},
        "script_top_ups": sum(getattr(c.player, "top_ups", 0) for c in moves.clients),
    }
    result["trivial"] = (
        summarize(trivial.recorders, trivial.counted_s, "echo") if trivial else summarize([], 1, "echo")
    )
    if trivial:
        result["cpu_ms"]["trivial"] = trivial.cpu_ms_per_request()
    return result


def measure_observability(args):
    """Moves/s with metrics and the request log on (``PROMETHEUS_MULTIPROC_DIR``,
    ``METRICS=1``, ``REQUEST_LOG=1``, JSON lines to a file) against both off
    (``METRICS=0``, ``REQUEST_LOG=0``), two servers measured in alternating rounds."""
    base = dict(
        os.environ, RATE_LIMIT=str(10**9), CREATE_RATE_LIMIT=str(10**9), LOGLEVEL="INFO", LOG_FORMAT="json"
    )
    base.pop("PROMETHEUS_MULTIPROC_DIR", None)
    work = Path(tempfile.mkdtemp(prefix="tabula-bench-obs-"))
    (work / "prometheus").mkdir()
    with RedisProcess() as redis_server, open(work / "requests.log", "wb") as log:
        env = dict(base, REDIS_URL=redis_server.url, RQ_REDIS_URL=redis_server.url)
        on = Gunicorn(
            "service:create_app()",
            dict(env, METRICS="1", REQUEST_LOG="1", PROMETHEUS_MULTIPROC_DIR=str(work / "prometheus")),
            args,
            log=log,
        )
        off = Gunicorn("service:create_app()", dict(env, METRICS="0", REQUEST_LOG="0"), args)
        try:
            on.wait_healthy()
            off.wait_healthy()
            phases = {
                "on": Phase(MoveClient, on, redis_server.proc.pid, args),
                "off": Phase(MoveClient, off, redis_server.proc.pid, args),
            }
            run_interleaved(list(phases.values()), args)
        finally:
            on.stop()
            off.stop()
        lines = (work / "requests.log").read_bytes().count(b'"logger":"tabula.request"')
    shutil.rmtree(work, ignore_errors=True)
    result = {
        name: {
            "move": summarize(phase.recorders, phase.counted_s, "move"),
            "cpu_ms": phase.cpu_ms_per_request(),
        }
        for name, phase in phases.items()
    }
    result["request_log_lines"] = lines
    return result


def report_observability(args, result):
    print(
        f"\nmetrics + request log on vs off: clients={args.clients} gunicorn={args.workers} "
        f"workers x {args.threads} threads, {args.duration:.0f} s per server in {args.rounds} "
        f"alternating rounds (load average now {os.getloadavg()[0]:.1f})"
    )
    print(f"{'':6}{'moves':>8}{'per s':>10}{'p50 ms':>9}{'p99 ms':>9}{'errors':>8}{'server CPU ms/move':>20}")
    for name in ("on", "off"):
        row, cpu = result[name]["move"], result[name]["cpu_ms"]
        print(
            f"{name:6}{row['count']:>8}{row['per_s']:>10}{row['p50_ms']!s:>9}{row['p99_ms']!s:>9}"
            f"{row['errors']:>8}{cpu['server']:>20.3f}"
        )
    print(f"request log lines written (on): {result['request_log_lines']}")
    ratio = result["on"]["move"]["per_s"] / result["off"]["move"]["per_s"]
    cpu_ratio = result["off"]["cpu_ms"]["server"] / result["on"]["cpu_ms"]["server"]
    print(
        f"ratio moves/s on over off: {ratio:.3f}; server CPU per move off over on: "
        f"{cpu_ratio:.3f} (target >= 0.95)"
    )
    return round(ratio, 3)


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    # Enough clients to keep both servers busy: with few, a path with more hops
    # (client, worker, Redis, worker) measures waiting rather than capacity.
    parser.add_argument("--clients", type=int, default=32, help="concurrent clients (threads)")
    parser.add_argument("--duration", type=float, default=15.0, help="counted seconds per phase")
    parser.add_argument(
        "--warmup", type=float, default=2.0, help="uncounted seconds before each phase's first round"
    )
    parser.add_argument("--max-moves", type=int, default=200_000, help="request cap per phase")
    parser.add_argument("--players", type=int, default=4, help="seats per match (all human)")
    parser.add_argument(
        "--legal",
        choices=("script", "local", "server"),
        default="script",
        help="where clients get legal actions (see module docstring)",
    )
    parser.add_argument(
        "--script-moves",
        type=int,
        default=None,
        help="with --legal script: moves each client plays beforehand "
        "(default: 400 per counted or warm-up second)",
    )
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers")
    parser.add_argument("--threads", type=int, default=16, help="gunicorn threads per worker")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print the result as JSON too")
    parser.add_argument(
        "--rounds", type=int, default=3, help="alternating rounds per phase (the duration is split)"
    )
    parser.add_argument("--moves-only", action="store_true", help="skip the trivial app")
    parser.add_argument(
        "--observability",
        action="store_true",
        help="instead: moves/s with metrics and the request log on versus off "
        "(METRICS, REQUEST_LOG), two servers in alternating rounds",
    )
    args = parser.parse_args(argv)
    if args.script_moves is None:
        # No client here has sustained 200 moves/s: twice that is ample.
        args.script_moves = int(400 * (args.duration + args.warmup))
    return args


def report(args, result):
    trivial = result["trivial"]
    ratio = result["move"]["per_s"] / trivial["per_s"] if trivial["per_s"] else 0.0
    print(
        f"\nclients={args.clients} gunicorn={args.workers} workers x {args.threads} threads "
        f"legal={args.legal} counted {args.duration:.0f} s per phase in {args.rounds} rounds "
        f"(load average now {os.getloadavg()[0]:.1f})"
    )
    print(f"{'':18}{'count':>8}{'per s':>10}{'p50 ms':>9}{'p99 ms':>9}{'errors':>8}")
    rows = [("moves (POST)", result["move"]), ("GET /actions", result["actions"]), ("trivial POST", trivial)]
    for label, row in rows:
        if row["count"] or row["errors"]:
            print(
                f"{label:18}{row['count']:>8}{row['per_s']:>10}{row['p50_ms']!s:>9}"
                f"{row['p99_ms']!s:>9}{row['errors']:>8}"
            )
    print(
        "CPU ms per counted request (the moves phase also creates a match now and "
        "then and, with --legal server, reads /actions):"
    )
    for label, cpu in result["cpu_ms"].items():
        print(f"  {label:8} server {cpu['server']:.3f}  redis {cpu['redis']:.3f}  client {cpu['client']:.3f}")
    if result["script_top_ups"]:
        print(
            f"  (clients ran out of scripted moves {result['script_top_ups']} times and played "
            "more during the phase: raise --script-moves)"
        )
    if trivial["per_s"]:
        print(f"ratio moves/s over trivial requests/s: {ratio:.2f} (target >= 0.5)")
    return round(ratio, 3)


def main(argv=None):
    args = parse_args(argv)
    if args.observability:
        result = measure_observability(args)
        ratio = report_observability(args, result)
        if args.json:
            print(orjson.dumps({"args": vars(args), **result, "ratio": ratio}).decode())
        return (
            0
            if all(result[k]["move"]["count"] and not result[k]["move"]["errors"] for k in ("on", "off"))
            else 1
        )
    result = measure(args)
    ratio = report(args, result)
    if args.json:
        print(orjson.dumps({"args": vars(args), **result, "ratio": ratio}).decode())
    return 0 if result["move"]["count"] and not result["move"]["errors"] else 1


if __name__ == "__main__":
    sys.exit(main())
