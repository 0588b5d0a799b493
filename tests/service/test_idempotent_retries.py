"""A retry with the same Idempotency-Key and token gets the first answer,
even when that first request revoked the token (a resign; a move after
which the seat was handed over): the record is found by the token's hash
and the key before the token is checked, and no other token can read it.

The 503 case is real: with REDIS_WAIT_REPLICAS=1 and no replica, every
commit is stored and answered 503 (too few replicas confirmed it), which is
what a client retries; the retry is answered 503 too until a real replica
confirms the record.
"""

import time

import pytest
import redis

from launcher.redis_process import RedisProcess

from .conftest import make_app
from .helpers import bearer, create, humans

# Left out by `make test-fast` (-m "not slow"): seconds each: replica waits.
pytestmark = pytest.mark.slow


def _resign(client, match_id, token, key=None):
    headers = {**bearer(token), **({"Idempotency-Key": key} if key else {})}
    return client.post(f"/v1/matches/{match_id}/resign", headers=headers)


def _match(client, match_id):
    return client.get(f"/v1/matches/{match_id}").get_json()


def test_a_resign_retried_with_its_key_gets_the_first_answer(client):
    created = create(client, seats=humans(2))
    match_id, token = created["match"]["id"], created["tokens"]["0"]
    first = _resign(client, match_id, token, "resign-1")
    assert first.status_code == 200, first.get_json()
    version = _match(client, match_id)["version"]

    again = _resign(client, match_id, token, "resign-1")

    assert again.status_code == 200, again.get_json()
    assert again.get_json() == first.get_json()
    assert _match(client, match_id)["version"] == version  # nothing applied twice
    # The token is revoked all the same: without the key, or with another, 401.
    assert _resign(client, match_id, token).status_code == 401
    assert _resign(client, match_id, token, "resign-2").status_code == 401


def test_a_resign_answered_503_is_answered_503_again_until_a_replica_confirms_it():
    """The record of a commit answered 503 (stored, too few replicas) is
    itself unconfirmed: its retry WAITs too, and gets the result only once a
    replica has it. A real replica is attached between the retries."""
    with RedisProcess() as primary, RedisProcess() as replica:
        plain = make_app(primary.url)  # creates the match without waiting
        created = create(plain.test_client(), seats=humans(2))
        match_id, token = created["match"]["id"], created["tokens"]["0"]
        waiting = make_app(primary.url, REDIS_WAIT_REPLICAS=1, REDIS_WAIT_TIMEOUT_MS=50)
        client = waiting.test_client()
        try:
            lost = _resign(client, match_id, token, "resign-after-503")
            assert lost.status_code == 503 and lost.get_json()["error"] == "unavailable"
            match = _match(plain.test_client(), match_id)
            assert match["seats"][0]["resigned"]  # the 503 came after the commit

            unconfirmed = _resign(client, match_id, token, "resign-after-503")
            assert unconfirmed.status_code == 503, unconfirmed.get_json()

            _attach_replica(replica, primary)
            # A long WAIT timeout now: the 50 ms one only keeps the 503s
            # above quick, and a replica's answer may take longer under load.
            confirming = make_app(primary.url, REDIS_WAIT_REPLICAS=1, REDIS_WAIT_TIMEOUT_MS=5000)
            retry = _resign(confirming.test_client(), match_id, token, "resign-after-503")
            confirming.extensions["tabula"].close()
            assert retry.status_code == 200, retry.get_json()
            assert retry.get_json()["seats"][0]["resigned"]
            assert retry.get_json()["version"] == match["version"]
            assert _match(client, match_id)["version"] == match["version"]  # applied once
        finally:
            waiting.extensions["tabula"].close()
            plain.extensions["tabula"].close()


def _attach_replica(replica, primary, timeout_s=30):
    """Make ``replica`` replicate ``primary`` and wait until it has caught up."""
    replica_client = redis.Redis.from_url(replica.url)
    primary_client = redis.Redis.from_url(primary.url)
    replica_client.replicaof("127.0.0.1", primary.port)
    deadline = time.monotonic() + timeout_s
    while primary_client.wait(1, 100) < 1:
        assert time.monotonic() < deadline, "the replica never caught up"
    replica_client.close()
    primary_client.close()


def test_a_move_retried_after_its_token_was_revoked_gets_the_first_answer(client):
    created = create(client, seats=humans(2))
    match = created["match"]
    seat = match["to_act"][0]
    match_id, token = match["id"], created["tokens"][str(seat)]
    listed = client.get(f"/v1/matches/{match_id}/actions", headers=bearer(token)).get_json()
    body = {"action": listed["actions"][0], "version": listed["version"]}
    headers = {**bearer(token), "Idempotency-Key": "move-1"}
    first = client.post(f"/v1/matches/{match_id}/actions", headers=headers, json=body)
    assert first.status_code == 200, first.get_json()
    assert _resign(client, match_id, token).status_code == 200  # revokes the token

    again = client.post(f"/v1/matches/{match_id}/actions", headers=headers, json=body)

    assert again.status_code == 200, again.get_json()
    assert again.get_json() == first.get_json()
    # Another body with that key is still refused; a new key meets the revoked token.
    other = client.post(f"/v1/matches/{match_id}/actions", headers=headers, json={**body, "version": 99})
    assert other.status_code == 422
    fresh = client.post(
        f"/v1/matches/{match_id}/actions", headers={**bearer(token), "Idempotency-Key": "move-2"}, json=body
    )
    assert fresh.status_code == 401


def test_another_token_cannot_read_the_record(client):
    created = create(client, seats=humans(2))
    match_id = created["match"]["id"]
    mine, theirs = created["tokens"]["0"], created["tokens"]["1"]
    assert _resign(client, match_id, mine, "shared-key").status_code == 200

    # The other seat's request with the same key is its own resign, not a replay.
    answer = _resign(client, match_id, theirs, "shared-key")

    assert answer.status_code == 200, answer.get_json()
    seats = _match(client, match_id)["seats"]
    assert seats[0]["resigned"] and seats[1]["resigned"]
    # And a stranger (a revoked or made-up token) with that key is 401.
    assert _resign(client, match_id, "tab_not-a-token", "shared-key").status_code == 401


def test_a_key_used_for_a_move_is_refused_for_a_resign(client):
    created = create(client, seats=humans(2))
    match = created["match"]
    seat = match["to_act"][0]
    match_id, token = match["id"], created["tokens"][str(seat)]
    listed = client.get(f"/v1/matches/{match_id}/actions", headers=bearer(token)).get_json()
    posted = client.post(
        f"/v1/matches/{match_id}/actions",
        json={"action": listed["actions"][0]},
        headers={**bearer(token), "Idempotency-Key": "one-key"},
    )
    assert posted.status_code == 200

    refused = _resign(client, match_id, token, "one-key")

    assert refused.status_code == 422, refused.get_json()
    assert not _match(client, match_id)["seats"][seat]["resigned"]
