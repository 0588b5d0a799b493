"""The live streams' pub/sub on each mode: a stream's subscription is on the
server that holds its match (on a cluster: sharded pub/sub, SSUBSCRIBE on
the primary of the match's slot, nowhere else) and a commit wakes it."""

import time

import pytest
import redis

from service.live.feeds import Subscriber
from service.live.hub import hub_of
from service.storage.keys import live_channel
from tests.service.helpers import bearer, create

# Left out by `make test-fast` (-m "not slow"): starts a Redis Cluster or Sentinel.
pytestmark = pytest.mark.slow


def _shard_subscribers(node, channel):
    """How many clients of ``node`` subscribe to the shard channel."""
    reply = node.execute_command("PUBSUB", "SHARDNUMSUB", channel)
    return int(reply[1])


def _primary_of(deployment, services, channel):
    if deployment.mode == "cluster":
        return services.redis.get_node_from_key(channel).port
    return deployment.servers.primary_port


def test_a_stream_subscribes_on_its_matchs_server_and_a_commit_wakes_it(deployment, client, services):
    created = create(client)
    match_id, token = created["match"]["id"], created["tokens"]["0"]
    channel = live_channel(match_id)
    hub = hub_of(services)
    # The log starts with the set-up's events: the stream follows on after them.
    logged = client.get(f"/v1/matches/{match_id}/events").get_json()["last_seq"]
    sub = Subscriber(viewer=0, sse=False, cursor=logged, limit=100)
    feed = hub.register(match_id, sub)
    try:
        hub.note_seq(feed, logged)
        owner = _primary_of(deployment, services, channel)
        counts = {}
        for node in deployment.data_nodes:
            port = node.connection_pool.connection_kwargs["port"]
            if node.info("replication").get("role") == "master":
                counts[port] = _shard_subscribers(node, channel)
        assert counts == {port: int(port == owner) for port in counts}

        listed = client.get(f"/v1/matches/{match_id}/actions", headers=bearer(token)).get_json()
        moved = client.post(
            f"/v1/matches/{match_id}/actions",
            headers=bearer(token),
            json={"action": listed["actions"][0], "version": listed["version"]},
        )
        assert moved.status_code == 200
        assert sub.wake.wait(5), "the commit did not wake the stream"
        deadline = time.monotonic() + 5
        while len(sub.queue) < len(moved.get_json()["events"]) and time.monotonic() < deadline:
            time.sleep(0.01)
        seqs = [item[0] for item in sub.queue]
        assert seqs == [event["seq"] for event in moved.get_json()["events"]]
    finally:
        hub.unregister(match_id, sub)
    node = redis.Redis(port=_primary_of(deployment, services, channel))
    deadline = time.monotonic() + 5
    while _shard_subscribers(node, channel) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert _shard_subscribers(node, channel) == 0
