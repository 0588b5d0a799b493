"""Retention: a finished match's hot keys are kept FINISHED_MATCH_TTL_S (the
idempotency records too), then it is read from its archive record; the
record is kept ARCHIVE_TTL_S, then the match is gone everywhere (its record,
its token index entries, the lobby), on a real redis-server; 0 keeps either
for ever; active matches never expire."""

import json
import time

import pytest
import redis

from service.worker import sweeper

from .conftest import make_app, run_ai_jobs
from .helpers import bearer, create, humans, new_rng

# Left out by `make test-fast` (-m "not slow"): starts a whole stack.
pytestmark = pytest.mark.slow

TTL_S = 2
ARCHIVE_TTL_S = 4
IDEMPOTENCY_TTL_S = 60
# The shortest match there is: anno1452 with its earliest end year, 2 seats.
SHORT_MATCH = {"game": "anno1452", "options": {"end_year": 1314, "scenario": "ottokar_a"}}


@pytest.fixture
def retention_app(redis_server, request):
    redis.Redis.from_url(redis_server.url).flushdb()
    hot, record = request.param if isinstance(request.param, tuple) else (request.param, 0)
    app = make_app(
        redis_server.url,
        FINISHED_MATCH_TTL_S=hot,
        ARCHIVE_TTL_S=record,
        IDEMPOTENCY_TTL_S=IDEMPOTENCY_TTL_S,
    )
    yield app
    app.extensions["tabula"].close()


def _play_to_the_end(client, services):
    """A human (random moves, each with an Idempotency-Key) against the random
    AI, to the end; returns ``(match id, the human's token)``."""
    created = create(
        client, seats=[{"kind": "human", "name": "Ada"}, {"kind": "ai", "level": "random"}], **SHORT_MATCH
    )
    match_id, token = created["match"]["id"], created["tokens"]["0"]
    rng = new_rng()
    for move in range(500):
        run_ai_jobs(services)
        match = client.get(f"/v1/matches/{match_id}").get_json()
        if match["status"] == "finished":
            return match_id, token
        listed = client.get(f"/v1/matches/{match_id}/actions", headers=bearer(token)).get_json()
        response = client.post(
            f"/v1/matches/{match_id}/actions",
            headers={**bearer(token), "Idempotency-Key": f"move-{move}"},
            json={"action": rng.choice(listed["actions"]), "version": listed["version"]},
        )
        assert response.status_code == 200, response.get_json()
    raise AssertionError("the short match did not finish in 500 moves")


def _ttls(services, pattern):
    return {key.decode(): services.redis.ttl(key) for key in services.redis.scan_iter(match=pattern)}


def _lobby(client, status="finished"):
    response = client.get(f"/v1/matches?status={status}&game=anno1452")
    total = json.loads(response.headers["X-Pagination"])["total"]
    return [item["id"] for item in response.get_json()], total


def _token_key(services, match_id):
    """The token index key of the match's live token (there is one human seat)."""
    keys = [
        k.decode()
        for k in services.redis.scan_iter(match="token:*")
        if services.redis.get(k).decode() == match_id
    ]
    assert len(keys) == 1
    return keys[0]


@pytest.mark.parametrize("retention_app", [(TTL_S, ARCHIVE_TTL_S)], indirect=True)
def test_a_finished_match_is_archived_then_expires_everywhere(retention_app):
    client, services = retention_app.test_client(), retention_app.extensions["tabula"]
    still_playing = create(client, seats=humans(2), **SHORT_MATCH)["match"]["id"]
    match_id, token = _play_to_the_end(client, services)
    token_key = _token_key(services, match_id)

    # Set by the finishing commit: the match's own keys, its idempotency
    # records and its token entry go after TTL_S; its record after ARCHIVE_TTL_S.
    ttls = _ttls(services, f"match:{{{match_id}}}*")
    record = f"match:{{{match_id}}}:record"
    own = {f"match:{{{match_id}}}{suffix}" for suffix in ("", ":events", ":actions", ":idems")}
    assert own <= set(ttls) and all(0 < ttls[key] <= TTL_S for key in own)
    assert any(":idem:" in key for key in ttls)
    assert all(0 < ttl <= TTL_S for key, ttl in ttls.items() if key != record)
    assert TTL_S < ttls[record] <= ARCHIVE_TTL_S
    assert 0 < services.redis.ttl(token_key) <= TTL_S
    assert _lobby(client) == ([match_id], 1)
    before = client.get(f"/v1/matches/{match_id}/events", headers=bearer(token)).get_data()

    time.sleep(TTL_S + 0.5)  # the hot keys are gone: the record serves
    assert set(_ttls(services, f"match:{{{match_id}}}*")) == {record}
    assert not services.redis.exists(token_key)
    assert client.get(f"/v1/matches/{match_id}/events", headers=bearer(token)).get_data() == before
    assert client.get(f"/v1/matches/{match_id}/replay").status_code == 200
    sweeper.sweep(services)
    assert _lobby(client) == ([match_id], 1)

    time.sleep(ARCHIVE_TTL_S - TTL_S)  # the record is gone too
    assert client.get(f"/v1/matches/{match_id}").status_code == 404
    assert client.get(f"/v1/matches/{match_id}/replay").status_code == 404
    assert client.get(f"/v1/matches/{match_id}/events", headers=bearer(token)).status_code == 404
    assert _ttls(services, f"match:{{{match_id}}}*") == {}

    sweeper.sweep(services)  # what every worker runs each SWEEP_S
    assert _lobby(client) == ([], 0)
    for key in services.redis.scan_iter(match="lobby:*"):
        assert services.redis.zscore(key, match_id) is None, key
    # The match still being played is untouched.
    assert services.redis.ttl(f"match:{{{still_playing}}}") == -1
    assert _lobby(client, "active") == ([still_playing], 1)


@pytest.mark.parametrize("retention_app", [(60, 3600)], indirect=True)
def test_a_sweep_before_the_expiry_keeps_the_match(retention_app):
    client, services = retention_app.test_client(), retention_app.extensions["tabula"]
    match_id, _ = _play_to_the_end(client, services)
    later_ms = int(time.time() * 1000) + 7200 * 1000  # past the retention entry
    assert services.store.prune_expired(later_ms) == 0  # the keys are still there
    assert _lobby(client) == ([match_id], 1)
    ((member, score),) = [
        entry
        for key in services.redis.scan_iter(match="retention:*")
        for entry in services.redis.zrange(key, 0, -1, withscores=True)
    ]
    assert member.decode() == f"anno1452:{match_id}" and score > later_ms  # looked at again later


@pytest.mark.parametrize("retention_app", [0], indirect=True)
def test_zero_keeps_a_finished_match_for_ever(retention_app):
    client, services = retention_app.test_client(), retention_app.extensions["tabula"]
    match_id, _ = _play_to_the_end(client, services)
    for suffix in ("", ":events", ":actions", ":record"):
        assert services.redis.ttl(f"match:{{{match_id}}}{suffix}") == -1
    assert services.redis.ttl(_token_key(services, match_id)) == -1
    assert list(services.redis.scan_iter(match="retention:*")) == []
    assert client.get(f"/v1/matches/{match_id}").status_code == 200
