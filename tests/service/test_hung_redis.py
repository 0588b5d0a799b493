"""A hung Redis (process stopped, socket open) costs a request one timeout.

Before: with ``REDIS_SOCKET_TIMEOUT_S`` 5, a request hung 30 s (each call
timed out and was retried, and a request makes several calls) and /readyz
20 s. Now every request that needs storage answers 503 ``unavailable``
within the timeout plus a small margin, /readyz within 2 s, and the service
recovers by itself once Redis answers again.
"""

import os
import signal
import time
from contextlib import contextmanager

import pytest

from launcher.redis_process import RedisProcess

from .conftest import make_app
from .helpers import bearer, create, humans

# Left out by `make test-fast` (-m "not slow"): starts a whole stack.
pytestmark = pytest.mark.slow

TIMEOUT_S = 1.0
MARGIN_S = 0.6


@pytest.fixture
def hung():
    """A private redis-server, and a context manager that stops it for a while."""
    with RedisProcess() as server:

        @contextmanager
        def stopped():
            os.kill(server.proc.pid, signal.SIGSTOP)
            try:
                yield
            finally:
                os.kill(server.proc.pid, signal.SIGCONT)

        yield server, stopped


def _timed(call):
    start = time.monotonic()
    response = call()
    return response, time.monotonic() - start


def test_requests_answer_503_within_the_timeout_while_redis_hangs(hung):
    server, stopped = hung
    app = make_app(server.url, REDIS_SOCKET_TIMEOUT_S=TIMEOUT_S, RATE_LIMIT=100)
    client = app.test_client()
    created = create(client, seats=humans(2))
    match_id = created["match"]["id"]
    seat = created["match"]["to_act"][0]
    token = bearer(created["tokens"][str(seat)])
    action = client.get(f"/v1/matches/{match_id}/actions", headers=token).get_json()["actions"][0]
    with stopped():
        calls = [
            lambda: client.get(f"/v1/matches/{match_id}", headers=token),
            lambda: client.post(f"/v1/matches/{match_id}/actions", headers=token, json={"action": action}),
            lambda: client.get(f"/v1/matches/{match_id}/events"),
            lambda: client.post("/v1/matches", json={"game": "anno1503", "seats": humans(2)}),
        ]
        for call in calls:
            response, took = _timed(call)
            assert response.status_code == 503, response.get_json()
            assert response.get_json()["error"] == "unavailable"
            assert took <= TIMEOUT_S + MARGIN_S, took
        ready, took = _timed(lambda: client.get("/readyz"))
        assert ready.status_code == 503 and took <= 2.0, took
    # Redis answers again: the next requests go through (after the breaker's cooldown).
    deadline = time.monotonic() + 5
    while client.get(f"/v1/matches/{match_id}").status_code != 200:
        assert time.monotonic() < deadline, "no recovery within 5 s"
        time.sleep(0.2)
    moved = client.post(f"/v1/matches/{match_id}/actions", headers=token, json={"action": action})
    assert moved.status_code == 200, moved.get_json()


def test_readyz_answers_within_2_s_with_the_default_timeout(hung):
    server, stopped = hung
    app = make_app(server.url)  # REDIS_SOCKET_TIMEOUT_S 5
    client = app.test_client()
    with stopped():
        ready, took = _timed(lambda: client.get("/readyz"))
    assert ready.status_code == 503 and took <= 2.0, took
    assert ready.get_json()["checks"]["storage"].startswith("unreachable")
