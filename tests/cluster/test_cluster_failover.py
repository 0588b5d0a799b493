"""A cluster failover of a match's shard (graceful: ``CLUSTER FAILOVER`` on
its replica) while a stream watches it: the next move reaches the new
primary (the old one answers MOVED, the store reads the slot map again and
sends it there), and the stream, whose subscription the old primary ended
(``sunsubscribe``), subscribes again on the new one and gets the move.

It changes the session cluster's topology: every test here finds primaries
and replicas as they are, not as they were created.
"""

import time

import pytest
import redis

from service.live import Subscriber, hub_of
from service.storage import live_channel, match_key
from tests.service.conftest import make_app
from tests.service.helpers import bearer, create


def _role(port):
    return redis.Redis(port=port).info("replication").get("role")


def _wait(condition, what, timeout=15):
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


@pytest.fixture
def cluster_app(redis_cluster, queue_server):
    app = make_app(redis_cluster.url, REDIS_MODE="cluster", RQ_REDIS_URL=queue_server.url)
    yield app
    app.extensions["tabula"].close()


def _fail_over(redis_cluster, primary_port):
    (replica_port,) = redis_cluster.replica_ports_of(primary_port)
    redis.Redis(port=replica_port).execute_command("CLUSTER", "FAILOVER")
    _wait(lambda: _role(replica_port) == "master" and _role(primary_port) == "slave",
          "the replica did not take over")
    _wait(redis_cluster.is_ready, "the cluster did not settle after the failover")
    return replica_port


def test_moves_and_streams_follow_a_failover(redis_cluster, cluster_app):
    client, services = cluster_app.test_client(), cluster_app.extensions["tabula"]
    created = create(client)
    match_id, token = created["match"]["id"], created["tokens"]["0"]
    hub = hub_of(services)
    sub = Subscriber(viewer=0, sse=False, cursor=0, limit=100)
    hub.note_seq(hub.register(match_id, sub), 0)
    try:
        old_primary = services.redis.get_node_from_key(match_key(match_id)).port
        new_primary = _fail_over(redis_cluster, old_primary)

        listed = client.get(f"/v1/matches/{match_id}/actions", headers=bearer(token)).get_json()
        moved = client.post(f"/v1/matches/{match_id}/actions", headers=bearer(token),
                            json={"action": listed["actions"][0], "version": listed["version"]})
        assert moved.status_code == 200, moved.get_json()
        assert services.redis.get_node_from_key(match_key(match_id)).port == new_primary

        expected = [event["seq"] for event in moved.get_json()["events"]]
        deadline = time.monotonic() + 10
        while len(sub.queue) < len(expected) and time.monotonic() < deadline:
            time.sleep(0.02)
        assert [item[0] for item in sub.queue] == expected
        shard = redis.Redis(port=new_primary)
        assert shard.execute_command("PUBSUB", "SHARDNUMSUB", live_channel(match_id))[1] == 1
    finally:
        hub.unregister(match_id, sub)
