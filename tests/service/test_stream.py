"""GET /v1/matches/{id}/stream (SSE and NDJSON) and POST .../stream-ticket,
against a real gunicorn with the gevent worker (deploy/gunicorn.conf.py) and a
real RQ worker playing the AI seats (service/live/hub.py has the design).
"""

import http.client
import json
import random
import socket
import time

import pytest
import redis

from launcher.redis_process import RedisProcess

from .live import LiveServer, RqWorker

# Left out by `make test-fast` (-m "not slow"): seconds each: live streams.
pytestmark = pytest.mark.slow

KEEPALIVE_S = 0.5
TICKET_TTL_S = 2
REMATCH_WAIT_S = 3


@pytest.fixture(scope="module")
def stack(tmp_path_factory):
    logs = tmp_path_factory.mktemp("stream-logs")
    with (
        RedisProcess() as redis_server,
        RqWorker(redis_server.url, log=logs / "worker.log"),
        LiveServer(
            redis_server.url,
            workers=1,
            log=logs / "gunicorn.log",
            env={
                "STREAM_KEEPALIVE_S": str(KEEPALIVE_S),
                "STREAM_TICKET_TTL_S": str(TICKET_TTL_S),
                "STREAM_REMATCH_WAIT_S": str(REMATCH_WAIT_S),
                "REDIS_MAX_CONNECTIONS": "8",
            },
        ) as server,
    ):
        yield server, redis_server


@pytest.fixture
def server(stack):
    return stack[0]


# --- a small streaming client ---------------------------------------------


class Stream:
    """One open stream; ``sse`` chooses the media type."""

    def __init__(
        self, server, match_id, token=None, sse=True, query="", headers=None, rcvbuf=None, timeout=10
    ):
        self.sse = sse
        self.sock = socket.socket()
        if rcvbuf:
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        self.sock.settimeout(timeout)
        self.sock.connect(("127.0.0.1", server.port))
        self.conn = http.client.HTTPConnection("127.0.0.1", server.port)
        self.conn.sock = self.sock
        sent = {"Accept": "text/event-stream" if sse else "application/x-ndjson", **(headers or {})}
        if token:
            sent["Authorization"] = f"Bearer {token}"
        self.conn.request("GET", f"/v1/matches/{match_id}/stream{query}", headers=sent)
        self.response = self.conn.getresponse()
        self.status = self.response.status

    def body(self):
        return self.response.read()

    def next(self):
        """The next message: SSE ``{"event", "id", "data"}`` or ``{"comment"}``;
        NDJSON the JSON value, or ``{"keepalive": True}`` for an empty line;
        None at the end of the stream."""
        if not self.sse:
            line = self.response.readline()
            if not line:
                return None
            line = line.rstrip(b"\n")
            return json.loads(line) if line else {"keepalive": True}
        message = {}
        while True:
            line = self.response.readline()
            if not line:
                return None
            line = line.decode().rstrip("\n")
            if not line:
                if message:
                    if "data" in message:
                        message["data"] = json.loads(message["data"])
                    return message
                continue
            if line.startswith(":"):
                message.setdefault("comment", line[1:].strip())
                continue
            field, _, value = line.partition(":")
            message[field] = value.removeprefix(" ")

    def events_until(self, last_seq, limit=5000):
        """Events (skipping keep-alives) until the one with ``last_seq``."""
        out = []
        for _ in range(limit):
            message = self.next()
            assert message is not None, "the stream ended early"
            event = self.as_event(message)
            if event is None:
                continue
            out.append(event)
            if event["seq"] >= last_seq:
                return out
        raise AssertionError("too many messages")

    def as_event(self, message):
        if self.sse:
            if "id" not in message:
                return None
            assert message["event"] == message["data"]["type"]
            assert int(message["id"]) == message["data"]["seq"]
            return message["data"]
        return message if "seq" in message else None

    def rest(self):
        """Every message until the end of the stream."""
        out = []
        while (message := self.next()) is not None:
            out.append(message)
        return out

    def close(self):
        self.conn.close()
        self.sock.close()


def _json(answer, status=200):
    code, _, body = answer
    assert code == status, (code, body[:500])
    return json.loads(body)


def _auth(token):
    return {"Authorization": f"Bearer {token}"} if token else {}


def _create(server, game="anno1503", seats=None, **extra):
    seats = seats or [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}]
    return _json(server.request("POST", "/v1/matches", {"game": game, "seats": seats, **extra}), 201)


def _events(server, match_id, token=None, after=0):
    out = []
    while True:
        page = _json(
            server.request(
                "GET", f"/v1/matches/{match_id}/events?after={after}&limit=1000", headers=_auth(token)
            )
        )
        out += page["events"]
        after = page["last_seq"]
        if not page["more"]:
            return out


def _play(server, created, moves, rng, humans=None):
    """Post ``moves`` random legal moves of the human seats (waiting for AI seats)."""
    match = _json(server.request("GET", f"/v1/matches/{created['match']['id']}"))
    tokens = created["tokens"]
    posted = 0
    deadline = time.monotonic() + 60
    while posted < moves and match["status"] == "active":
        assert time.monotonic() < deadline, "the AI seats did not play"
        seat = next(
            (s for s in match["to_act"] if str(s) in tokens and (humans is None or s in humans)), None
        )
        if seat is None:
            time.sleep(0.05)
            match = _json(server.request("GET", f"/v1/matches/{match['id']}"))
            continue
        token = tokens[str(seat)]
        listed = _json(server.request("GET", f"/v1/matches/{match['id']}/actions", headers=_auth(token)))
        if not listed["actions"]:
            match = _json(server.request("GET", f"/v1/matches/{match['id']}"))
            continue
        answer = server.request(
            "POST",
            f"/v1/matches/{match['id']}/actions",
            {"action": rng.choice(listed["actions"])},
            headers=_auth(token),
        )
        if answer[0] == 409:
            match = _json(server.request("GET", f"/v1/matches/{match['id']}"))
            continue
        match = _json(answer)["match"]
        posted += 1
    return match


def _finish_1452(server, created, rng):
    match = _play(server, created, 5000, rng)
    assert match["status"] == "finished"
    return match


# --- the tests ----------------------------------------------------------------


def test_first_match_then_every_event_in_order_with_ai_seats_playing(server):
    created = _create(
        server,
        seats=[
            {"kind": "human", "name": "Ada"},
            {"kind": "ai", "level": "random"},
            {"kind": "ai", "level": "random"},
        ],
    )
    match_id, token = created["match"]["id"], created["tokens"]["0"]
    stream = Stream(server, match_id, token, query="?after=0")
    try:
        assert stream.status == 200
        assert stream.response.getheader("Content-Type").startswith("text/event-stream")
        first = stream.next()
        assert first["event"] == "match" and "id" not in first
        assert first["data"]["id"] == match_id and first["data"]["you"] == 0
        assert "view" in first["data"] and "seq" not in first["data"]
        rng = random.Random(1)
        for _ in range(50):  # until both AI seats have played
            _play(server, created, 3, rng)
            listed = _events(server, match_id, token)
            if {e["seat"] for e in listed} >= {0, 1, 2}:
                break
        streamed = stream.events_until(listed[-1]["seq"])
        assert [e["seq"] for e in streamed] == list(range(1, len(streamed) + 1))
        assert streamed == listed  # the same events, redacted alike
        assert {e["seat"] for e in streamed} >= {0, 1, 2}  # the AI seats' moves came live
    finally:
        stream.close()


def test_resume_with_last_event_id_or_after_no_gap_no_duplicate(server):
    created = _create(server)
    match_id, token = created["match"]["id"], created["tokens"]["0"]
    _play(server, created, 10, random.Random(2))
    listed = _events(server, match_id, token)
    middle = listed[len(listed) // 2]["seq"]
    for sse, how in (
        (True, {"headers": {"Last-Event-ID": str(middle)}}),
        (False, {"query": f"?after={middle}"}),
        # Last-Event-ID (the browser's reconnect) wins over the URL's after
        (True, {"headers": {"Last-Event-ID": str(middle)}, "query": "?after=0"}),
    ):
        stream = Stream(server, match_id, token, sse=sse, **how)
        try:
            head = stream.next()
            assert (head["event"] == "match") if sse else ("seq" not in head and head["id"] == match_id)
            # More moves while the stream is open: the catch-up and the live
            # events join without a gap or a duplicate.
            _play(server, created, 4, random.Random(3))
            now = _events(server, match_id, token)
            streamed = stream.events_until(now[-1]["seq"])
            assert streamed == [e for e in now if e["seq"] > middle]
        finally:
            stream.close()


def test_without_a_position_the_stream_starts_after_the_first_match(server):
    created = _create(server)
    match_id = created["match"]["id"]
    _play(server, created, 3, random.Random(4))
    before = _events(server, match_id)[-1]["seq"]
    stream = Stream(server, match_id, sse=False)
    try:
        head = stream.next()
        assert head["you"] is None and head["version"] == 3
        _play(server, created, 1, random.Random(5))
        after = _events(server, match_id)
        assert stream.events_until(after[-1]["seq"]) == [e for e in after if e["seq"] > before]
    finally:
        stream.close()


def test_each_viewer_sees_what_get_events_shows_it(server):
    created = _create(server, seed=42, dice="reproducible")
    match_id = created["match"]["id"]
    viewers = {"spectator": None, "seat0": created["tokens"]["0"], "seat1": created["tokens"]["1"]}
    streams = {
        name: Stream(server, match_id, token, sse=name != "seat1", query="?after=0")
        for name, token in viewers.items()
    }
    try:
        for stream in streams.values():
            stream.next()
        _play(server, created, 30, random.Random(6))
        shown = {}
        for name, token in viewers.items():
            listed = _events(server, match_id, token)
            shown[name] = streams[name].events_until(listed[-1]["seq"])
            assert shown[name] == listed, name
        # Private data differs (a seat sees what it took into its hand; the
        # spectator sees neither seat's), so the comparisons above are not vacuous.
        assert shown["seat0"] != shown["spectator"] or shown["seat1"] != shown["spectator"]
        assert shown["seat0"] != shown["seat1"]
    finally:
        for stream in streams.values():
            stream.close()


def test_keep_alive_on_a_quiet_stream_in_both_formats(server):
    created = _create(server)
    match_id = created["match"]["id"]
    for sse in (True, False):
        stream = Stream(server, match_id, sse=sse, timeout=5)
        try:
            stream.next()
            started = time.monotonic()
            message = stream.next()
            assert message == ({"comment": "keep-alive"} if sse else {"keepalive": True})
            assert time.monotonic() - started < KEEPALIVE_S * 4
        finally:
            stream.close()


def test_the_stream_ends_after_the_match_ends_with_the_final_match(server):
    created = _create(server, game="anno1452", options={"scenario": "ottokar_a"})
    match_id, token = created["match"]["id"], created["tokens"]["0"]
    sse = Stream(server, match_id, token, query="?after=0", timeout=60)
    ndjson = Stream(server, match_id, sse=False, query="?after=0", timeout=60)
    try:
        _finish_1452(server, created, random.Random(7))
        for stream, viewer in ((sse, token), (ndjson, None)):
            messages = stream.rest()  # returns: the server ended the stream
            events = [e for e in (stream.as_event(m) for m in messages[1:]) if e is not None]
            assert events == _events(server, match_id, viewer)
            final = messages[-1]["data"] if stream.sse else messages[-1]
            assert final["status"] == "finished" and final["result"] is not None
            assert ("seq" not in final) and final["id"] == match_id
    finally:
        sse.close()
        ndjson.close()
    # A stream of a finished match: the Match, what was asked for, the Match, the end.
    late = Stream(server, match_id, sse=False, query="?after=2")
    messages = late.rest()
    late.close()
    assert messages[0]["status"] == "finished" and messages[-1]["status"] == "finished"
    assert [m["seq"] for m in messages[1:-1]] == [e["seq"] for e in _events(server, match_id, after=2)]


def test_the_stream_announces_a_rematch_before_it_ends(server):
    created = _create(server, game="anno1452", options={"scenario": "ottokar_a"})
    match_id, token = created["match"]["id"], created["tokens"]["0"]
    stream = Stream(server, match_id, token, timeout=60)
    try:
        _finish_1452(server, created, random.Random(11))
        started = time.monotonic()
        rematch = _json(server.request("POST", f"/v1/matches/{match_id}/rematch", headers=_auth(token)), 201)
        messages = stream.rest()
    finally:
        stream.close()
    assert time.monotonic() - started < REMATCH_WAIT_S  # it ended on the announcement, not the wait
    announced = [m["data"] for m in messages if m.get("event") == "rematch_created"]
    assert announced and announced[0]["data"] == {"match_id": rematch["match"]["id"]}
    final = messages[-1]["data"]
    assert final["status"] == "finished" and final["rematch"] == rematch["match"]["id"]


def test_the_stream_ends_after_the_viewers_resignation(server):
    created = _create(server)
    match_id, token = created["match"]["id"], created["tokens"]["0"]
    mine = Stream(server, match_id, token, timeout=20)
    other = Stream(server, match_id, created["tokens"]["1"], sse=False, timeout=20)
    try:
        mine.next()
        other.next()
        _json(server.request("POST", f"/v1/matches/{match_id}/resign", headers=_auth(token)))
        messages = [m for m in mine.rest() if "comment" not in m]
        resigned = messages[-2]
        assert resigned["event"] == "player_resigned" and resigned["data"]["seat"] == 0
        assert messages[-1]["event"] == "match" and messages[-1]["data"]["you"] is None
        # The other seat's stream goes on.
        seen = other.next()
        while "seq" not in seen or seen["type"] != "player_resigned":
            seen = other.next()
        assert other.next() is not None
    finally:
        mine.close()
        other.close()
    again = Stream(server, match_id, token)
    assert again.status == 401 and json.loads(again.body())["error"] == "unauthorized"
    again.close()


def test_stream_tickets_are_single_use_and_short_lived(server):
    created = _create(server)
    match_id, token = created["match"]["id"], created["tokens"]["1"]
    ticket_url = f"/v1/matches/{match_id}/stream-ticket"
    assert server.request("POST", ticket_url)[0] == 401  # a bearer token is required
    issued = _json(server.request("POST", ticket_url, headers=_auth(token)), 201)
    assert set(issued) == {"ticket", "expires_at"}
    stream = Stream(server, match_id, query=f"?ticket={issued['ticket']}")
    try:
        assert stream.status == 200
        assert stream.next()["data"]["you"] == 1  # the ticket's seat's view
    finally:
        stream.close()
    used = Stream(server, match_id, query=f"?ticket={issued['ticket']}")
    assert used.status == 401 and "ticket" in json.loads(used.body())["message"]
    used.close()
    # Expired.
    stale = _json(server.request("POST", ticket_url, headers=_auth(token)), 201)["ticket"]
    time.sleep(TICKET_TTL_S + 1)
    expired = Stream(server, match_id, query=f"?ticket={stale}")
    assert expired.status == 401
    expired.close()
    # The bearer token is never accepted in the query string.
    for query in (f"?access_token={token}", f"?token={token}"):
        refused = Stream(server, match_id, query=query)
        assert refused.status == 400 and "query string" in json.loads(refused.body())["message"]
        refused.close()
    as_ticket = Stream(server, match_id, query=f"?ticket={token}")
    assert as_ticket.status == 401
    as_ticket.close()


def test_errors_before_the_stream(server):
    assert server.request("GET", "/v1/matches/nope/stream")[0] == 404
    created = _create(server)
    match_id = created["match"]["id"]
    answer = server.request("GET", f"/v1/matches/{match_id}/stream", headers=_auth("made-up"))
    assert answer[0] == 401
    answer = server.request("GET", f"/v1/matches/{match_id}/stream", headers={"Last-Event-ID": "x"})
    assert answer[0] == 422


def test_open_streams_use_a_bounded_number_of_redis_connections(stack):
    server, redis_server = stack
    client = redis.Redis.from_url(redis_server.url)
    matches = [_create(server) for _ in range(10)]

    def open_streams(count):
        return [
            Stream(server, matches[i % 10]["match"]["id"], sse=i % 2 == 0, query="?after=0")
            for i in range(count)
        ]

    def clients():
        return len(client.client_list())

    few = open_streams(10)
    for stream in few:
        stream.next()
    with_few = clients()
    many = open_streams(300)
    for stream in many:
        stream.next()
    for match in matches:
        _play(server, match, 1, random.Random(8))
    for stream in many[::37]:  # the streams are live
        assert stream.as_event(stream.next()) is not None or stream.next() is not None
    with_many = clients()
    for stream in few + many:
        stream.close()
    client.close()
    # 8 pooled connections (REDIS_MAX_CONNECTIONS) + 1 pub/sub + the RQ
    # client and worker, whatever the number of streams.
    assert with_many <= with_few + 8, (with_few, with_many)
    assert with_many < 30, with_many


def test_a_client_too_far_behind_is_told_so_then_resumes(tmp_path):
    with (
        RedisProcess() as redis_server,
        LiveServer(
            redis_server.url, workers=1, env={"STREAM_QUEUE_MAX": "20", "STREAM_KEEPALIVE_S": "5"}
        ) as server,
    ):
        created = _create(server, game="anno1452", options={"scenario": "ottokar_a"})
        match_id = created["match"]["id"]
        stream = Stream(server, match_id, query="?after=0", rcvbuf=2048, timeout=30)
        stream.next()
        # Do not read while the match is played: the server's socket buffer
        # and then the stream's queue fill up.
        _play(server, created, 5000, random.Random(9))
        messages = stream.rest()
        stream.close()
        error = messages[-1]
        assert error["event"] == "error", messages[-3:]
        assert error["data"]["error"] == "too_far_behind"
        events = [stream.as_event(m) for m in messages[:-1]]
        events = [e for e in events if e is not None]
        assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
        assert error["data"]["details"]["last_seq"] == events[-1]["seq"]
        # Reconnecting with the last id seen loses nothing.
        again = Stream(server, match_id, headers={"Last-Event-ID": str(events[-1]["seq"])}, timeout=30)
        rest = again.rest()
        again.close()
        tail = [e for e in (again.as_event(m) for m in rest) if e is not None]
        assert events + tail == _events(server, match_id)
