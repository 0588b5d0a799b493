"""Gunicorn settings for Tabula, shared by `make run`, the bench and the images.

Every value can be overridden from the environment so one file serves a
laptop, a container and a Kubernetes pod. Start with:

    gunicorn -c deploy/gunicorn.conf.py 'service:create_app()'

``gevent`` is the default worker class: requests are short and mostly wait
on Redis, and the live event streams (GET /v1/matches/{id}/stream) stay open
for a whole match; under gevent an open stream is a greenlet waiting on its
queue (a few KB), not a thread, and the process's one pub/sub connection
feeds them all (service/live/hub.py). It is gunicorn's own ``gevent`` worker with
the API's JSON error body on the errors gunicorn answers before the app
(service/gunicorn_worker.py); ``GUNICORN_WORKER_CLASS=
service.gunicorn_worker.JsonErrorThreadWorker`` is the gthread one (then each
open stream holds one of ``GUNICORN_THREADS``).
"""

import logging
import os


def _int_env(name, default):
    raw = os.environ.get(name, "").strip()
    return int(raw) if raw else default


def _log_target(name, default):
    # "-" is stdout/stderr (what containers collect); "off" disables the log,
    # which the HTTP benchmark uses for both the real and the trivial app.
    value = os.environ.get(name, default)
    return None if value.lower() in ("off", "none", "") else value


# TABULA_BIND is what `make run` sets; BIND is the common container variable.
bind = [os.environ.get("TABULA_BIND") or os.environ.get("BIND", "0.0.0.0:8000")]
# With METRICS_PORT set, a second, internal address that alone answers
# GET /metrics (service/http/internal_port.py); METRICS_HOST is what reaches
# it: loopback by default, the pod's address in a container (the image sets
# 0.0.0.0; the Service does not expose the port, Prometheus scrapes the pod).
if _int_env("METRICS_PORT", 0):
    bind.append(f"{os.environ.get('METRICS_HOST', '127.0.0.1')}:{_int_env('METRICS_PORT', 0)}")

# gevent, with gunicorn's own refusals (414, 431, 400 on malformed HTTP) in
# the contract's JSON shape; GUNICORN_WORKER_CLASS=gevent for the plain one.
worker_class = os.environ.get("GUNICORN_WORKER_CLASS", "service.gunicorn_worker.JsonErrorGeventWorker")
# gevent: the concurrent connections (open streams included) of one worker.
worker_connections = _int_env("GUNICORN_WORKER_CONNECTIONS", 4000)
# WEB_CONCURRENCY is gunicorn's own convention for the worker count; about
# one process per core for gthread.
workers = _int_env("WEB_CONCURRENCY", 2)
# gthread only: threads per worker bound the concurrent requests (and open
# streams) a worker serves; extra connections wait in the listen backlog.
threads = _int_env("GUNICORN_THREADS", 16)

# What gunicorn refuses before the app (documented in the README and the
# API description): a request line (method, path, query) over 4094 bytes is
# 414, a header line over 8190 bytes or more than 100 headers is 431.
limit_request_line = _int_env("GUNICORN_LIMIT_REQUEST_LINE", 4094)
limit_request_field_size = _int_env("GUNICORN_LIMIT_REQUEST_FIELD_SIZE", 8190)
limit_request_fields = _int_env("GUNICORN_LIMIT_REQUEST_FIELDS", 100)

# A request that takes 30 s is stuck: AI moves run in RQ workers, not here.
timeout = _int_env("GUNICORN_TIMEOUT", 30)
graceful_timeout = _int_env("GUNICORN_GRACEFUL_TIMEOUT", 20)
keepalive = _int_env("GUNICORN_KEEPALIVE", 5)

# Recycle workers now and then so a slow leak cannot grow forever; the jitter
# keeps them from restarting all at once. Recycling closes open streams,
# which clients resume with Last-Event-ID.
max_requests = _int_env("GUNICORN_MAX_REQUESTS", 5000)
max_requests_jitter = _int_env("GUNICORN_MAX_REQUESTS_JITTER", 500)

# The heartbeat file lives in RAM: on a disk-backed /tmp, fchmod can stall
# and gunicorn then kills healthy workers.
worker_tmp_dir = "/dev/shm" if os.path.isdir("/dev/shm") else None

# The app writes one JSON line per request itself (service/runtime/metrics.py: request
# id, route, match id, status, duration), so gunicorn's access log is off
# unless asked for ("-" for stdout, or a path).
accesslog = _log_target("GUNICORN_ACCESSLOG", "off")
errorlog = _log_target("GUNICORN_ERRORLOG", "-") or "-"
loglevel = os.environ.get("GUNICORN_LOGLEVEL", "info")

# Trust X-Forwarded-* only from the proxy in front of us.
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")

# Redis pools are created after the fork, in each worker.
preload_app = False

# gunicorn ≥ 25.1 opens a control socket at one fixed per-user path by
# default: several instances on one machine (tests, the benchmark, `make
# run`) would take it from each other, and a read-only root filesystem has
# no place for it. Opt in with a path.
control_socket = os.environ.get("GUNICORN_CONTROL_SOCKET", "")
control_socket_disable = not control_socket


def child_exit(server, worker):
    """Drop a dead worker's Prometheus files when multiprocess metrics are on."""
    if not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        return
    try:
        from prometheus_client import multiprocess  # optional
    except ImportError:
        return
    multiprocess.mark_process_dead(worker.pid)


def _empty_metrics_dir():
    """prometheus-client's multiprocess files must not outlive the master
    that wrote them (a container restart would count old values again)."""
    directory = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if not directory:
        return
    os.makedirs(directory, exist_ok=True)
    for name in os.listdir(directory):
        if name.endswith(".db"):
            os.remove(os.path.join(directory, name))


def on_starting(server):
    """A fresh metrics directory; gunicorn's own lines on stderr (its error
    log) in the app's format (``LOG_FORMAT``, service/runtime/logs.py); the workers
    inherit it. An error log file keeps gunicorn's format."""
    _empty_metrics_dir()
    if errorlog != "-":
        return
    from service.runtime import logs

    formatter = logs.formatter()
    for handler in logging.getLogger("gunicorn.error").handlers:
        handler.setFormatter(formatter)


def post_fork(server, worker):
    """In each worker, before the app loads: every logger through the app's
    structured pipeline (service/runtime/logs.py, ``LOG_FORMAT``), the request log included."""
    from service.runtime import logs

    logs.configure(level=os.environ.get("LOGLEVEL") or "INFO")


def post_worker_init(worker):
    """The app is loaded: its long-lived objects leave the garbage collector's
    scans (service/runtime/heap.py). With ``GUNICORN_READY_DIR`` set, mark
    this worker as serving (an empty file named after its pid).

    In multiprocess mode the worker's request metrics are written in
    batches (service/runtime/metric_batches.py); ``worker_exit`` writes the last.

    The HTTP benchmark waits for every worker this way: /healthz answers as
    soon as the first worker is up, and clients that connect before the others
    have loaded the app all stay on that first worker (keep-alive).
    """
    from service.runtime import heap, metric_batches

    heap.settle()
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        metric_batches.start()
    ready_dir = os.environ.get("GUNICORN_READY_DIR")
    if ready_dir:
        with open(os.path.join(ready_dir, str(worker.pid)), "w"):
            pass


def worker_exit(server, worker):
    """In the worker, as it ends: its batched metrics written (post_worker_init)."""
    from service.runtime import metric_batches

    metric_batches.stop()
