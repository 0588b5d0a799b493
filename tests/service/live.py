"""A real gunicorn (deploy/gunicorn.conf.py) and a real RQ worker on a private
redis-server, for the tests that must see what the WSGI test client cannot:
gunicorn's own errors, chunked bodies, the fuzzer over HTTP.

    with RedisProcess() as redis_server, LiveServer(redis_server.url) as server:
        status, headers, body = server.request("GET", "/healthz")
"""

import contextlib
import http.client
import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

from launcher.redis_process import free_port
from launcher.supervision import gunicorn_command

ROOT = Path(__file__).resolve().parents[2]


def _child_env(redis_url, extra):
    env = dict(os.environ)
    env.update(
        {
            "REDIS_URL": redis_url,
            "RQ_REDIS_URL": redis_url,
            "PYTHONPATH": str(ROOT),
            "PYTHONUNBUFFERED": "1",
        }
    )
    env.update(extra or {})
    return env


def _stop(proc, timeout=15):
    if proc is None or proc.poll() is not None:
        return
    proc.terminate()
    try:
        proc.wait(timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


class LiveServer:
    """gunicorn with deploy/gunicorn.conf.py on a free loopback port.

    ``env`` adds to (or overrides) the environment; rate limits are off by
    default. ``log`` is the file gunicorn's error log goes to (a path).
    """

    def __init__(self, redis_url, env=None, workers=1, threads=8, log=None, port=None):
        self.port = port or free_port()
        self.metrics_port = free_port()  # GET /metrics answers only there
        self.log_path = log
        self.env = _child_env(
            redis_url,
            {
                "TABULA_BIND": f"127.0.0.1:{self.port}",
                "METRICS_PORT": str(self.metrics_port),
                "WEB_CONCURRENCY": str(workers),
                "GUNICORN_THREADS": str(threads),
                "GUNICORN_ACCESSLOG": "off",
                "GUNICORN_MAX_REQUESTS": "0",
                "GUNICORN_LOGLEVEL": "warning",
                "RATE_LIMIT": "0",
                "CREATE_RATE_LIMIT": "0",
                **(env or {}),
            },
        )
        self.proc = None
        self._log_file = None

    @property
    def url(self):
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout=60):
        command = gunicorn_command("service:create_app()")
        self._log_file = open(self.log_path, "ab") if self.log_path else subprocess.DEVNULL  # noqa: SIM115
        self.proc = subprocess.Popen(
            command, cwd=ROOT, env=self.env, stdout=self._log_file, stderr=self._log_file
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"gunicorn exited with status {self.proc.returncode}")
            try:
                if self.request("GET", "/healthz")[0] == 200:
                    return self
            except OSError:
                pass
            time.sleep(0.2)
        self.stop()
        raise RuntimeError("gunicorn did not answer /healthz")

    def stop(self):
        _stop(self.proc)
        self.proc = None
        if self._log_file not in (None, subprocess.DEVNULL):
            self._log_file.close()
        self._log_file = None

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()

    def scrape(self):
        """The Prometheus text of ``GET /metrics`` on the internal port."""
        status, _, body = self.request("GET", "/metrics", port=self.metrics_port)
        assert status == 200, body
        return body.decode()

    def request(self, method, path, body=None, headers=None, timeout=30, port=None):
        """``(status, headers, body bytes)`` over a fresh connection (to the
        API's port unless ``port``); ``body`` a dict is sent as JSON."""
        headers = dict(headers or {})
        if isinstance(body, dict):
            body = json.dumps(body).encode()
            headers.setdefault("Content-Type", "application/json")
        conn = http.client.HTTPConnection("127.0.0.1", port or self.port, timeout=timeout)
        try:
            conn.request(method, path, body, headers)
            response = conn.getresponse()
            return response.status, dict(response.getheaders()), response.read()
        finally:
            conn.close()

    def raw(self, data, timeout=30):
        """Send ``data`` (bytes: a whole HTTP request) on a fresh socket;
        ``(status, headers, body bytes)`` of the answer."""
        with socket.create_connection(("127.0.0.1", self.port), timeout=timeout) as sock:
            sock.sendall(data)
            response = http.client.HTTPResponse(sock, method="POST")
            response.begin()
            return response.status, dict(response.getheaders()), response.read()


def chunked_request(path, body, headers=None, chunk_size=4096):
    """A POST of ``body`` (bytes) with ``Transfer-Encoding: chunked`` and no
    Content-Length, as raw bytes."""
    lines = [
        f"POST {path} HTTP/1.1",
        "Host: 127.0.0.1",
        "Content-Type: application/json",
        "Transfer-Encoding: chunked",
        "Connection: close",
    ]
    lines += [f"{name}: {value}" for name, value in (headers or {}).items()]
    out = ("\r\n".join(lines) + "\r\n\r\n").encode()
    for start in range(0, len(body), chunk_size):
        chunk = body[start : start + chunk_size]
        out += f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n"
    return out + b"0\r\n\r\n"


class RqWorker:
    """``python -m service.worker`` on ``redis_url`` (the AI seats' worker)."""

    def __init__(self, redis_url, log=None):
        self.env = _child_env(redis_url, {})
        self.log_path = log
        self.proc = None
        self._log_file = None

    def __enter__(self):
        self._log_file = open(self.log_path, "ab") if self.log_path else subprocess.DEVNULL
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "service.worker"],
            cwd=ROOT,
            env=self.env,
            stdout=self._log_file,
            stderr=self._log_file,
        )
        return self

    def __exit__(self, *exc):
        _stop(self.proc)
        if self._log_file not in (None, subprocess.DEVNULL):
            self._log_file.close()


# Open streams would hold gunicorn's stop for 20 s; a stream waits
# STREAM_REMATCH_WAIT_S (30 s) after the end for a rematch before its final Match.
QUICK_STOP_ENV = {"GUNICORN_GRACEFUL_TIMEOUT": "2", "STREAM_REMATCH_WAIT_S": "0"}


@contextlib.contextmanager
def served_with_a_worker(redis_url, logs, env=QUICK_STOP_ENV):
    """gunicorn and one RQ worker on ``redis_url`` (logs in ``logs``); yields the base URL."""
    with (
        RqWorker(redis_url, log=logs / "worker.log"),
        LiveServer(redis_url, log=logs / "gunicorn.log", env=env) as server,
    ):
        yield server.url
