"""What ``make run`` settles before it starts anything: its settings (the
``TABULA_*`` environment), the ports and the pid file (is another launcher
running? is a port taken?), the Redis settings (an external Redis must
answer), the private redis-server, and the environment and metrics folder
the programs get.
"""

import os
import shutil
import socket
from dataclasses import dataclass
from pathlib import Path

import redis

from launcher.redis_process import RedisBinaryNotFound, RedisProcess
from launcher.supervision import (
    LaunchError,
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
    # Webhook delivery workers (python -m service.worker.webhook_worker).
    webhook_workers: int = 1
    # GET /metrics answers on 127.0.0.1 at this port only (the API's port
    # answers 404 there: service/http/internal_port.py).
    metrics_port: int = 9400

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
            webhook_workers=int(env.get("TABULA_WEBHOOK_WORKERS", "1")),
            metrics_port=int(env.get("METRICS_PORT") or "9400"),
        )
        if settings.rq_workers < 1:
            raise ValueError("TABULA_RQ_WORKERS must be at least 1")
        if settings.webhook_workers < 0:
            raise ValueError("TABULA_WEBHOOK_WORKERS must be 0 or more")
        if settings.restart_backoff < 0 or settings.stop_timeout <= 0:
            raise ValueError("TABULA_RESTART_BACKOFF_S and TABULA_STOP_TIMEOUT must be positive")
        return settings

    @property
    def base_url(self):
        return f"http://{self.host}:{self.port}"

    @property
    def metrics_url(self):
        return f"http://127.0.0.1:{self.metrics_port}/metrics"


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
    if _is_listening("127.0.0.1", settings.metrics_port):
        raise LaunchError(
            f"port {settings.metrics_port} on 127.0.0.1 (the metrics) is already in use: "
            "stop what holds it, or set METRICS_PORT to a free port."
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
    # Metrics of every gunicorn and RQ worker, added up by GET /metrics on
    # the internal loopback port (emptied at each start: fresh_metrics_dir);
    # logs for a person to read.
    env["PROMETHEUS_MULTIPROC_DIR"] = str(metrics_dir(settings))
    env["METRICS_PORT"] = str(settings.metrics_port)
    env["METRICS_HOST"] = "127.0.0.1"
    env.setdefault("LOG_FORMAT", "console")
    return env


def metrics_dir(settings):
    return settings.var_dir / "prometheus"


def fresh_metrics_dir(settings):
    """prometheus-client's multiprocess files start empty at every launch."""
    path = metrics_dir(settings)
    shutil.rmtree(path, ignore_errors=True)
    path.mkdir(parents=True)
