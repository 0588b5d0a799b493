"""The deadline index on a real Redis Cluster (service/storage/deadline_index.py).

A commit that gives its match a deadline writes the index entry in its own
script, in a shard on the match's node: one round trip, written exactly
when the commit is. When the slot map the process holds is out of date (the
shard's slot moved to another node), the script fails before writing
anything; the store reads the map again and writes the entry first, in its
own round trip, then the commit: the commit applies once and its entry is
there. Every node of a 3-primary cluster serves some of the index's shards.
"""

import time

import pytest
from redis.crc import key_slot

from bench.redis_topologies import node_client, wait_for
from service.storage.keys import DEADLINE_TAGS, deadline_shard_keys, match_key
from service.storage.records import Change
from tests.service.conftest import make_app
from tests.service.helpers import create, humans

# Left out by `make test-fast` (-m "not slow"): starts a Redis Cluster.
pytestmark = pytest.mark.slow


@pytest.fixture
def services(redis_cluster, queue_server):
    wait_for(redis_cluster.is_ready, 30, "the cluster is not ready")
    for node in redis_cluster.primaries():
        node.flushall()
    app = make_app(redis_cluster.url, REDIS_MODE="cluster", RQ_REDIS_URL=queue_server.url)
    services = app.extensions["tabula"]
    yield app.test_client(), services
    services.close()


def _node(services, key):
    return services.redis.get_node_from_key(key).name


def _round_trips(store, monkeypatch):
    """Each ``Transport.replies`` call (a round trip), counted as it runs."""
    calls = []
    replies = store.transport.replies
    monkeypatch.setattr(store.transport, "replies", lambda *a, **k: calls.append(a[0]) or replies(*a, **k))
    return calls


def _commit_with_deadline(store, match_id, due):
    stored = store.load(match_id)
    doc = dict(stored.doc, version=stored.doc["version"] + 1)
    return store.commit(match_id, stored.rev, Change(doc=doc), (doc["version"], due))


def test_every_primary_serves_deadline_shards(services):
    _, services = services
    nodes = {_node(services, deadline_shard_keys(tag)[0]) for tag in DEADLINE_TAGS}
    assert nodes == {node.name for node in services.redis.get_primaries()}


def test_a_commit_writes_its_entry_in_its_own_script_on_its_node(services, monkeypatch):
    client, services = services
    store = services.store
    match_id = create(client, seats=humans(2))["match"]["id"]
    due = int(time.time() * 1000) + 60_000
    calls = _round_trips(store, monkeypatch)
    assert _commit_with_deadline(store, match_id, due).outcome == "OK"
    assert [command[0] for batch in calls for command in batch] == ["EVALSHA"]  # the commit alone
    entries = [(m, tag) for m, tag in store.due_entries(due, 100) if m == match_id]
    assert len(entries) == 1
    tag = entries[0][1]
    assert tag in DEADLINE_TAGS
    assert _node(services, deadline_shard_keys(tag)[0]) == _node(services, match_key(match_id))
    assert key_slot(deadline_shard_keys(tag)[0].encode()) != key_slot(match_key(match_id).encode())


def _node_id(port):
    node_id = node_client(port).cluster("myid")
    return node_id.decode() if isinstance(node_id, bytes) else node_id


def _move_empty_slot(cluster, slot, to_port):
    """Hand an empty ``slot`` to the primary on ``to_port`` (every primary told)."""
    target = _node_id(to_port)
    ports = [c.connection_pool.connection_kwargs["port"] for c in cluster.primaries()]
    for port in [to_port] + [p for p in ports if p != to_port]:
        node_client(port).execute_command("CLUSTER", "SETSLOT", slot, "NODE", target)
    wait_for(
        lambda: all(
            node_client(p).execute_command("CLUSTER", "COUNTKEYSINSLOT", slot) == 0
            and _slot_owner(p, slot) == target
            for p in ports
        ),
        10,
        "the slot did not move",
    )


def _slot_owner(port, slot):
    for start, end, primary, *_ in node_client(port).execute_command("CLUSTER", "SLOTS"):
        if start <= slot <= end:
            return primary[2].decode() if isinstance(primary[2], bytes) else primary[2]
    return None


def _failed_scripts(port):
    return node_client(port).info("commandstats").get("cmdstat_evalsha", {}).get("failed_calls", 0)


def test_a_shard_moved_away_fails_the_script_before_it_writes(services, redis_cluster):
    client, services = services
    store = services.store
    match_id = create(client, seats=humans(2))["match"]["id"]
    tag, in_script = store.deadline_shard(match_id)  # the slot map as this process holds it
    assert in_script
    shard_slot = key_slot(deadline_shard_keys(tag)[0].encode())
    home = services.redis.get_node_from_key(deadline_shard_keys(tag)[0]).port
    elsewhere = next(
        c.connection_pool.connection_kwargs["port"]
        for c in redis_cluster.primaries()
        if c.connection_pool.connection_kwargs["port"] != home
    )
    before = store.load(match_id)
    for key in deadline_shard_keys(tag):  # the creation's entry: the slot must be empty to move
        services.redis.delete(key)
    _move_empty_slot(redis_cluster, shard_slot, elsewhere)
    match_node = services.redis.get_node_from_key(match_key(match_id))
    failed_before = _failed_scripts(match_node.port)
    try:
        due = int(time.time() * 1000) + 60_000
        assert _commit_with_deadline(store, match_id, due).outcome == "OK"
        assert _failed_scripts(match_node.port) == failed_before + 1  # the script that reached too far
        after = store.load(match_id)
        assert int(after.rev) == int(before.rev) + 1  # applied once
        assert store.due_matches(due, 100) == [match_id]
        # The store now knows the shard is elsewhere.
        assert store.deadline_shard(match_id)[0] != tag or not store.deadline_shard(match_id)[1]
    finally:
        for key in deadline_shard_keys(tag):
            services.redis.delete(key)
        _move_empty_slot(redis_cluster, shard_slot, home)
        wait_for(redis_cluster.is_ready, 30, "the cluster is not ready again")


def test_a_match_on_a_node_without_shards_writes_its_entry_first(services, monkeypatch):
    """Where the match's node serves no shard (a bigger cluster), the entry
    goes in a round trip before the commit, as it always did."""
    client, services = services
    store = services.store
    match_id = create(client, seats=humans(2))["match"]["id"]
    store.deadline_shard(match_id)  # the node -> shards map, then one node without any
    store._local_shards[_node(services, match_key(match_id))] = ()
    calls = _round_trips(store, monkeypatch)
    due = int(time.time() * 1000) + 60_000
    assert _commit_with_deadline(store, match_id, due).outcome == "OK"
    assert [[command[0] for command in batch] for batch in calls] == [["EVALSHA"], ["EVALSHA"]]
    assert calls[0][0][1] == store._deadline.sha  # the entry first
    assert match_id in store.due_matches(due, 100)
