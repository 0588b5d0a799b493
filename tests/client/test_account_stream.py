"""The account stream, ``my_matches``, ``account_matches`` and
``export_history`` against a real local HTTP server speaking the formats of
issue 42 (tests/client/stub_server.py): NDJSON and SSE parsed by the one
parser of stream.py, and a resume with ``Last-Event-ID`` after the server
drops the connection.

The same assertions against the served stack (real ``match_started`` and
``your_turn`` events, a resume after a closed connection, nothing private)
are in tests/client/test_account_stream_served.py; these stay for the
drop/resume cases the real server cannot be made to produce on demand.
"""

import json

import pytest

from tabula_client import Client, NotFound, Unauthorized
from tabula_client.account_stream import account_event
from tabula_client.stream import Message

from .stub_server import REVOKED, StubServer


@pytest.fixture
def stub():
    with StubServer() as server:
        yield server


def take(stream, count):
    return [next(stream) for _ in range(count)]


@pytest.mark.parametrize("sse", [False, True], ids=["ndjson", "sse"])
def test_snapshot_then_logged_events_then_a_resume_after_a_drop(stub, sse):
    state = stub.state
    state.snapshot = [
        {
            "id": None,
            "type": "your_turn",
            "match_id": "m0",
            "data": {"game": "anno1452", "seat": 1, "version": 3, "deadline": None},
        }
    ]
    state.add_event("match_started", "m1", {"game": "anno1503"})
    state.add_event(
        "your_turn", "m1", {"game": "anno1503", "seat": 0, "version": 0, "deadline": "2026-01-01T00:00:00Z"}
    )
    state.add_event("seat_handed_to_ai", "m2", {"seat": 0})
    state.add_event(
        "match_finished", "m1", {"game": "anno1503", "seat": 0, "version": 9, "result": {"winners": [0]}}
    )
    state.add_event("webhook_disabled", None, {"failures": 20})
    state.drop_after = 2  # the first connection is cut after two logged events
    with Client(stub.url, token="tab_pat_stub") as api, api.account_stream(sse=sse) as stream:
        events = take(stream, 7)  # snapshot, 2 logged, (drop), snapshot, 3 logged
        assert stream.connections == 2
        assert stream.last_event_id == "5-0"
    assert [(e["id"], e["type"], e["match_id"]) for e in events] == [
        (None, "your_turn", "m0"),
        ("1-0", "match_started", "m1"),
        ("2-0", "your_turn", "m1"),
        (None, "your_turn", "m0"),  # the snapshot again, on the new connection
        ("3-0", "seat_handed_to_ai", "m2"),
        ("4-0", "match_finished", "m1"),
        ("5-0", "webhook_disabled", None),
    ]
    logged = [e["id"] for e in events if e["id"] is not None]
    assert logged == ["1-0", "2-0", "3-0", "4-0", "5-0"]  # nothing skipped, nothing repeated
    assert [e["type"] for e in events if e["id"] is None] == ["your_turn", "your_turn"]
    assert events[2]["data"] == {
        "game": "anno1503",
        "seat": 0,
        "version": 0,
        "deadline": "2026-01-01T00:00:00Z",
    }
    accept = "text/event-stream" if sse else "application/x-ndjson"
    assert state.connections == [
        {"accept": accept, "last_event_id": None},
        {"accept": accept, "last_event_id": "2-0"},  # resumed after the last logged id seen
    ]


def test_live_events_arrive_on_the_open_connection_and_a_resume_id_is_sent_first(stub):
    stub.state.add_event("match_started", "m1", {})
    stub.state.add_event("your_turn", "m1", {"version": 1})
    with Client(stub.url, token="tab_pat_stub") as api, api.account_stream(last_event_id="1-0") as stream:
        assert next(stream)["id"] == "2-0"
        stub.state.add_event("your_turn", "m1", {"version": 3})  # live, after the connection opened
        assert next(stream)["data"] == {"version": 3}
    assert stub.state.connections == [{"accept": "application/x-ndjson", "last_event_id": "1-0"}]


def test_an_sse_message_with_only_the_payload_in_data_takes_the_event_and_id_fields():
    event = account_event(Message({"match_id": "m1", "version": 4}, "your_turn", "7-0"))
    assert event == {
        "id": "7-0",
        "type": "your_turn",
        "match_id": "m1",
        "data": {"match_id": "m1", "version": 4},
    }
    assert account_event(Message({"error": "too_far_behind", "message": "m", "details": {}})) is None


@pytest.mark.slow  # the served stack
def test_an_error_answer_raises_instead_of_reconnecting(stub, server_url):
    with Client(stub.url, token=REVOKED) as api, pytest.raises(Unauthorized):
        next(api.account_stream())
    assert len(stub.state.connections) == 0
    # The served stack: 404 until the seats-and-history merge serves the route,
    # then 401 for an unknown token (RE-POINT: expect Unauthorized only).
    with Client(server_url, token="tab_pat_" + "x" * 43) as api, pytest.raises((NotFound, Unauthorized)):
        next(api.account_stream())


def test_my_matches_account_matches_and_the_history_export(stub):
    stub.state.add_match("m1", version=2, turns=1)
    stub.state.add_match("m2", version=5, turns=0)
    stub.state.history = [{"id": f"h{i}", "status": "finished"} for i in range(30)]
    with Client(stub.url, token="tab_pat_stub") as api:
        assert [m["id"] for m in api.my_matches(to_act=True)] == ["m1"]
        assert [m["id"] for m in api.my_matches(status="finished", page=2, page_size=5)] == ["m2"]
        assert len(api.account_matches("StubBot", page=1)) == 20
        assert [m["id"] for m in api.export_history("StubBot")] == [f"h{i}" for i in range(30)]
    requested = [path for method, path in stub.state.requests]
    assert "/v1/account/matches?to_act=true" in requested
    assert "/v1/account/matches?status=finished&page=2&page_size=5" in requested
    assert "/v1/accounts/StubBot/matches?page=1" in requested
    assert json.dumps(requested).count("/v1/accounts/StubBot/matches") == 2
