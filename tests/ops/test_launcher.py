"""`python -m service.devserver` (what `make run` starts), end to end.

Every test uses private ports and a scratch var dir (``TABULA_*`` variables),
so it never touches a `make run` of the developer nor the Redis on 6379.
"""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest
import requests

from service.redis_process import RedisProcess, free_port

ROOT = Path(__file__).resolve().parents[2]
START_TIMEOUT = 90


class Launcher:
    """One launcher process with its log in a file (a pipe could fill up)."""

    def __init__(self, tmp_path, **overrides):
        env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
        env.update(
            TABULA_PORT=str(free_port()),
            TABULA_REDIS_PORT=str(free_port()),
            TABULA_VAR_DIR=str(tmp_path / "var"),
            TABULA_RQ_WORKERS="1",
            WEB_CONCURRENCY="1",
            GUNICORN_THREADS="4",
            TABULA_STOP_TIMEOUT="20",
        )
        env.update(overrides)
        self.env = env
        self.port = int(env["TABULA_PORT"])
        self.redis_port = int(env["TABULA_REDIS_PORT"])
        self.log_path = tmp_path / f"launcher-{self.port}-{time.monotonic_ns()}.log"
        with open(self.log_path, "wb") as log:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "service.devserver"], cwd=ROOT, env=env,
                stdout=log, stderr=subprocess.STDOUT,
            )

    @property
    def url(self):
        return f"http://127.0.0.1:{self.port}"

    def log(self):
        return self.log_path.read_text(errors="replace")

    def wait_ready(self):
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            assert self.proc.poll() is None, f"launcher exited early:\n{self.log()}"
            if "[tabula] ready" in self.log():
                return
            time.sleep(0.2)
        pytest.fail(f"launcher not ready after {START_TIMEOUT} s:\n{self.log()}")

    def descendants(self):
        return psutil.Process(self.proc.pid).children(recursive=True)

    def interrupt(self):
        self.proc.send_signal(signal.SIGINT)
        return self.proc.wait(timeout=60)

    def close(self):
        """Teardown: a clean stop first, so even a failed test leaves no redis-server."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def _cmdlines(processes):
    return [" ".join(p.cmdline()) for p in processes]


def _alive(processes):
    out = []
    for proc in processes:
        try:
            if proc.is_running() and proc.status() != psutil.STATUS_ZOMBIE:
                out.append(proc)
        except psutil.NoSuchProcess:
            pass
    return out


@pytest.fixture
def launch(tmp_path):
    started = []

    def start(**overrides):
        launcher = Launcher(tmp_path, **overrides)
        started.append(launcher)
        return launcher

    yield start
    for launcher in started:
        launcher.close()


def _start_and_check_stack(launch, **overrides):
    launcher = launch(**overrides)
    launcher.wait_ready()
    try:
        health = requests.get(launcher.url + "/healthz", timeout=5)
    except requests.ConnectionError as exc:
        pytest.fail(f"{exc}\n{launcher.log()}")
    assert health.status_code == 200, launcher.log()
    children = launcher.descendants()
    cmdlines = _cmdlines(children)
    assert any("-m service.worker" in c for c in cmdlines), cmdlines
    assert any("gunicorn" in c and "deploy/gunicorn.conf.py" in c for c in cmdlines), cmdlines
    return launcher, children, cmdlines


def _create_match(url):
    body = {"game": "anno1503", "seats": [{"kind": "human", "name": "Ada"},
                                          {"kind": "human", "name": "Bo"}], "seed": 5}
    response = requests.post(url + "/v1/matches", json=body, timeout=10)
    assert response.status_code == 201, response.text
    return response.json()["match"]["id"]


def test_starts_redis_worker_gunicorn_and_stops_all_on_sigint(launch):
    launcher, children, cmdlines = _start_and_check_stack(launch)
    assert any("redis-server" in c and str(launcher.redis_port) in c for c in cmdlines), cmdlines
    match_id = _create_match(launcher.url)

    assert launcher.interrupt() == 0, launcher.log()
    assert _alive(children) == [], launcher.log()
    assert "[tabula] stopped" in launcher.log()

    # The match comes back from the append-only file on the next start.
    again, _, _ = _start_and_check_stack(launch, TABULA_REDIS_PORT=str(launcher.redis_port),
                                         TABULA_PORT=str(launcher.port))
    response = requests.get(f"{again.url}/v1/matches/{match_id}", timeout=10)
    assert response.status_code == 200, response.text
    assert again.interrupt() == 0, again.log()


def test_uses_redis_url_without_starting_redis(launch):
    with RedisProcess() as external:
        launcher, children, cmdlines = _start_and_check_stack(launch, REDIS_URL=external.url)
        assert not any("redis-server" in c for c in cmdlines), cmdlines
        assert f"REDIS_URL={external.url}" in launcher.log()
        assert launcher.interrupt() == 0, launcher.log()
        assert _alive(children) == []
        assert external.proc.poll() is None  # the external Redis is left alone


def test_explains_a_redis_left_over_on_its_port(launch):
    with RedisProcess() as leftover:
        launcher = launch(TABULA_REDIS_PORT=str(leftover.port))
        status = launcher.proc.wait(timeout=30)
        assert status == 1
        log = launcher.log()
        assert f"already listening on 127.0.0.1:{leftover.port}" in log, log
        assert f"redis-cli -p {leftover.port} shutdown" in log, log
        assert leftover.proc.poll() is None


def test_refuses_a_redis_url_that_does_not_answer(launch):
    dead_url = f"redis://127.0.0.1:{free_port()}/0"
    launcher = launch(REDIS_URL=dead_url)
    assert launcher.proc.wait(timeout=30) == 1
    assert f"REDIS_URL={dead_url} does not answer" in launcher.log()


def test_a_child_that_dies_stops_everything(launch):
    launcher = launch(TABULA_WORKER_MODULE="service.no_such_worker_module")
    deadline = time.monotonic() + 30
    seen = []
    while launcher.proc.poll() is None and time.monotonic() < deadline:
        try:
            seen += launcher.descendants()
        except psutil.NoSuchProcess:
            break
        time.sleep(0.05)
    assert launcher.proc.wait(timeout=60) == 1, launcher.log()
    assert "rq-worker-1 exited with status 1" in launcher.log()
    assert _alive(seen) == [], launcher.log()
