"""Fixtures: a private redis-server, the app on it, and helpers to drive AI jobs.

The redis-server is started by ``launcher.redis_process.RedisProcess`` on a
free port (never the machine's own Redis) and flushed before each test.
"""

import time
from contextlib import contextmanager

import pytest
import redis
from rq import SimpleWorker

from launcher.redis_process import RedisProcess, free_port
from service import create_app
from service.worker import ai_jobs


@pytest.fixture(scope="session")
def redis_server():
    with RedisProcess() as server:
        yield server


def unreachable_redis_url():
    """A Redis URL on a port nothing listens on (it was free a moment ago)."""
    return f"redis://127.0.0.1:{free_port()}/0"


# The internal port the test apps serve /metrics on (a test client's
# ``base_url`` names it; nothing listens: service/http/internal_port.py).
METRICS_PORT = 9400
METRICS_BASE_URL = f"http://localhost:{METRICS_PORT}"


def make_app(url, **overrides):
    config = {
        "REDIS_URL": url,
        "RATE_LIMIT": 0,
        "CREATE_RATE_LIMIT": 0,
        "METRICS_PORT": METRICS_PORT,
        **overrides,
    }
    app = create_app(config)
    app.testing = True
    return app


RATE_WINDOW_S = 60
WINDOW_EDGE_MARGIN_S = 10  # far more than a test's requests take on a loaded machine


def rate_limited_app(url, **overrides):
    """``make_app`` with fixed rate-limit windows of RATE_WINDOW_S, made
    clear of a window's end: windows are aligned to the clock, so requests
    that straddle an edge see two budgets and a test counting on one fails
    (seen once under load)."""
    left = RATE_WINDOW_S - time.time() % RATE_WINDOW_S
    if left < WINDOW_EDGE_MARGIN_S:
        time.sleep(left + 0.01)
    return make_app(url, RATE_LIMIT_WINDOW_S=RATE_WINDOW_S, **overrides)


@contextmanager
def fresh_app(url, **overrides):
    """``make_app`` on the flushed Redis at ``url``; its Services closed after."""
    redis.Redis.from_url(url).flushdb()
    app = make_app(url, **overrides)
    try:
        yield app
    finally:
        app.extensions["tabula"].close()


@pytest.fixture
def app(redis_server):
    with fresh_app(redis_server.url) as app:
        yield app


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def services(app):
    return app.extensions["tabula"]


def run_ai_jobs(services, max_jobs=None):
    """Run queued AI jobs in this process until the queue is empty."""
    ai_jobs.bind(services)
    worker = SimpleWorker(
        [services.queue], connection=services.rq_redis, serializer=services.queue.serializer
    )
    worker.work(burst=True, max_jobs=max_jobs, logging_level="WARNING")


@pytest.fixture
def ai_runner(services):
    return lambda max_jobs=None: run_ai_jobs(services, max_jobs)


@pytest.fixture
def stall_app(redis_server):
    """An app on a flushed ``redis_server`` whose AI decisions count as
    stalled at once (AI_STALL_S=0): the recovery acts on every read and sweep."""
    with fresh_app(redis_server.url, AI_STALL_S=0, WORKER_SEEN_S=5) as app:
        yield app
