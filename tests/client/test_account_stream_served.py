"""``Client.account_stream()`` against the served stack of conftest.py
(gunicorn, an RQ worker playing the AI seat, a real redis-server): a
match the account created against the ``random`` AI announces
``match_started`` and ``your_turn``; after the connection is closed,
``account_stream(last_event_id=...)`` resumes with nothing skipped or
repeated (the ids against a whole re-read from ``last_event_id="0"``);
no message carries more than the seat's public ``/events`` and the
spectators' Match show (the check of tests/service/test_account_stream.py).

The drops, ``too_far_behind`` and SSE cases the real server cannot be made
to produce on demand stay in tests/client/test_account_stream.py (stub).
"""

import time
import uuid

import pytest

from tabula_client import Client
from tests.service.test_account_stream import PUBLIC_KEYS

pytestmark = pytest.mark.slow  # the served stack

VS_RANDOM = [{"kind": "human", "name": "me"}, {"kind": "ai", "level": "random"}]


def until(stream, predicate, limit=2000):
    """The stream's events up to and including the first that satisfies ``predicate``."""
    seen = []
    for event in stream:
        seen.append(event)
        if predicate(event):
            return seen
        assert len(seen) < limit, "too many events"
    raise AssertionError("the stream ended")


def play(me: Client, match_id, moves):
    """Post the first legal action ``moves`` times, waiting for the AI between them."""
    for _ in range(moves):
        deadline = time.monotonic() + 30
        while not (listed := me.list_actions(match_id))["actions"]:
            assert listed["status"] == "active", listed["status"]
            assert time.monotonic() < deadline, "the AI did not move"
            time.sleep(0.05)
        me.post_action(match_id, listed["actions"][0], version=listed["version"])


def logged_turn(event):
    return event["type"] == "your_turn" and event["id"] is not None


def logged_ids(events):
    return [e["id"] for e in events if e["id"] is not None]


def check_public(me: Client, match_id, name, events):
    """Every event's data is what the seat's /events and the spectators' Match show."""
    with Client(me.base_url) as spectator_client:
        spectator = spectator_client.get_match(match_id)
    assert spectator is not None
    versions = {e["version"] for e in me.list_events(match_id, limit=1000)["events"]} | {0}
    for event in events:
        data = event["data"]
        assert set(data) <= PUBLIC_KEYS, data
        assert data["game"] == spectator["game"] and data["version"] in versions
        assert data["seat"] == 0 and spectator["seats"][0]["account"]["name"] == name
        if event["type"] == "match_finished":
            assert data["result"] == spectator["result"]


def test_account_stream_announces_resumes_and_keeps_secrets(api):
    name = f"strm{uuid.uuid4().hex[:10]}"
    me = api.with_token(api.sign_up(name, "bot")["token"])
    first = me.account_stream(last_event_id="0")  # every logged event of the new account
    try:
        match_id = me.create_match("anno1503", VS_RANDOM, options={"expansion": "none"}, seed=7)["match"][
            "id"
        ]
        head = until(first, logged_turn)
        assert next(e["type"] for e in head if e["id"] is not None) == "match_started"
        assert {e["match_id"] for e in head} == {match_id}
        play(me, match_id, 2)
        seen = until(first, logged_turn)
    finally:
        first.close()
    cut = first.last_event_id
    assert cut == logged_ids(seen)[-1] and first.connections == 1
    play(me, match_id, 2)
    me.resign(match_id)
    resumed = me.account_stream(last_event_id=cut)
    whole = me.account_stream(last_event_id="0")
    try:
        rest = until(resumed, lambda e: e["type"] == "match_finished")
        everything = until(whole, lambda e: e["type"] == "match_finished")
    finally:
        resumed.close()
        whole.close()
    logged = logged_ids(everything)
    assert len(logged) == len(set(logged))
    assert logged_ids(head + seen) + logged_ids(rest) == logged
    check_public(me, match_id, name, head + seen + rest)
