"""Drive `python -m launcher.devserver` (what `make run` starts) from a test.

Every launcher gets private ports and a scratch var dir (``TABULA_*``
variables), so it never touches a `make run` of the developer nor the Redis
on 6379. Used by test_launcher.py and test_chaos.py.
"""

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from launcher.redis_process import free_port
from launcher.supervision import private_dir_path

ROOT = Path(__file__).resolve().parents[2]
START_TIMEOUT = 90


class Launcher:
    """One launcher process with its log in a file (a pipe could fill up)."""

    def __init__(self, tmp_path, **overrides):
        env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
        env.update(
            TABULA_PORT=str(free_port()),
            TABULA_REDIS_PORT=str(free_port()),
            METRICS_PORT=str(free_port()),
            TABULA_VAR_DIR=str(tmp_path / "var"),
            TABULA_RQ_WORKERS="1",
            WEB_CONCURRENCY="1",
            GUNICORN_THREADS="4",
            GUNICORN_ACCESSLOG="off",
            TABULA_STOP_TIMEOUT="20",
        )
        env.update(overrides)
        self.env = env
        self.port = int(env["TABULA_PORT"])
        self.redis_port = int(env["TABULA_REDIS_PORT"])
        self.log_path = tmp_path / f"launcher-{self.port}-{time.monotonic_ns()}.log"
        self.seen = []  # every descendant ever listed, for the final check
        with open(self.log_path, "wb") as log:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "launcher.devserver"],
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )

    @property
    def url(self):
        return f"http://127.0.0.1:{self.port}"

    def log(self):
        return self.log_path.read_text(errors="replace")

    def wait_ready(self, timeout=START_TIMEOUT):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            assert self.proc.poll() is None, f"launcher exited early:\n{self.log()}"
            if "[tabula] ready" in self.log():
                return
            time.sleep(0.2)
        pytest.fail(f"launcher not ready after {timeout} s:\n{self.log()}")

    def wait_log(self, text, timeout=30, after=0):
        """Wait until ``text`` appears in the log past offset ``after``."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if text in self.log()[after:]:
                return
            time.sleep(0.1)
        pytest.fail(f"{text!r} not in the log after {timeout} s:\n{self.log()[after:]}")

    def descendants(self):
        found = psutil.Process(self.proc.pid).children(recursive=True)
        self.seen += found
        return found

    def programs(self, needle):
        """Live descendants whose command line contains ``needle``."""
        out = []
        for proc in self.descendants():
            try:
                if needle in " ".join(proc.cmdline()) and proc.status() != psutil.STATUS_ZOMBIE:
                    out.append(proc)
            except psutil.NoSuchProcess:
                pass
        return out

    def workers(self):
        """The AI workers (not the webhook workers)."""
        return [
            p for p in self.programs("-m service.worker") if "webhook_worker" not in " ".join(p.cmdline())
        ]

    def webhook_workers(self):
        return self.programs("-m service.worker.webhook_worker")

    def redis_server(self):
        (server,) = self.programs(f"redis-server 127.0.0.1:{self.redis_port}")
        return server

    def interrupt(self, timeout=90):
        self.proc.send_signal(signal.SIGINT)
        return self.proc.wait(timeout=timeout)

    def close(self):
        """Teardown: a clean stop first, so even a failed test leaves no redis-server."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(timeout=90)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        for proc in alive(self.seen):
            proc.kill()
        # The socket directory a long var dir needs (a launcher killed with
        # SIGKILL leaves it behind).
        shutil.rmtree(private_dir_path(Path(self.env["TABULA_VAR_DIR"]).resolve()), ignore_errors=True)


def cmdlines(processes):
    out = []
    for proc in processes:
        try:
            out.append(" ".join(proc.cmdline()))
        except psutil.NoSuchProcess:
            pass
    return out


def alive(processes):
    out = []
    for proc in processes:
        try:
            if proc.is_running() and proc.status() != psutil.STATUS_ZOMBIE:
                out.append(proc)
        except psutil.NoSuchProcess:
            pass
    return out


def wait_gone(processes, timeout=10):
    """The processes still alive after up to ``timeout`` s."""
    deadline = time.monotonic() + timeout
    left = alive(processes)
    while left and time.monotonic() < deadline:
        time.sleep(0.1)
        left = alive(left)
    return left


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
