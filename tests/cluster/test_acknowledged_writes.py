"""REDIS_WAIT_REPLICAS: a commit is answered 2xx only once a replica has it.

A replica that does not confirm in time (paused with SIGSTOP) makes the
move 503 ``unavailable`` although the primary applied it; the client's
retry with the same Idempotency-Key, once the replica is back, returns the
move's result, applied once.
"""

import os
import signal
import time
from contextlib import ExitStack, contextmanager

import pytest
import redis

from bench.redis_topologies import wait_for
from service.storage.keys import match_key
from service.storage.replicas import in_sync_replicas
from tests.service.helpers import bearer, create

from .conftest import deployment_app

# Left out by `make test-fast` (-m "not slow"): starts a Redis Cluster or Sentinel.
pytestmark = pytest.mark.slow

# Long enough for a replica's acknowledgement on a busy 2-core machine;
# short for one that is paused (the 503 comes after it).
WAIT_TIMEOUT_MS = 3000
PAUSED_WAIT_TIMEOUT_MS = 300


def _waiting_app(deployment, timeout_ms):
    return deployment_app(deployment, REDIS_WAIT_REPLICAS=1, REDIS_WAIT_TIMEOUT_MS=timeout_ms)


@pytest.fixture
def wait_app(deployment, request):
    deployment.flush()
    app = _waiting_app(deployment, getattr(request, "param", WAIT_TIMEOUT_MS))
    yield app
    app.extensions["tabula"].close()


def _create_confirmed(deployment):
    """A match created with the long WAIT timeout: under load a replica's
    acknowledgement may take longer than the short one, and the set-up is
    not what the short-timeout test is about."""
    app = _waiting_app(deployment, WAIT_TIMEOUT_MS)
    try:
        return create(app.test_client())
    finally:
        app.extensions["tabula"].close()


def _primary_port(services, match_id):
    pool = services.redis.connection_pool if not hasattr(services.redis, "get_node_from_key") else None
    if pool is not None:  # Sentinel: the service's primary now
        return pool.get_master_address()[1]
    return services.redis.get_node_from_key(match_key(match_id)).port


@contextmanager
def paused(proc):
    os.kill(proc.pid, signal.SIGSTOP)
    try:
        yield
    finally:
        os.kill(proc.pid, signal.SIGCONT)


def _first_move(client, match_id, token):
    listed = client.get(f"/v1/matches/{match_id}/actions", headers=bearer(token)).get_json()
    return {"action": listed["actions"][0], "version": listed["version"]}


def _retry_while_unavailable(send, attempts=20, pause_s=0.25):
    """What a client does with a 503: send again. The replica just resumed may
    need longer than the short WAIT timeout to catch up on a loaded machine."""
    for _ in range(attempts):
        answer = send()
        if answer.status_code != 503:
            return answer
        time.sleep(pause_s)
    return answer


def test_an_accepted_move_is_on_a_replica(deployment, wait_app):
    client = wait_app.test_client()
    services = wait_app.extensions["tabula"]
    created = create(client)
    match_id, token = created["match"]["id"], created["tokens"]["0"]
    answer = client.post(
        f"/v1/matches/{match_id}/actions", headers=bearer(token), json=_first_move(client, match_id, token)
    )
    assert answer.status_code == 200, answer.get_json()
    primary = _primary_port(services, match_id)
    (replica_port,) = deployment.servers.replica_ports_of(primary)
    replica = redis.Redis(port=replica_port, single_connection_client=True)
    if deployment.mode == "cluster":
        replica.execute_command("READONLY")  # a cluster replica answers reads only then
    # WAIT returned 1: the replica has the commit already, no polling.
    assert replica.hget(match_key(match_id), "rev") == services.redis.hget(match_key(match_id), "rev")


@pytest.mark.parametrize("wait_app", [PAUSED_WAIT_TIMEOUT_MS], indirect=True)
def test_unconfirmed_move_is_503_and_its_retry_returns_the_result(deployment, wait_app):
    client = wait_app.test_client()
    services = wait_app.extensions["tabula"]
    created = _create_confirmed(deployment)
    match_id, token = created["match"]["id"], created["tokens"]["0"]
    body = _first_move(client, match_id, token)
    headers = {**bearer(token), "Idempotency-Key": "acked-move-1"}
    (replica_port,) = deployment.servers.replica_ports_of(_primary_port(services, match_id))
    with paused(deployment.servers.by_port[replica_port]):
        lost = client.post(f"/v1/matches/{match_id}/actions", headers=headers, json=body)
        assert lost.status_code == 503, lost.get_json()
        assert lost.get_json()["error"] == "unavailable"
        assert lost.get_json()["details"]["required_replicas"] == 1
        # Applied on the primary all the same.
        assert client.get(f"/v1/matches/{match_id}").get_json()["version"] == 1
    retry = _retry_while_unavailable(
        lambda: client.post(f"/v1/matches/{match_id}/actions", headers=headers, json=body)
    )
    assert retry.status_code == 200, retry.get_json()
    assert retry.get_json()["version"] == 1
    assert client.get(f"/v1/matches/{match_id}").get_json()["version"] == 1
    events = client.get(f"/v1/matches/{match_id}/events").get_json()["events"]
    assert len([e for e in events if e["version"] == 1]) == len(
        retry.get_json()["events"]
    )  # after the set-up's


@pytest.mark.parametrize("wait_app", [PAUSED_WAIT_TIMEOUT_MS], indirect=True)
def test_a_commit_that_loads_its_script_first_waits_for_the_replica_too(deployment, wait_app):
    """The first commit on a node that lacks the commit script (a new or
    restarted node, a promoted replica) is refused NOSCRIPT and sent again
    once the script is loaded: its WAIT goes with it. Its WAIT used to stay
    behind, counted before the script wrote anything, so such a commit was
    answered 2xx with no replica having it (test_lost_replica's first match,
    the first commit on its new cluster, then missing after the failover: 404)."""
    primaries = [node for node in deployment.data_nodes if node.info("replication")["role"] == "master"]
    replicas = []
    for node in primaries:
        node.script_flush()  # as on a node that never ran it
        replicas += deployment.servers.replica_ports_of(node.connection_pool.connection_kwargs["port"])
    body = {"game": "anno1503", "seats": [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}]}
    with ExitStack() as stack:
        for port in replicas:
            stack.enter_context(paused(deployment.servers.by_port[port]))
        answer = wait_app.test_client().post("/v1/matches", json=body)
    # Resumed, each replica acknowledges again before the next test reads /readyz.
    wait_for(
        lambda: all(in_sync_replicas(node.info("replication"), 1)[0] == 1 for node in primaries),
        10,
        "the replicas did not catch up",
    )
    assert answer.status_code == 503, answer.get_json()
    assert answer.get_json()["error"] == "unavailable"
    assert answer.get_json()["details"]["replicas"] == 0


def test_a_replica_that_stops_acknowledging_closes_its_shard_until_it_resumes(deployment):
    """Sentinel and cluster alike: a replica paused (SIGSTOP) longer than
    REDIS_REPLICA_MAX_LAG_S is out of sync, so its primary takes no move: 503
    ``not_enough_replicas`` before anything is written, /readyz ``degraded``;
    resumed, the same retry is applied once."""
    deployment.flush()
    app = deployment_app(
        deployment,
        REDIS_WAIT_REPLICAS=1,
        REDIS_WAIT_TIMEOUT_MS=WAIT_TIMEOUT_MS,
        REDIS_REPLICA_MAX_LAG_S=1,
        READY_MIN_WORKERS=0,
    )
    client, services = app.test_client(), app.extensions["tabula"]
    try:
        # With a 1 s lag bound, a loaded machine's replica can look out of sync
        # now and then before anything is paused (its once-a-second ack late):
        # the set-up retries what a client would, and waits for /readyz ok.
        seats = [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}]
        new_match = {"game": "anno1503", "seats": seats, "seed": 7, "dice": "reproducible"}
        made = _retry_while_unavailable(lambda: client.post("/v1/matches", json=new_match))
        assert made.status_code == 201, made.get_json()
        created = made.get_json()
        match_id, token = created["match"]["id"], created["tokens"]["0"]
        wait_for(lambda: client.get("/readyz").get_json()["status"] == "ok", 10, "/readyz never ok")
        body = _first_move(client, match_id, token)
        headers = {**bearer(token), "Idempotency-Key": "lagging-replica"}
        (replica_port,) = deployment.servers.replica_ports_of(_primary_port(services, match_id))
        with paused(deployment.servers.by_port[replica_port]):
            time.sleep(3.5)  # its last acknowledgement now 3 s old or more: lag > 1
            refused = client.post(f"/v1/matches/{match_id}/actions", headers=headers, json=body)
            assert refused.status_code == 503, refused.get_json()
            assert refused.get_json()["error"] == "not_enough_replicas"
            assert client.get(f"/v1/matches/{match_id}").get_json()["version"] == 0  # nothing written
            ready = client.get("/readyz").get_json()
            assert ready["status"] == "degraded", ready
            assert "degraded" in [shard["status"] for shard in ready["shards"]]
        retry = _retry_while_unavailable(
            lambda: client.post(f"/v1/matches/{match_id}/actions", headers=headers, json=body)
        )
        assert retry.status_code == 200, retry.get_json()
        again = client.post(f"/v1/matches/{match_id}/actions", headers=headers, json=body)
        assert again.status_code == 200 and again.get_json() == retry.get_json()
        assert client.get(f"/v1/matches/{match_id}").get_json()["version"] == 1  # applied once
    finally:
        services.close()
