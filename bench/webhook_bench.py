"""Webhook deliveries per second of ONE webhook worker (docs/webhooks.md).

A private redis-server, ``--accounts`` accounts each with a webhook to one
HTTP receiver on loopback (answers 204 at once), ``--events`` account events
published (one delivery each, queued before the worker starts); then one
``python -m service.worker.webhook_worker`` process (the in-process
``SimpleWorker``, as deployed) drains the queue. The rate is counted from the
receiver's first request to its last, so the worker's start-up is left out.
Bounded: ``--timeout`` seconds at most.

    .venv/bin/python -m bench.webhook_bench [--events 2000] [--accounts 20] [--json]
"""

import argparse
import json
import os
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import ClassVar

from launcher.redis_process import RedisProcess
from service import create_app
from service.accounts.events import publish_account_event

ROOT = Path(__file__).resolve().parents[1]
SETTINGS = {"WEBHOOK_ALLOW_HTTP": 1, "WEBHOOK_ALLOW_PRIVATE": 1, "RATE_LIMIT": 0, "SIGNUP_RATE_LIMIT": 0}


class Counter(BaseHTTPRequestHandler):
    """Reads the body, answers 204, notes when."""

    times: ClassVar[list[float]] = []

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        self.send_response(204)
        self.end_headers()
        Counter.times.append(time.monotonic())

    def log_message(self, *args: object) -> None:
        pass


def _accounts(client, count: int, url: str) -> list[str]:
    aids = []
    for i in range(count):
        token = client.post("/v1/accounts", json={"name": f"bench{i}", "kind": "bot"}).json["token"]
        headers = {"Authorization": f"Bearer {token}"}
        assert client.put("/v1/account/webhook", json={"url": url}, headers=headers).status_code == 200
        aids.append(client.get("/v1/account", headers=headers).json["id"])
    return aids


def _drain(redis_url: str, events: int, timeout: float) -> None:
    env = {**os.environ, "REDIS_URL": redis_url, "LOGLEVEL": "WARNING", "METRICS": "0"}
    env.update({k: str(v) for k, v in SETTINGS.items()})
    worker = subprocess.Popen([sys.executable, "-m", "service.worker.webhook_worker"], cwd=ROOT, env=env)
    deadline = time.monotonic() + timeout
    try:
        while len(Counter.times) < events and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        worker.terminate()
        worker.wait(30)


def measure(events: int, accounts: int, timeout: float) -> dict[str, float]:
    receiver = ThreadingHTTPServer(("127.0.0.1", 0), Counter)
    threading.Thread(target=receiver.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{receiver.server_address[1]}/hook"
    with RedisProcess() as server:
        app = create_app({"REDIS_URL": server.url, "REQUEST_LOG": 0, **SETTINGS})
        services = app.extensions["tabula"]
        aids = _accounts(app.test_client(), accounts, url)
        for i in range(events):
            publish_account_event(services, aids[i % accounts], "your_turn", {"seat": 0, "version": i}, "m1")
        _drain(server.url, events, timeout)
        services.close()
    receiver.shutdown()
    done = len(Counter.times)
    span = Counter.times[-1] - Counter.times[0] if done > 1 else float("nan")
    return {
        "events": events,
        "delivered": done,
        "seconds": round(span, 2),
        "per_s": round((done - 1) / span, 1),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--events", type=int, default=2000)
    parser.add_argument("--accounts", type=int, default=20)
    parser.add_argument("--timeout", type=float, default=120.0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = measure(args.events, args.accounts, args.timeout)
    print(json.dumps(result) if args.json else f"{result['per_s']} deliveries/s per worker ({result})")
    return 0 if result["delivered"] == args.events else 1


if __name__ == "__main__":
    sys.exit(main())
