"""The Python client (client/) against a real stack: a private redis-server,
one RQ worker for the AI seats and one gunicorn (deploy/gunicorn.conf.py).

The client is imported from its source tree (``client/src``, on the path
through pytest's ``pythonpath`` option in pyproject.toml), so
``make test`` needs no extra install; its one dependency, httpx, is in the
root project's ``test`` extra.
"""

from pathlib import Path

import pytest

from launcher.redis_process import free_port
from tabula_client import Client
from tests.service.live import QUICK_STOP_ENV, served_with_a_worker

ROOT = Path(__file__).resolve().parents[2]
CLIENT_SRC = ROOT / "client" / "src"

# Sign-ups unlimited: the account tests make several from one address; a
# webhook may point at loopback (the webhook methods' test sets one there).
SERVER_ENV = {
    **QUICK_STOP_ENV,
    "SIGNUP_RATE_LIMIT": "0",
    "WEBHOOK_ALLOW_PRIVATE": "1",
    "WEBHOOK_ALLOW_HTTP": "1",
}


@pytest.fixture(scope="session")
def metrics_port():
    """The served stack's internal port, where alone GET /metrics answers."""
    return free_port()


@pytest.fixture(scope="session")
def server_url(redis_url, tmp_path_factory, metrics_port):
    """The base URL of gunicorn + one AI worker, rate limits off."""
    env = {**SERVER_ENV, "METRICS_PORT": str(metrics_port)}
    with served_with_a_worker(redis_url, tmp_path_factory.mktemp("client-stack"), env) as url:
        yield url


@pytest.fixture
def api(server_url):
    with Client(server_url, timeout=10.0) as client:
        yield client
