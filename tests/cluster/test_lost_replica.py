"""A shard that lost its replica, with REDIS_WAIT_REPLICAS=1 (issue 44).

On a private 3 + 3 cluster (node timeout 1 s) the primary holding one match
is killed with SIGKILL; its replica takes over and has no replica of its
own. Then, until a replica follows it again:

- a move on that shard is refused before anything is written: 503
  ``not_enough_replicas`` with Retry-After, at once (no WAIT timeout), the
  match, its events and its idempotency records unchanged, its retry with
  the same Idempotency-Key refused alike;
- a move on another shard is accepted;
- /readyz answers 200 ``degraded`` naming the shard, /metrics gives its
  in-sync replicas (0) and counts the refusals.

The killed node is started again (it rejoins as a replica of the promoted
one): the same retry is applied, once, and a second retry gets its answer.
"""

import time

import pytest

from bench.redis_topologies import ClusterServers, node_client, wait_for
from launcher.redis_process import RedisProcess
from service.storage.keys import match_key
from tests.service.conftest import METRICS_BASE_URL, make_app
from tests.service.helpers import bearer, create

# Left out by `make test-fast` (-m "not slow"): starts a Redis Cluster.
pytestmark = pytest.mark.slow

PROMOTION_BOUND_S = 15  # the replica's failover after a 1 s node timeout, on a loaded machine
REJOIN_BOUND_S = 20  # the restarted node back as a replica, synced


@pytest.fixture
def cluster_app(tmp_path):
    with ClusterServers(tmp_path / "cluster", node_timeout_ms=1000) as cluster, RedisProcess() as queue:
        app = make_app(
            cluster.url,
            REDIS_MODE="cluster",
            RQ_REDIS_URL=queue.url,
            REDIS_WAIT_REPLICAS=1,
            REDIS_WAIT_TIMEOUT_MS=3000,
            READY_MIN_WORKERS=0,
        )
        try:
            yield cluster, app
        finally:
            app.extensions["tabula"].close()


def _primary_port(cluster, match_id):
    return cluster.primary_port_of(match_key(match_id))


def _two_shards(cluster, client):
    """Two matches ``(match_id, token)`` whose primaries differ."""
    by_port = {}
    while len(by_port) < 2:
        created = create(client)
        match_id = created["match"]["id"]
        by_port.setdefault(_primary_port(cluster, match_id), (match_id, created["tokens"]["0"]))
    return list(by_port.values())


def _move(client, match_id, token, key):
    listed = client.get(f"/v1/matches/{match_id}/actions", headers=bearer(token)).get_json()
    body = {"action": listed["actions"][0], "version": listed["version"]}
    return lambda: client.post(
        f"/v1/matches/{match_id}/actions", headers={**bearer(token), "Idempotency-Key": key}, json=body
    )


def _until(send, refused_with, bound_s):
    """``send()`` again while it answers 503 ``refused_with``, up to ``bound_s``."""
    deadline = time.monotonic() + bound_s
    while True:
        answer = send()
        if answer.status_code != 503 or answer.get_json()["error"] not in refused_with:
            return answer
        assert time.monotonic() < deadline, f"still {answer.get_json()} after {bound_s} s"
        time.sleep(0.1)


def _snapshot(client, node, match_id):
    """What a refused move must not change: the match, its events, and its
    idempotency records on its primary."""
    events = client.get(f"/v1/matches/{match_id}/events").get_json()["events"]
    records = node.keys(f"match:{{{match_id}}}:idem:*")
    return client.get(f"/v1/matches/{match_id}").get_json(), len(events), sorted(records)


def test_a_shard_without_its_replica_refuses_moves_before_writing(cluster_app):
    cluster, app = cluster_app
    client = app.test_client()
    (victim, victim_token), (other, other_token) = _two_shards(cluster, client)
    port = _primary_port(cluster, victim)
    (replica_port,) = cluster.replica_ports_of(port)
    send = _move(client, victim, victim_token, "move-on-degraded-shard")
    healthy = client.get("/readyz").get_json()
    assert healthy["status"] == "ok", healthy
    assert [shard["replicas"] for shard in healthy["shards"]] == [1, 1, 1]

    cluster.by_port[port].kill()
    wait_for(
        lambda: (
            node_client(replica_port).info("replication")["role"] == "master"
            and all(
                node_client(p).cluster("info")["cluster_state"] == "ok" for p in cluster.ports if p != port
            )
        ),
        PROMOTION_BOUND_S,
        "the replica did not take over",
    )
    promoted = node_client(replica_port)
    # The first requests may still meet the failover (503 `unavailable`: the
    # slot map is read again); then the shard's own answer.
    started = time.monotonic()
    refused = _until(send, {"unavailable"}, PROMOTION_BOUND_S)
    assert refused.status_code == 503, refused.get_json()
    assert refused.get_json()["error"] == "not_enough_replicas"
    assert refused.get_json()["details"] == {"retry_after_s": 5, "replicas": 0, "required_replicas": 1}
    assert refused.headers["Retry-After"] == "5"
    before = _snapshot(client, promoted, victim)
    assert before[0]["version"] == 0 and before[2] == []  # the refused move stored nothing
    timed = time.monotonic()
    again = send()
    assert time.monotonic() - timed < 1.0  # refused at once, not after the 3 s WAIT
    assert again.status_code == 503 and again.get_json()["error"] == "not_enough_replicas"
    assert _snapshot(client, promoted, victim) == before

    elsewhere = _move(client, other, other_token, "move-on-healthy-shard")()
    assert elsewhere.status_code == 200, elsewhere.get_json()

    ready = client.get("/readyz")
    assert ready.status_code == 200, ready.get_json()
    assert ready.get_json()["status"] == "degraded"
    shards = {shard["node"]: shard for shard in ready.get_json()["shards"]}
    assert shards[f"127.0.0.1:{replica_port}"]["status"] == "degraded"
    assert shards[f"127.0.0.1:{replica_port}"]["replicas"] == 0
    assert sorted(s["status"] for s in shards.values()) == ["degraded", "ok", "ok"]
    scraped = client.get("/metrics", base_url=METRICS_BASE_URL).get_data(as_text=True)
    assert f'tabula_storage_replicas{{node="127.0.0.1:{replica_port}"}} 0.0' in scraped
    assert 'tabula_refusals_total{code="not_enough_replicas",status="503"}' in scraped

    # The operator's part: the failed node comes back as the shard's replica.
    cluster.spawn_node(port)
    wait_for(
        lambda: any(
            value.get("state") == "online"
            for name, value in promoted.info("replication").items()
            if name.startswith("slave")
        ),
        REJOIN_BOUND_S,
        "the restarted node did not follow the promoted one",
    )
    accepted = _until(send, {"not_enough_replicas", "unavailable"}, REJOIN_BOUND_S)
    assert accepted.status_code == 200, accepted.get_json()
    assert accepted.get_json()["version"] == 1
    replayed = send()
    assert replayed.status_code == 200 and replayed.get_json() == accepted.get_json()
    match, events, records = _snapshot(client, promoted, victim)
    assert match["version"] == 1 and len(records) == 1  # applied once
    assert events == before[1] + len(accepted.get_json()["events"])
    assert client.get("/readyz").get_json()["status"] == "ok"
    print(f"\n[lost replica] refused for {time.monotonic() - started:.1f} s until the replica was back")
