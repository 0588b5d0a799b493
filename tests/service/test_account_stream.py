"""GET /v1/account/stream against gunicorn, a real redis-server and an RQ
worker: the first your_turn messages, order, resume with Last-Event-ID
(nothing skipped or repeated), one connection carrying two matches played
against the AI, nothing private (each message's data against the seat's
public /events and the spectators' Match), SSE ids.
"""

import http.client
import json
import socket
import time

import pytest

from launcher.redis_process import RedisProcess

from .live import LiveServer, RqWorker

pytestmark = pytest.mark.slow

PUBLIC_KEYS = {"game", "seat", "version", "deadline", "reason", "result"}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    logs = tmp_path_factory.mktemp("account-stream-logs")
    env = {"STREAM_KEEPALIVE_S": "0.5", "GUNICORN_GRACEFUL_TIMEOUT": "2"}
    with (
        RedisProcess() as redis_server,
        RqWorker(redis_server.url, log=logs / "worker.log"),
        LiveServer(redis_server.url, workers=1, log=logs / "gunicorn.log", env=env) as server,
    ):
        yield server


class AccountStream:
    """One open account stream (NDJSON, or SSE parsed into ``{"id", "event", "data"}``)."""

    def __init__(self, server, token, sse=False, headers=None, query=""):
        self.sse = sse
        sock = socket.create_connection(("127.0.0.1", server.port), timeout=20)
        self.conn = http.client.HTTPConnection("127.0.0.1", server.port)
        self.conn.sock = sock
        sent = {"Accept": "text/event-stream" if sse else "application/x-ndjson", **(headers or {})}
        if token != "-":
            sent["Authorization"] = f"Bearer {token}"
        self.conn.request("GET", f"/v1/account/stream{query}", headers=sent)
        self.response = self.conn.getresponse()
        self.status = self.response.status

    def next(self):
        """The next message (keep-alives skipped), as its JSON (SSE: with ``sse_id``)."""
        while True:
            if not self.sse:
                line = self.response.readline()
                assert line, "the stream ended"
                if line.strip():
                    return json.loads(line)
                continue
            fields = self._sse_block()
            if "data" in fields:
                message = json.loads(fields["data"])
                assert fields["event"] == message["type"]
                message["sse_id"] = fields.get("id")
                return message

    def _sse_block(self):
        fields = {}
        while True:
            line = self.response.readline().decode()
            assert line, "the stream ended"
            line = line.rstrip("\n")
            if not line:
                return fields
            if not line.startswith(":"):
                name, _, value = line.partition(":")
                fields[name] = value.removeprefix(" ")

    def until(self, predicate, limit=2000):
        out = []
        for _ in range(limit):
            out.append(self.next())
            if predicate(out[-1]):
                return out
        raise AssertionError("too many messages")

    def close(self):
        self.conn.close()


def call(server, method, path, token=None, body=None):
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    status, _, raw = server.request(method, path, body, headers)
    return status, (json.loads(raw) if raw else None)


def sign_up(server, name):
    status, body = call(server, "POST", "/v1/accounts", body={"name": name, "kind": "bot"})
    assert status == 201, body
    return body["token"]


def vs_ai(server, token, seed):
    body = {
        "game": "anno1503",
        "seats": [{"kind": "human", "name": "me"}, {"kind": "ai", "level": "random"}],
        "seed": seed,
        "dice": "reproducible",
    }
    status, created = call(server, "POST", "/v1/matches", token, body)
    assert status == 201, created
    return created["match"]["id"]


def wait_my_turn(server, token, match_id, timeout=30):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        _, listed = call(server, "GET", f"/v1/matches/{match_id}/actions", token)
        if listed["actions"] or listed["status"] == "finished":
            return listed
        time.sleep(0.05)
    raise AssertionError("the AI did not move")


def play(server, token, match_id, moves):
    for _ in range(moves):
        listed = wait_my_turn(server, token, match_id)
        if not listed["actions"]:
            return
        body = {"action": listed["actions"][0], "version": listed["version"]}
        status, moved = call(server, "POST", f"/v1/matches/{match_id}/actions", token, body)
        assert status == 200, moved


def test_one_stream_carries_two_matches_in_order_with_nothing_private(server):
    token = sign_up(server, "Streamer")
    stream = AccountStream(server, token)
    try:
        assert stream.status == 200
        matches = [vs_ai(server, token, seed) for seed in (3, 4)]
        for match_id in matches:
            play(server, token, match_id, 3)
            assert call(server, "POST", f"/v1/matches/{match_id}/resign", token)[0] == 200
        finished = set()

        def both_finished(message):
            if message["type"] == "match_finished":
                finished.add(message["match_id"])
            return finished == set(matches)

        messages = stream.until(both_finished)
    finally:
        stream.close()
    ids = [m["id"] for m in messages]
    assert all(ids) and ids == sorted(ids, key=lambda i: tuple(map(int, i.split("-"))))
    for match_id in matches:
        mine = [m for m in messages if m["match_id"] == match_id]
        assert mine[0]["type"] == "match_started" and mine[-1]["type"] == "match_finished"
        _check_public(server, token, match_id, mine)


def _check_public(server, token, match_id, messages):
    """Every message's data is what the seat's /events and the spectators' Match show."""
    _, spectator = call(server, "GET", f"/v1/matches/{match_id}")
    _, seat_events = call(server, "GET", f"/v1/matches/{match_id}/events?limit=1000", token)
    versions = {e["version"] for e in seat_events["events"]} | {0}
    for message in messages:
        data = message["data"]
        assert set(data) <= PUBLIC_KEYS, data
        assert data["game"] == spectator["game"] and data["version"] in versions
        assert data["seat"] == 0 and spectator["seats"][0]["account"]["name"] == "Streamer"
        if message["type"] == "match_finished":
            assert data["result"] == spectator["result"]
        if message["type"] == "seat_handed_to_ai":
            assert data["reason"] == "resign"


def test_first_your_turn_then_resume_after_last_event_id_without_gap_or_repeat(server):
    token = sign_up(server, "Resumer")
    match_id = vs_ai(server, token, 5)
    wait_my_turn(server, token, match_id)
    first = AccountStream(server, token, sse=True)
    try:
        head = first.next()
        assert head["type"] == "your_turn" and head["id"] is None and head["sse_id"] is None
        assert head["match_id"] == match_id
        play(server, token, match_id, 2)
        seen = first.until(lambda m: m["type"] == "your_turn")
    finally:
        first.close()
    assert all(m["sse_id"] == m["id"] for m in seen)
    cut = seen[0]["id"]
    play(server, token, match_id, 2)
    call(server, "POST", f"/v1/matches/{match_id}/resign", token)
    resumed = AccountStream(server, token, headers={"Last-Event-ID": cut})
    try:
        rest = resumed.until(lambda m: m["type"] == "match_finished")
    finally:
        resumed.close()
    whole = AccountStream(server, token, query="?last_event_id=0")
    try:
        everything = whole.until(lambda m: m["type"] == "match_finished")
    finally:
        whole.close()
    logged = [m["id"] for m in everything if m["id"] is not None]
    assert len(logged) == len(set(logged))
    assert [m["id"] for m in rest if m["id"] is not None] == logged[logged.index(cut) + 1 :]


def test_the_stream_needs_match_read(server):
    token = sign_up(server, "Scoped")
    status, minted = call(
        server, "POST", "/v1/account/tokens", token, {"label": "x", "scopes": ["match:play"]}
    )
    assert status == 201
    status, body = call(server, "GET", "/v1/account/stream", minted["token"])
    assert status == 403 and body["details"]["missing_scope"] == "match:read"
    assert call(server, "GET", "/v1/account/stream")[0] == 401


def test_a_stream_ticket_opens_the_account_stream_once(server):
    token = sign_up(server, "Ticketed")
    match_id = vs_ai(server, token, 6)
    wait_my_turn(server, token, match_id)
    status, ticket = call(server, "POST", "/v1/account/stream-ticket", token)
    assert status == 201 and ticket["expires_at"].endswith("Z")
    stream = AccountStream(server, "-", sse=True, query=f"?ticket={ticket['ticket']}")
    try:
        assert stream.status == 200
        head = stream.next()
        assert head["type"] == "your_turn" and head["match_id"] == match_id
    finally:
        stream.close()
    again = AccountStream(server, "-", query=f"?ticket={ticket['ticket']}")
    try:
        assert again.status == 401
    finally:
        again.close()


def _ends_within(stream, seconds):
    """True when the stream ends (keep-alives read past) within ``seconds``."""
    stream.conn.sock.settimeout(seconds)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not stream.response.readline():
            return True
    return False


def test_an_open_stream_ends_when_its_token_is_revoked(server):
    token = sign_up(server, "Revoked")
    kept = AccountStream(server, token)
    extra = call(server, "POST", "/v1/account/tokens", token, {"label": "other", "scopes": ["match:read"]})[1]
    other = AccountStream(server, extra["token"])
    assert kept.status == other.status == 200
    assert call(server, "DELETE", f"/v1/account/tokens/{extra['id']}", token)[0] == 204
    try:
        assert _ends_within(other, 5)  # STREAM_KEEPALIVE_S is 0.5 here
        assert not _ends_within(kept, 2)  # the account's other token keeps its stream
    finally:
        kept.close()
        other.close()
