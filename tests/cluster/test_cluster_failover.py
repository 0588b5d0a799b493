"""A cluster failover of a match's shard (graceful: ``CLUSTER FAILOVER`` on
its replica) while a stream watches it: the next move reaches the new
primary (the old one answers MOVED, the store reads the slot map again and
sends it there), and the stream's subscription follows the slot to the new
primary and gets the move.

The old primary ends its shard subscriptions with a ``sunsubscribe``, but
may do so before any node hands out the new slot map (the hub read the old
one again and subscribed on the demoted node), or (seen on Redis 7.0) keep
the subscription while no longer getting the shard's messages: the hub's
keeper (service/live/hub.py) moves a subscription whose slot has another primary
and reads what it missed, whatever the server said.

It changes the session cluster's topology: every test here finds primaries
and replicas as they are, not as they were created.
"""

import time

import pytest
import redis

from service.live.feeds import Subscriber
from service.live.hub import hub_of
from service.storage.keys import live_channel, match_key
from tests.service.conftest import make_app
from tests.service.helpers import bearer, create

# Left out by `make test-fast` (-m "not slow"): starts a Redis Cluster or Sentinel.
pytestmark = pytest.mark.slow

STREAM_BOUND_S = 10  # the keeper checks the slot map every 2 s: this is five checks


def _role(port):
    return redis.Redis(port=port).info("replication").get("role")


def _wait(condition, what, timeout=15):
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


@pytest.fixture
def cluster_app(redis_cluster, queue_server):
    _wait(redis_cluster.is_ready, "the cluster is not ready")
    app = make_app(redis_cluster.url, REDIS_MODE="cluster", RQ_REDIS_URL=queue_server.url)
    yield app
    app.extensions["tabula"].close()


def _fail_over(redis_cluster, primary_port):
    """``CLUSTER FAILOVER`` on the replica of ``primary_port``, asked again
    when it times out: the primaries vote for one shard's failover once per
    two node timeouts, so one right after another of the same shard (tests
    run one after the other) can be refused."""
    (replica_port,) = redis_cluster.replica_ports_of(primary_port)
    deadline = time.monotonic() + 30
    while True:
        redis.Redis(port=replica_port).execute_command("CLUSTER", "FAILOVER")
        try:
            _wait(
                lambda: _role(replica_port) == "master" and _role(primary_port) == "slave",
                "the replica did not take over",
                timeout=7,
            )
            break
        except AssertionError:
            if time.monotonic() > deadline:
                raise
    _wait(redis_cluster.is_ready, "the cluster did not settle after the failover")
    return replica_port


def _shard_subscribers(port, channel):
    return int(redis.Redis(port=port).execute_command("PUBSUB", "SHARDNUMSUB", channel)[1])


def test_moves_and_streams_follow_a_failover(redis_cluster, cluster_app):
    client, services = cluster_app.test_client(), cluster_app.extensions["tabula"]
    created = create(client)
    match_id, token = created["match"]["id"], created["tokens"]["0"]
    channel = live_channel(match_id)
    before = services.store.load_doc(match_id).get("seq", 0)  # the set-up's events, if any
    hub = hub_of(services)
    sub = Subscriber(viewer=0, sse=False, cursor=before, limit=100)
    hub.note_seq(hub.register(match_id, sub), before)
    try:
        old_primary = services.redis.get_node_from_key(match_key(match_id)).port
        assert _shard_subscribers(old_primary, channel) == 1
        new_primary = _fail_over(redis_cluster, old_primary)

        listed = client.get(f"/v1/matches/{match_id}/actions", headers=bearer(token)).get_json()
        moved = client.post(
            f"/v1/matches/{match_id}/actions",
            headers=bearer(token),
            json={"action": listed["actions"][0], "version": listed["version"]},
        )
        assert moved.status_code == 200, moved.get_json()
        assert services.redis.get_node_from_key(match_key(match_id)).port == new_primary

        expected = [event["seq"] for event in moved.get_json()["events"]]
        assert expected and expected[0] == before + 1
        deadline = time.monotonic() + STREAM_BOUND_S
        while len(sub.queue) < len(expected) and time.monotonic() < deadline:
            time.sleep(0.02)
        assert [item[0] for item in sub.queue] == expected
        # The subscription lives on the slot's primary now, and only there.
        _wait(
            lambda: _shard_subscribers(new_primary, channel) == 1,
            "the stream is not subscribed on the new primary",
            timeout=STREAM_BOUND_S,
        )
        assert _shard_subscribers(old_primary, channel) == 0
    finally:
        hub.unregister(match_id, sub)
