"""The Python client (client/) against a real stack: a private redis-server,
one RQ worker for the AI seats and one gunicorn (deploy/gunicorn.conf.py).

The client is imported from its source tree (``client/src`` on sys.path), so
``make test`` needs no extra install; its one dependency, httpx, is in the
root project's ``test`` extra.
"""

import sys
from pathlib import Path

import pytest

from tests.service.live import LiveServer, RqWorker

ROOT = Path(__file__).resolve().parents[2]
CLIENT_SRC = ROOT / "client" / "src"
if str(CLIENT_SRC) not in sys.path:
    sys.path.insert(0, str(CLIENT_SRC))

from tabula_client import Client  # noqa: E402  (importable once client/src is on sys.path)

# Open streams would hold gunicorn's stop for 20 s; a stream waits
# STREAM_REMATCH_WAIT_S (30 s) after the end for a rematch before its final Match.
SERVER_ENV = {"GUNICORN_GRACEFUL_TIMEOUT": "2", "STREAM_REMATCH_WAIT_S": "0"}


@pytest.fixture(scope="session")
def server_url(redis_url, tmp_path_factory):
    """The base URL of gunicorn + one AI worker, rate limits off."""
    logs = tmp_path_factory.mktemp("client-stack")
    with RqWorker(redis_url, log=logs / "worker.log"), \
            LiveServer(redis_url, log=logs / "gunicorn.log", env=SERVER_ENV) as server:
        yield server.url


@pytest.fixture
def api(server_url):
    with Client(server_url, timeout=10.0) as client:
        yield client
