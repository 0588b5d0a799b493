"""A retry with the same Idempotency-Key and token gets the first answer,
even when that first request revoked the token (a resign; a move after
which the seat was handed over): the record is found by the token's hash
and the key before the token is checked, and no other token can read it.

The 503 case is real: with REDIS_WAIT_REPLICAS=1 and no replica, every
commit is refused before it writes anything (503 ``not_enough_replicas``,
service/storage/replicas.py), which is what a client retries; once a real
replica follows the primary, the retry is applied, once.
"""

import time

import pytest
import redis

from launcher.redis_process import RedisProcess

from .conftest import make_app
from .helpers import bearer, create, humans, redis_contents

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


def test_a_resign_refused_for_want_of_a_replica_is_applied_once_when_one_is_back():
    """REDIS_WAIT_REPLICAS=1 on a primary without a replica (standalone here;
    the same on Sentinel and on a cluster's shard): the resign is refused
    before anything is written, 503 ``not_enough_replicas`` with Retry-After,
    and so is its retry; once a real replica follows the primary, the same
    retry is applied, once."""
    with RedisProcess() as primary, RedisProcess() as replica:
        plain = make_app(primary.url)  # creates the match without waiting
        created = create(plain.test_client(), seats=humans(2))
        match_id, token = created["match"]["id"], created["tokens"]["0"]
        before = _match(plain.test_client(), match_id)
        waiting = make_app(primary.url, REDIS_WAIT_REPLICAS=1, REDIS_WAIT_TIMEOUT_MS=5000)
        client = waiting.test_client()
        try:
            for _ in range(2):  # the first attempt and a retry
                started = time.monotonic()
                refused = _resign(client, match_id, token, "resign-without-replica")
                assert refused.status_code == 503, refused.get_json()
                assert time.monotonic() - started < 2  # not after the 5 s WAIT
                body = refused.get_json()
                assert body["error"] == "not_enough_replicas"
                assert body["details"] == {"retry_after_s": 5, "replicas": 0, "required_replicas": 1}
                assert refused.headers["Retry-After"] == "5"
                assert _match(plain.test_client(), match_id) == before  # nothing changed
                # No idempotency record either: nothing of the resign was stored.
                assert not redis.Redis.from_url(primary.url).keys(f"match:{{{match_id}}}:idem:*")
            ready = client.get("/readyz").get_json()
            assert ready["shards"] == [
                {"node": "primary", "replicas": 0, "required_replicas": 1, "status": "degraded"}
            ]

            _attach_replica(replica, primary)
            retry = _retry_while_refused(lambda: _resign(client, match_id, token, "resign-without-replica"))
            assert retry.status_code == 200, retry.get_json()
            assert retry.get_json()["seats"][0]["resigned"]
            again = _resign(client, match_id, token, "resign-without-replica")
            assert again.status_code == 200 and again.get_json() == retry.get_json()
            assert _match(client, match_id)["version"] == before["version"] + 1  # applied once
            assert client.get("/readyz").get_json()["shards"][0]["status"] == "ok"
        finally:
            waiting.extensions["tabula"].close()
            plain.extensions["tabula"].close()


def test_a_server_refusing_writes_itself_changes_nothing_and_is_answered_the_same():
    """Redis's own min-replicas-to-write (an operator's choice, not the
    service's): the commit script, an old-style one (no ``#!lua flags``), is
    refused at its first write, after its reads and before it changed
    anything; the API answers that NOREPLICAS as its own refusal."""
    with RedisProcess() as primary:
        app = make_app(primary.url)  # REDIS_WAIT_REPLICAS=0: the server refuses, not the gate
        client = app.test_client()
        server = redis.Redis.from_url(primary.url)
        try:
            created = create(client, seats=humans(2))
            match_id, token = created["match"]["id"], created["tokens"]["0"]
            before = _match(client, match_id)
            keys = redis_contents(server)
            server.config_set("min-replicas-to-write", 1)

            refused = _resign(client, match_id, token, "refused-by-redis")

            assert refused.status_code == 503, refused.get_json()
            assert refused.get_json()["error"] == "not_enough_replicas"
            assert refused.headers["Retry-After"] == "5"
            assert redis_contents(server) == keys  # nothing written
            assert server.info("errorstats")["errorstat_NOREPLICAS"]["count"] >= 1
            server.config_set("min-replicas-to-write", 0)
            retry = _resign(client, match_id, token, "refused-by-redis")
            assert retry.status_code == 200, retry.get_json()
            assert _match(client, match_id)["version"] == before["version"] + 1
        finally:
            server.close()
            app.extensions["tabula"].close()


def _retry_while_refused(send, bound_s=10):
    """A client honouring the refusal, but without its Retry-After's 5 s:
    the gate looks at the primary again within a second (replicas.REFRESH_S)."""
    deadline = time.monotonic() + bound_s
    while True:
        answer = send()
        if answer.status_code != 503 or time.monotonic() > deadline:
            return answer
        time.sleep(0.2)


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
