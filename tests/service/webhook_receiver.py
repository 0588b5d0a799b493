"""A real HTTP receiver of webhooks on loopback (http.server in a thread),
for tests/service/test_webhooks.py and bench/webhook_bench.py.

``Receiver(script)`` answers each POST with the next item of ``script``
(a status code, or ``("sleep", seconds, status)``), then 200 once it runs
out; it records every request (headers, raw body) and the delivery ids it
processed once (a receiver de-duplicates on ``Tabula-Delivery``): a
slow 2xx counts as processed, so the retry it causes is a duplicate.
"""

import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Receiver:
    def __init__(self, script=()):
        self.script = list(script)
        self.requests = []
        self.processed = []  # delivery ids, each once
        self.duplicates = 0  # deliveries seen again after being processed (ignored)
        self.lock = threading.Lock()
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def url(self):
        return f"http://127.0.0.1:{self.server.server_address[1]}/hook"

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()

    def _next(self, delivery_id):
        with self.lock:
            step = self.script.pop(0) if self.script else 200
            status = step[2] if isinstance(step, tuple) else step  # a slow 2xx is processed too
            if 200 <= status < 300:
                if delivery_id in self.processed:
                    self.duplicates += 1
                else:
                    self.processed.append(delivery_id)
        return step

    def _handler(self):
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                with receiver.lock:
                    receiver.requests.append((dict(self.headers), body))
                step = receiver._next(self.headers.get("Tabula-Delivery"))
                if isinstance(step, tuple):
                    time.sleep(step[1])
                    step = step[2]
                self.send_response(step)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        return Handler

    def wait_for(self, count, timeout=30.0):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.lock:
                if len(self.requests) >= count:
                    return list(self.requests)
            time.sleep(0.05)
        raise AssertionError(f"{len(self.requests)} requests, not {count}, within {timeout} s")
