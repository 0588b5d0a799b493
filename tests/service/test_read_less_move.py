"""A move planned on this process's last commit of its match: one Redis round
trip, and everything the read-first way promises still holds (issue 45).

Each test counts the round trips of one request: the raw ones
(``Transport.replies``, one write and its replies) and redis-py's own calls.
"""

import random
from contextlib import contextmanager

import pytest

from service.worker import timers

from .conftest import fresh_app, make_app
from .helpers import bearer, create, humans


def _named(store, command):
    """A command's name; a script's by its file (``commit.lua``...)."""
    scripts = {store._commit.sha: "commit.lua", store._count_seat.sha: "count_seat.lua"}
    return scripts.get(command[1], "EVALSHA") if command[0] == "EVALSHA" else str(command[0])


@contextmanager
def round_trips(services, monkeypatch):
    """A list of the round trips made inside the block, each a list of command names."""
    trips = []
    transport, client = services.store.transport, services.store.redis
    raw, direct = transport.replies, client.execute_command

    def counted_replies(commands, retry):
        trips.append([_named(services.store, command) for command in commands])
        return raw(commands, retry)

    def counted_command(*args, **options):
        trips.append([str(args[0])])
        return direct(*args, **options)

    with monkeypatch.context() as patch:
        patch.setattr(transport, "replies", counted_replies)
        patch.setattr(client, "execute_command", counted_command)
        yield trips


def _move(client, match_id, tokens, rng, seat=None, version=True, **headers):
    """POST a random legal action of ``seat`` (the first to act by default)."""
    match = client.get(f"/v1/matches/{match_id}").get_json()
    seat = match["to_act"][0] if seat is None else seat
    token = bearer(tokens[str(seat)])
    listed = client.get(f"/v1/matches/{match_id}/actions", headers=token).get_json()
    body = {"action": rng.choice(listed["actions"])}
    if version:
        body["version"] = listed["version"]
    return seat, client.post(f"/v1/matches/{match_id}/actions", headers={**token, **headers}, json=body)


def _warm(client, match_id, tokens, rng):
    """Moves until every seat has moved once here: the process then knows
    each token's seat and holds the match's last commit."""
    moved = set()
    while len(moved) < len(tokens):
        seat, response = _move(client, match_id, tokens, rng)
        assert response.status_code == 200, response.get_json()
        moved.add(seat)


def _remaining(response):
    """The ``r`` of a response's RateLimit header: requests left in the window."""
    fields = dict(part.split("=") for part in response.headers["RateLimit"].split(";")[1:])
    return int(fields["r"])


@pytest.mark.parametrize("rate_limit", [0, 1000])
def test_a_move_on_the_last_commit_is_one_round_trip(redis_server, monkeypatch, rate_limit):
    """With the rate limit on (the script counts) or off (it checks the seat)."""
    with fresh_app(redis_server.url, RATE_LIMIT=rate_limit, RATE_LIMIT_WINDOW_S=3600) as app:
        client, services, rng = app.test_client(), app.extensions["tabula"], random.Random(5)
        created = create(client, seats=humans(3), seed=11)
        match_id, tokens = created["match"]["id"], created["tokens"]
        _warm(client, match_id, tokens, rng)
        for _ in range(6):
            seat = client.get(f"/v1/matches/{match_id}").get_json()["to_act"][0]
            token = bearer(tokens[str(seat)])
            listed = client.get(f"/v1/matches/{match_id}/actions", headers=token)
            version = listed.get_json()["version"]
            body = {"action": rng.choice(listed.get_json()["actions"]), "version": version}
            with round_trips(services, monkeypatch) as trips:
                response = client.post(f"/v1/matches/{match_id}/actions", headers=token, json=body)
            assert response.status_code == 200, response.get_json()
            assert response.get_json()["version"] == version + 1
            assert trips == [["commit.lua"]], trips
            if rate_limit:  # counted once, in the token's window
                assert _remaining(response) == _remaining(listed) - 1


def test_after_another_process_moved_the_script_brings_the_match(redis_server, monkeypatch):
    """Two apps on one Redis stand for two gunicorn workers. A move without a
    version planned on a commit another worker has since passed loses at the
    script, which brings the fresh match: planned again on it, the move costs
    two round trips, never a read between them, and applies once."""
    with fresh_app(redis_server.url) as here_app:
        other = make_app(redis_server.url)
        here, there = here_app.test_client(), other.test_client()
        services, rng = here_app.extensions["tabula"], random.Random(8)
        created = create(here, seats=humans(2), seed=21)
        match_id, tokens = created["match"]["id"], created["tokens"]
        _warm(here, match_id, tokens, rng)
        for _ in range(3):  # the other worker moves: this process's commit is old
            assert _move(there, match_id, tokens, rng)[1].status_code == 200
        # Read through the other worker too: a read here would refresh this
        # process's match (and the move would be one round trip).
        match = there.get(f"/v1/matches/{match_id}").get_json()
        before, seat = match["version"], match["to_act"][0]
        token = bearer(tokens[str(seat)])
        action = there.get(f"/v1/matches/{match_id}/actions", headers=token).get_json()["actions"][0]
        with round_trips(services, monkeypatch) as trips:
            response = here.post(f"/v1/matches/{match_id}/actions", headers=token, json={"action": action})
        assert response.status_code == 200, response.get_json()
        assert response.get_json()["version"] == before + 1
        assert trips == [["commit.lua"], ["commit.lua"]], trips
        other.extensions["tabula"].close()


def test_over_the_limit_the_script_answers_429_and_writes_nothing(redis_server, monkeypatch):
    """The move that would be one over its token's window is refused by the
    commit script itself, before it writes."""
    with fresh_app(redis_server.url, RATE_LIMIT=60, RATE_LIMIT_WINDOW_S=3600) as app:
        client, services, rng = app.test_client(), app.extensions["tabula"], random.Random(3)
        created = create(client, seats=humans(2), seed=5)
        match_id, tokens = created["match"]["id"], created["tokens"]
        _warm(client, match_id, tokens, rng)
        while True:
            match = client.get(f"/v1/matches/{match_id}").get_json()  # no token: the address's window
            token = bearer(tokens[str(match["to_act"][0])])
            listed = client.get(f"/v1/matches/{match_id}/actions", headers=token)
            assert listed.status_code == 200
            body = {"action": rng.choice(listed.get_json()["actions"]), "version": match["version"]}
            last = _remaining(listed) <= 1
            if _remaining(listed) == 1:  # the window's last request: a read
                assert client.get(f"/v1/matches/{match_id}", headers=token).status_code == 200
            with round_trips(services, monkeypatch) as trips:
                response = client.post(f"/v1/matches/{match_id}/actions", headers=token, json=body)
            if last:
                break
            assert response.status_code == 200, response.get_json()
        assert response.status_code == 429, response.get_json()
        assert trips == [["commit.lua"]], trips
        assert client.get(f"/v1/matches/{match_id}").get_json()["version"] == match["version"]


def test_a_revoked_seat_token_gets_401_not_a_move(redis_server):
    """The seat resigned through another worker: this process still knows the
    token's seat, and the script finds the token gone before anything."""
    with fresh_app(redis_server.url) as app:
        other = make_app(redis_server.url)
        here, there, rng = app.test_client(), other.test_client(), random.Random(2)
        created = create(here, seats=humans(3), seed=9)
        match_id, tokens = created["match"]["id"], created["tokens"]
        _warm(here, match_id, tokens, rng)
        seat = here.get(f"/v1/matches/{match_id}").get_json()["to_act"][0]
        resigned = there.post(f"/v1/matches/{match_id}/resign", headers=bearer(tokens[str(seat)]))
        assert resigned.status_code == 200, resigned.get_json()
        version = here.get(f"/v1/matches/{match_id}").get_json()["version"]
        response = here.post(
            f"/v1/matches/{match_id}/actions",
            headers=bearer(tokens[str(seat)]),
            json={"action": {"type": "end_turn"}},
        )
        assert response.status_code == 401, response.get_json()
        assert here.get(f"/v1/matches/{match_id}").get_json()["version"] == version
        other.extensions["tabula"].close()


def test_a_retry_with_its_idempotency_key_is_answered_once(client, services):
    rng = random.Random(4)
    created = create(client, seats=humans(2), seed=13)
    match_id, tokens = created["match"]["id"], created["tokens"]
    _warm(client, match_id, tokens, rng)
    seat = client.get(f"/v1/matches/{match_id}").get_json()["to_act"][0]
    token = bearer(tokens[str(seat)])
    listed = client.get(f"/v1/matches/{match_id}/actions", headers=token).get_json()
    body = {"action": rng.choice(listed["actions"])}
    headers = {**token, "Idempotency-Key": "retry-1"}
    first = client.post(f"/v1/matches/{match_id}/actions", headers=headers, json=body)
    again = client.post(f"/v1/matches/{match_id}/actions", headers=headers, json=body)
    assert first.status_code == again.status_code == 200
    assert again.get_json() == first.get_json()
    assert client.get(f"/v1/matches/{match_id}").get_json()["version"] == listed["version"] + 1


def test_a_timer_that_decides_first_refuses_the_move_planned_before_it(client, services, monkeypatch):
    """As after a read (test_turn_timers.py): the move was planned on the
    process's last commit, the seat's timer committed, the script brings the
    new match: the move is refused, never applied to the next decision."""
    rng = random.Random(6)
    created = create(client, seats=humans(2), seed=17, turn_timeout_s=60)
    match_id, tokens = created["match"]["id"], created["tokens"]
    _warm(client, match_id, tokens, rng)
    match = client.get(f"/v1/matches/{match_id}").get_json()
    seat = match["to_act"][0]
    token = bearer(tokens[str(seat)])
    action = client.get(f"/v1/matches/{match_id}/actions", headers=token).get_json()["actions"][0]
    commit, raced = services.store.commit, []

    def timer_commits_first(match_id, rev, change, *more):
        if not raced:
            raced.append(True)
            doc = services.store.load_doc(match_id)
            assert timers.fire_due(services, doc, doc["deadlines"][str(seat)] + 1000)[0] == 1
        return commit(match_id, rev, change, *more)

    monkeypatch.setattr(services.store, "commit", timer_commits_first)
    response = client.post(f"/v1/matches/{match_id}/actions", headers=token, json={"action": action})
    assert raced and response.status_code == 409, response.get_json()
    assert response.get_json()["details"]["reason"] == "turn_timed_out"
    assert client.get(f"/v1/matches/{match_id}").get_json()["version"] == match["version"] + 1
