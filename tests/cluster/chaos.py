"""What the failover chaos tests share: a client that plays its own match
through a real gunicorn as tabula_client does (an Idempotency-Key on every
post, a 503 retried with the same key), and the checks made afterwards.

Every request is logged as ``(match id, status or "error", seconds taken,
started at, error code, path)``.
"""

import json
import threading
import time
import uuid

HTTP_TIMEOUT_S = 10


class Player(threading.Thread):
    """One client on its own match: lists, posts (retrying 503 with the same
    key), records what the server said and how long it took; after
    ``moves`` accepted moves (or ``finish_bound_s``) it resigns."""

    def __init__(self, server, match_id, token, log, moves=8, finish_bound_s=40):
        super().__init__(daemon=True)
        self.server, self.match_id, self.token, self.log = server, match_id, token, log
        self.moves, self.finish_bound_s = moves, finish_bound_s
        self.accepted = []  # (version, action) the server answered 2xx to
        self.resigned = None  # the status the resign got in the end

    def call(self, method, path, body=None, key=None):
        headers = {"Authorization": f"Bearer {self.token}"}
        if key:
            headers["Idempotency-Key"] = key
        started = time.monotonic()
        try:
            status, _, raw = self.server.request(method, path, body, headers, timeout=HTTP_TIMEOUT_S)
        except OSError as exc:  # a hang past the timeout, a reset: both failures
            self.log.append((self.match_id, "error", time.monotonic() - started, started, repr(exc), path))
            raise
        payload = json.loads(raw) if raw else {}
        self.log.append(
            (
                self.match_id,
                status,
                time.monotonic() - started,
                started,
                payload.get("error") if status >= 400 else None,
                path,
            )
        )
        return status, payload

    def send(self, method, path, body=None):
        key = str(uuid.uuid4())
        while True:
            status, payload = self.call(method, path, body, key)
            if status != 503:
                return status, payload
            time.sleep(0.1)

    def run(self):
        base = f"/v1/matches/{self.match_id}"
        deadline = time.monotonic() + self.finish_bound_s
        while len(self.accepted) < self.moves and time.monotonic() < deadline:
            status, listed = self.call("GET", f"{base}/actions")
            if status == 503:
                time.sleep(0.1)
                continue
            if listed.get("status") == "finished":
                return
            if not listed.get("actions"):
                time.sleep(0.05)  # the AI's turn
                continue
            action = listed["actions"][len(self.accepted) % len(listed["actions"])]
            status, answer = self.send(
                "POST", f"{base}/actions", {"action": action, "version": listed["version"]}
            )
            if 200 <= status < 300:
                self.accepted.append((answer["version"], action))
        self.resigned, _ = self.send("POST", f"{base}/resign")


def wait_finished(server, match_ids, bound_s):
    """The matches of ``match_ids`` not finished within ``bound_s``."""
    deadline = time.monotonic() + bound_s
    pending = set(match_ids)
    while pending and time.monotonic() < deadline:
        for match_id in list(pending):
            status, _, raw = server.request("GET", f"/v1/matches/{match_id}", timeout=HTTP_TIMEOUT_S)
            if status == 200 and json.loads(raw)["status"] == "finished":
                pending.discard(match_id)
        time.sleep(0.2)
    return pending


def replay_check(server, match_id, accepted=()):
    """``(lost, final version, replay length, resignations)``: the ``accepted``
    ``(version, action)`` pairs not in the replay at their version."""
    status, _, raw = server.request("GET", f"/v1/matches/{match_id}/replay")
    assert status == 200, raw
    actions = [entry["action"] for entry in json.loads(raw)["actions"]]
    _, _, raw = server.request("GET", f"/v1/matches/{match_id}")
    match = json.loads(raw)
    resigned = sum(1 for seat in match["seats"] if seat.get("resigned"))
    lost = [(v, a) for v, a in accepted if v > len(actions) or actions[v - 1] != a]
    return lost, match["version"], len(actions), resigned
