"""A real, tiny HTTP server on loopback speaking the formats of routes the
server does not serve yet (issue 42's seats-and-history and webhooks work):
``GET /v1/account/stream`` (NDJSON, or SSE with ``Accept:
text/event-stream``; ``Last-Event-ID`` resumes), ``GET /v1/account/matches``,
``GET /v1/accounts/{name}/matches`` (JSON page, or NDJSON), and just enough
of the match routes (``GET /v1/matches/{id}``, ``GET``/``POST .../actions``)
for ``tabula bot run``.

Not a mock of httpx: the client opens real sockets, reads real chunked-less
HTTP/1.0 bodies and sees real dropped connections. Once the real routes are
merged, the tests using this stub should be re-pointed at the served stack
(see each test's docstring).
"""

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

KEEPALIVE_S = 0.2
REVOKED = "tab_pat_revoked"  # answered 401 on every GET


def first_legal(match, actions):
    """The bot of the ``bot run`` test: the last legal action (``--bot tests.client.stub_server:first_legal``)."""
    assert match["you"] is not None and match["status"] == "active" and actions
    return actions[-1]


def legal_actions(version):
    return [{"type": "pass"}, {"type": "take", "n": version}]


class StubState:
    """What the stub serves and what it saw; every field under ``lock``."""

    def __init__(self):
        self.lock = threading.Condition()
        self.log = []  # the account's logged messages (id set), in order
        # your_turn messages (id None) sent first on every connection; empty:
        # made from ``matches``, one per match with a turn left (as the server does)
        self.snapshot = []
        self.drop_after = None  # logged messages sent on the FIRST connection before it is cut
        self.connections = []  # per stream connection: {"accept", "last_event_id"}
        self.matches = {}  # match id -> {"version", "turns_left", "game"}
        self.posts = []  # every POST .../actions: {"match_id", "body", "idempotency_key", "status"}
        self.requests = []  # (method, path with query)
        self.history = []  # finished matches of /v1/accounts/{name}/matches
        self.stopping = False

    def add_event(self, type_, match_id, data):
        with self.lock:
            message = {"id": f"{len(self.log) + 1}-0", "type": type_, "match_id": match_id, "data": data}
            self.log.append(message)
            self.lock.notify_all()
            return message

    def add_match(self, match_id, version, turns, game="stubgame"):
        """A match where the account is to act at ``version`` ``turns`` times."""
        with self.lock:
            self.matches[match_id] = {"version": version, "turns_left": turns, "game": game}

    def turn_message(self, match_id, id_=None):
        match = self.matches[match_id]
        data = {"game": match["game"], "seat": 0, "version": match["version"], "deadline": None}
        return {"id": id_, "type": "your_turn", "match_id": match_id, "data": data}


def match_body(match_id, match):
    active = match["turns_left"] > 0
    return {
        "id": match_id,
        "game": match["game"],
        "options": {},
        "status": "active" if active else "finished",
        "version": match["version"],
        "seats": [{"seat": 0, "kind": "human", "name": "StubBot", "level": None, "resigned": False}],
        "to_act": [0] if active else [],
        "deadlines": {},
        "result": None if active else {"winners": [0], "reason": "stub"},
        "rematch": None,
        "dice": "fair",
        "seed_commitment": "",
        "turn_timeout_s": 0,
        "created_at": "2026-01-01T00:00:00Z",
        "updated_at": "2026-01-01T00:00:00Z",
        "view": {},
        "you": 0,
    }


class Handler(BaseHTTPRequestHandler):
    server: "StubServer"

    def log_message(self, *args):  # quiet
        pass

    @property
    def state(self):
        return self.server.state

    def send_json(self, status, body, content_type="application/json"):
        raw = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(raw)))
        self.end_headers()
        self.wfile.write(raw)

    def do_GET(self):
        url = urlsplit(self.path)
        with self.state.lock:
            self.state.requests.append(("GET", self.path))
        parts = url.path.strip("/").split("/")
        if self.headers.get("Authorization") == f"Bearer {REVOKED}":
            return self.send_json(401, {"error": "unauthorized", "message": "unknown token", "details": {}})
        if url.path == "/v1/account/stream":
            return self.stream()
        if url.path == "/v1/account":
            return self.send_json(
                200,
                {
                    "id": "a1",
                    "name": "StubBot",
                    "kind": "bot",
                    "status": "active",
                    "created_at": "2026-01-01T00:00:00Z",
                    "app": None,
                    "external_id": None,
                },
            )
        if url.path == "/v1/account/matches":
            return self.my_matches(parse_qs(url.query))
        if parts[:2] == ["v1", "accounts"] and parts[3:] == ["matches"]:
            return self.history()
        if parts[:2] == ["v1", "matches"] and len(parts) in (3, 4):
            return self.match_get(parts[2], parts[3] if len(parts) == 4 else None)
        return self.send_json(404, {"error": "not_found", "message": url.path, "details": {}})

    def do_POST(self):
        parts = urlsplit(self.path).path.strip("/").split("/")
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)) or b"{}")
        if parts[:2] == ["v1", "matches"] and parts[3:] == ["actions"]:
            return self.post_action(parts[2], body)
        return self.send_json(404, {"error": "not_found", "message": self.path, "details": {}})

    # -- the account stream --

    def stream(self):
        sse = "text/event-stream" in (self.headers.get("Accept") or "")
        after = self.headers.get("Last-Event-ID")
        with self.state.lock:
            first = not self.state.connections
            self.state.connections.append({"accept": self.headers.get("Accept"), "last_event_id": after})
            snapshot = list(self.state.snapshot) or [
                self.state.turn_message(mid) for mid, m in self.state.matches.items() if m["turns_left"] > 0
            ]
            ids = [m["id"] for m in self.state.log]
            position = ids.index(after) + 1 if after in ids else 0
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream" if sse else "application/x-ndjson")
        self.send_header("Cache-Control", "no-cache")
        self.end_headers()
        for message in snapshot:
            self.write_message(message, sse)
        sent = 0
        while True:
            with self.state.lock:
                if position >= len(self.state.log) and not self.state.stopping:
                    self.state.lock.wait(KEEPALIVE_S)
                if self.state.stopping:
                    return
                pending = self.state.log[position:]
            if not pending:
                self.wfile.write(b": keep-alive\n\n" if sse else b"\n")
                self.wfile.flush()
            for message in pending:
                if first and self.state.drop_after is not None and sent >= self.state.drop_after:
                    return  # the server drops the connection (HTTP/1.0: the body ends here)
                self.write_message(message, sse)
                position += 1
                sent += 1

    def write_message(self, message, sse):
        text = json.dumps(message)
        if sse:
            head = f"id: {message['id']}\n" if message["id"] is not None else ""
            self.wfile.write(f"{head}event: {message['type']}\ndata: {text}\n\n".encode())
        else:
            self.wfile.write(text.encode() + b"\n")
        self.wfile.flush()

    # -- lists --

    def my_matches(self, query):
        with self.state.lock:
            matches = [match_body(mid, m) for mid, m in self.state.matches.items()]
        if query.get("to_act") == ["true"]:
            matches = [m for m in matches if m["to_act"]]
        if query.get("status"):
            matches = [m for m in matches if m["status"] == query["status"][0]]
        for match in matches:
            del match["view"], match["you"]
        self.send_json(200, matches)

    def history(self):
        with self.state.lock:
            history = list(self.state.history)
        if "application/x-ndjson" in (self.headers.get("Accept") or ""):
            raw = b"".join(json.dumps(m).encode() + b"\n" for m in history)
            self.send_response(200)
            self.send_header("Content-Type", "application/x-ndjson")
            self.end_headers()
            self.wfile.write(raw)
            return
        self.send_json(200, history[:20])

    # -- one match --

    def match_get(self, match_id, tail):
        with self.state.lock:
            match = self.state.matches.get(match_id)
            body = None if match is None else match_body(match_id, match)
        if body is None:
            return self.send_json(404, {"error": "not_found", "message": match_id, "details": {}})
        if tail is None:
            return self.send_json(200, body)
        active = body["status"] == "active"
        actions = legal_actions(body["version"]) if active else []
        self.send_json(
            200,
            {
                "game": body["game"],
                "status": body["status"],
                "version": body["version"],
                "seat": 0,
                "actions": actions,
            },
        )

    def post_action(self, match_id, body):
        with self.state.lock:
            match = self.state.matches[match_id]
            post = {
                "match_id": match_id,
                "body": body,
                "idempotency_key": self.headers.get("Idempotency-Key"),
            }
            self.state.posts.append(post)
            if match["turns_left"] <= 0 or body.get("version") != match["version"]:
                post["status"] = 409
                error = {
                    "error": "version_conflict",
                    "message": "stale",
                    "details": {"current_version": match["version"]},
                }
                return self.send_json(409, error)
            if body.get("action") not in legal_actions(match["version"]):
                post["status"] = 409
                return self.send_json(409, {"error": "illegal_action", "message": "no", "details": {}})
            post["status"] = 200
            match["version"] += 2  # the move, and the opponent's answer
            match["turns_left"] -= 1
            answer = {"version": match["version"], "events": [], "match": match_body(match_id, match)}
        if match["turns_left"] > 0:
            with self.state.lock:
                message = self.state.turn_message(match_id)
            self.state.add_event("your_turn", match_id, message["data"])
        else:
            self.state.add_event(
                "match_finished", match_id, {"result": {"winners": [0]}, "version": match["version"]}
            )
        self.send_json(200, answer)


class StubServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self):
        super().__init__(("127.0.0.1", 0), Handler)
        self.state = StubState()
        self.thread = threading.Thread(target=self.serve_forever, name="stub-server", daemon=True)

    @property
    def url(self):
        return f"http://127.0.0.1:{self.server_address[1]}"

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        with self.state.lock:
            self.state.stopping = True
            self.state.lock.notify_all()
        self.shutdown()
        self.server_close()
