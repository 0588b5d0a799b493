"""Prometheus metrics, the request id and the request log.

Metrics come from ``prometheus-client``. With ``PROMETHEUS_MULTIPROC_DIR``
set (``make run``, the container and Kubernetes configs) every process, each
gunicorn worker and each RQ worker, writes its values into mmap'd files in
that directory and ``GET /metrics`` aggregates them all (a fresh
``MultiProcessCollector`` per scrape); the directory must be emptied before
the stack starts, and gunicorn's ``child_exit`` hook marks dead workers.
Without it (tests, one process) the values live in this process. A gunicorn
worker in multiprocess mode writes the request path's counts in batches, once
a second (service/runtime/metric_batches.py).

``RequestObserver`` is the outermost WSGI layer, in front of the move lane
(service/http/move_lane.py) and Flask: it gives every request its id
(``X-Request-ID``, honoured when sane, echoed on every response), times it,
counts it by route (the URL rule, never the raw path), method and status,
counts every 4xx/5xx as a refusal by its contract error code, and writes the
request log line. Both lanes tell it the route and match id in the WSGI
environ (``tabula.route``, ``tabula.match_id``); the app's error handlers
tell it the error code (``note_error``). Its clock stops when the response
starts (status and headers): for a streamed response (an event stream) that
is its time to first byte, and ``tabula_open_streams`` counts it until the
response is closed.

``METRICS=0`` turns the recording off (``/metrics`` then has only the
scrape-time gauges) and ``REQUEST_LOG=0`` the request log: bench/http_bench.py
``--observability`` measures moves/s with both on against both off.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any, Literal

import redis
from flask import request
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    disable_created_metrics,
    generate_latest,
    multiprocess,
    start_http_server,
)
from prometheus_client.core import GaugeMetricFamily

import engine
from service.model.errors import code_for_status
from service.runtime import logs, metric_batches
from service.storage import keys as storage_keys
from service.storage.replicas import shard_report

MULTIPROCESS = bool(os.environ.get("PROMETHEUS_MULTIPROC_DIR"))
disable_created_metrics()  # no `_created` series: less to write, less to scrape

# This process's metrics (collected from here only without multiprocess mode).
PROCESS_REGISTRY = CollectorRegistry()

_LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
_AI_BUCKETS = (0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
_PICKUP_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0)

HTTP_REQUESTS = Counter(
    "tabula_http_requests",
    "HTTP requests answered, by route (URL rule), method and status.",
    ["route", "method", "status"],
    registry=PROCESS_REGISTRY,
)
HTTP_DURATION = Histogram(
    "tabula_http_request_duration_seconds",
    "Time from a request's arrival to its response's start, by route and method.",
    ["route", "method"],
    buckets=_LATENCY_BUCKETS,
    registry=PROCESS_REGISTRY,
)
REFUSALS = Counter(
    "tabula_refusals",
    "Error responses (4xx and 5xx), by contract error code and status.",
    ["code", "status"],
    registry=PROCESS_REGISTRY,
)
MOVES_ACCEPTED = Counter(
    "tabula_moves_accepted", "Actions committed (human and AI), by game.", ["game"], registry=PROCESS_REGISTRY
)
AI_DECISION = Histogram(
    "tabula_ai_decision_seconds",
    "Time an AI player takes to choose an action, by game and level.",
    ["game", "level"],
    buckets=_AI_BUCKETS,
    registry=PROCESS_REGISTRY,
)
AI_PICKUP = Histogram(
    "tabula_ai_job_pickup_seconds",
    "Time from an AI job's enqueueing to a worker starting it.",
    buckets=_PICKUP_BUCKETS,
    registry=PROCESS_REGISTRY,
)
OPEN_STREAMS = Gauge(
    "tabula_open_streams",
    "Streamed responses (event streams) open now, by route.",
    ["route"],
    multiprocess_mode="livesum",
    registry=PROCESS_REGISTRY,
)
TURN_TIMEOUTS = Counter(
    "tabula_turn_timeouts", "Turns that ran out of time, by game.", ["game"], registry=PROCESS_REGISTRY
)
ARCHIVE_EVENTS = Counter(
    "tabula_archive",
    "Archive records: rebuilt (read from a record, not cached), unreadable (corrupt or unknown "
    "format), finish_step_failed, finish_recovered (steps completed by the sweep).",
    ["what"],
    registry=PROCESS_REGISTRY,
)

UNMATCHED_ROUTE = "<unmatched>"  # the route label of a request no route matched
_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})

_state = {"enabled": True}
# The contract error code of the response being answered (set by the app's
# error handlers, read by RequestObserver).
_error_code: ContextVar[str | None] = ContextVar("tabula_error_code", default=None)


def configure(enabled: bool) -> None:
    """Turn recording on or off for this process (``METRICS``)."""
    _state["enabled"] = bool(enabled)


def enabled() -> bool:
    return _state["enabled"]


def note_error(code: str) -> None:
    """The error handlers: the response being built is the error ``code``."""
    _error_code.set(code)


def move_accepted(game: str) -> None:
    if _state["enabled"]:
        metric_batches.inc(_child(MOVES_ACCEPTED, game))


def turn_timed_out(game: str) -> None:
    """A turn of a match of ``game`` ran out of time (service/worker/timers.py)."""
    if _state["enabled"]:
        _child(TURN_TIMEOUTS, game).inc()


def archive_event(what: str) -> None:
    """Count an archive event (``ARCHIVE_EVENTS``' labels)."""
    if _state["enabled"]:
        _child(ARCHIVE_EVENTS, what).inc()


def job_picked_up(enqueued_at: datetime | None, now: float | None = None) -> None:
    """An RQ job enqueued at ``enqueued_at`` (an aware or naive-UTC datetime) starts now."""
    if not _state["enabled"] or enqueued_at is None:
        return
    if enqueued_at.tzinfo is None:  # RQ stores UTC
        enqueued_at = enqueued_at.replace(tzinfo=UTC)
    enqueued = enqueued_at.timestamp()
    AI_PICKUP.observe(max(0.0, (time.time() if now is None else now) - enqueued))


class ai_decision:  # used as a context manager, like a function
    """``with metrics.ai_decision(game, level):`` times one AI choice."""

    __slots__ = ("_labels", "_started")

    def __init__(self, game: str, level: str) -> None:
        self._labels = (game, level)

    def __enter__(self) -> ai_decision:
        self._started = time.perf_counter()
        return self

    def __exit__(self, *exc: object) -> Literal[False]:
        if _state["enabled"]:
            _child(AI_DECISION, *self._labels).observe(time.perf_counter() - self._started)
        return False


# Label lookups cost more than the write itself: children are kept per labels.
_children: dict = {}


def _child(metric: Any, *labels: str) -> Any:
    key = (metric, labels)
    child = _children.get(key)
    if child is None:
        child = _children[key] = metric.labels(*labels)
    return child


def _observe_request(route: str, method: str, status: int, seconds: float, error_code: str | None) -> None:
    key = (route, method, status)
    children = _children.get(key)
    if children is None:
        children = _children[key] = (
            HTTP_REQUESTS.labels(route, method, str(status)),
            _child(HTTP_DURATION, route, method),
        )
    metric_batches.inc(children[0])
    metric_batches.observe(children[1], seconds)
    if status >= 400:
        metric_batches.inc(_child(REFUSALS, error_code or code_for_status(status), str(status)))


def stream_opened(route: str) -> Callable[[], None]:
    """A streamed response on ``route`` starts; returns what to call when it closes."""
    if not _state["enabled"]:
        return _noop
    gauge = _child(OPEN_STREAMS, route)
    gauge.inc()
    return gauge.dec


def _noop() -> None:
    pass


def _new_request_id() -> str:
    return os.urandom(16).hex()


class RequestObserver:
    """WSGI middleware: request id, metrics and the request log (see above)."""

    def __init__(self, wsgi_app: Any, request_log: bool = True) -> None:
        self.wsgi_app = wsgi_app
        self.request_log = request_log

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Any:
        started = time.perf_counter()
        rid = logs.request_id(environ.get("HTTP_X_REQUEST_ID"), _new_request_id)
        environ["tabula.request_id"] = rid
        code_token = _error_code.set(None)
        log_tokens = logs.bind(request_id=rid)
        header = ("X-Request-ID", rid)
        done: list = []

        def observed_start_response(status: str, headers: list, exc_info: Any = None) -> Any:
            if not done:
                done.append(True)
                self._finish(environ, int(status[:3]), started)
            return start_response(status, [*headers, header], exc_info)

        try:
            return self.wsgi_app(environ, observed_start_response)
        except BaseException:
            if not done:
                done.append(True)
                self._finish(environ, 500, started)
            raise
        finally:
            logs.unbind(log_tokens)
            _error_code.reset(code_token)

    def _finish(self, environ: dict[str, Any], status: int, started: float) -> None:
        seconds = time.perf_counter() - started
        method = environ.get("REQUEST_METHOD", "")
        if method not in _METHODS:
            method = "other"
        route = environ.get("tabula.route") or UNMATCHED_ROUTE
        if _state["enabled"]:
            _observe_request(route, method, status, seconds, _error_code.get())
        if self.request_log:
            logs.request_line(
                {
                    "request_id": environ["tabula.request_id"],
                    "method": method,
                    "route": route,
                    "path": environ.get("PATH_INFO", ""),
                    "match_id": environ.get("tabula.match_id"),
                    "status": status,
                    "duration_ms": round(seconds * 1000, 3),
                    "client": environ.get("REMOTE_ADDR"),
                }
            )


def flask_after_request(response: Any) -> Any:
    """Flask ``after_request``: tell RequestObserver the route and match id,
    and count a streamed response as open until it is closed."""
    rule = request.url_rule
    if rule is not None:
        environ = request.environ
        environ["tabula.route"] = rule.rule
        view_args = request.view_args
        if view_args and "match_id" in view_args:
            environ["tabula.match_id"] = view_args["match_id"]
        if response.is_streamed:
            response.call_on_close(stream_opened(rule.rule))
    return response


# --- the scrape ------------------------------------------------------------


class _ScrapeTimeCollector:
    """Gauges read from storage at scrape time: the AI queue's length and
    the matches per status and game (the lobby's sorted sets)."""

    def __init__(self, services: Any) -> None:
        self.services = services

    def collect(self) -> Iterator[Any]:
        svc = self.services
        up = GaugeMetricFamily(
            "tabula_metrics_storage_up", "1 when this scrape could read the storage gauges below, else 0."
        )
        store_client, queue_client = svc.probe_clients()
        games = engine.list_games()
        try:
            depth = queue_client.llen(svc.queue.key)
            pipe = store_client.pipeline(transaction=False)
            for status in storage_keys.STATUSES:
                for game in games:
                    pipe.zcard(storage_keys.lobby_key(status, game))
            counts = pipe.execute()
        except redis.RedisError:
            up.add_metric([], 0)
            yield up
            return
        up.add_metric([], 1)
        yield up
        queue = GaugeMetricFamily("tabula_ai_queue_depth", "AI jobs waiting in the queue.", labels=["queue"])
        queue.add_metric([svc.queue.name], depth)
        yield queue
        matches = GaugeMetricFamily(
            "tabula_matches", "Matches by status and game.", labels=["status", "game"]
        )
        counts = iter(counts)
        for status in storage_keys.STATUSES:
            for game in games:
                matches.add_metric([status, game], next(counts))
        yield matches
        if svc.store.replicas is not None:
            yield from _replica_gauges(store_client, svc.config)


def _replica_gauges(store_client: Any, config: dict[str, Any]) -> Iterator[Any]:
    """With REDIS_WAIT_REPLICAS: each storage primary's in-sync replicas and
    the count required (a primary below it refuses its moves)."""
    try:
        report = shard_report(store_client, config["REDIS_REPLICA_MAX_LAG_S"])
    except redis.RedisError:
        return
    required = GaugeMetricFamily(
        "tabula_storage_replicas_required", "REDIS_WAIT_REPLICAS: in-sync replicas a primary needs."
    )
    required.add_metric([], config["REDIS_WAIT_REPLICAS"])
    yield required
    in_sync = GaugeMetricFamily(
        "tabula_storage_replicas",
        "In-sync replicas of each storage primary (cluster: host:port; else primary).",
        labels=["node"],
    )
    for shard in report:
        if shard.reachable:
            in_sync.add_metric([shard.node], shard.in_sync)
    yield in_sync


class _Union:
    def __init__(self, *collectors: Any) -> None:
        self.collectors = collectors

    def collect(self) -> Iterator[Any]:
        for collector in self.collectors:
            yield from collector.collect()


def _collected_registry() -> Any:
    """Every process's metrics in multiprocess mode, else this process's."""
    if not MULTIPROCESS:
        return PROCESS_REGISTRY
    registry = CollectorRegistry()
    multiprocess.MultiProcessCollector(registry)
    return registry


def serve_worker_metrics(port: str | int | None) -> Any:
    """A worker in its own container (no shared multiprocess directory with
    the API) serves its metrics itself on ``port`` (``WORKER_METRICS_PORT``):
    AI decision time, job pickup latency, turn time-outs. Nothing when unset."""
    if not port:
        return None
    return start_http_server(int(port), registry=_collected_registry())


def exposition(services: Any) -> tuple[bytes, str]:
    """``(body, content type)`` of ``GET /metrics``."""
    metric_batches.flush()  # this process's pending writes, at least
    return (
        generate_latest(_Union(_collected_registry(), _ScrapeTimeCollector(services))),
        CONTENT_TYPE_LATEST,
    )
