"""The Redis layer: one slot per match, the compare-and-set commit."""

import threading

import pytest
import redis
from redis.crc import key_slot

from service.storage.keys import actions_key, events_key, idem_key, match_key
from service.storage.records import Change
from service.storage.transport import Transport

from .helpers import create


def test_every_key_of_a_match_shares_its_hash_slot(client, services):
    match_id = create(client)["match"]["id"]
    keys = [match_key(match_id), events_key(match_id), actions_key(match_id), idem_key(match_id, 0, "abc")]
    assert len({key_slot(k.encode()) for k in keys}) == 1
    stored = {k.decode() for k in services.redis.keys(f"match:{{{match_id}}}*")}
    assert stored and all(f"{{{match_id}}}" in k for k in stored)


def _last_seq(store, match_id):
    return max((seq for seq, _, _ in store.read_events(match_id, 0, 1000)), default=0)


def test_commit_refuses_a_stale_revision_and_writes_nothing(client, services):
    match_id = create(client)["match"]["id"]
    store = services.store
    before = store.load(match_id)
    last = _last_seq(store, match_id)  # the set-up events come first
    doc = dict(before.doc, version=99)
    event = {"type": "x", "seat": 0, "data": {}}
    ok = store.commit(match_id, before.rev, Change(doc=doc, events=[(last + 1, 99, event)]))
    assert ok.outcome == "OK"
    stale = store.commit(
        match_id, before.rev, Change(doc=dict(doc, version=100), events=[(last + 2, 100, event)])
    )
    assert stale.outcome == "CONFLICT"
    after = store.load(match_id)
    assert after.doc["version"] == 99
    assert _last_seq(store, match_id) == last + 1


def test_commit_with_a_known_idempotency_key_is_a_duplicate(client, services):
    match_id = create(client)["match"]["id"]
    store = services.store
    key = idem_key(match_id, 0, "k")
    first = store.load(match_id)
    change = Change(doc=first.doc, idem_key=key, idem_value=b'{"fp": "1", "response": {"a": 1}}')
    assert store.commit(match_id, first.rev, change).outcome == "OK"
    second = store.load(match_id)
    dup = store.commit(match_id, second.rev, change)
    assert dup.outcome == "DUP" and dup.payload == {"fp": "1", "response": {"a": 1}}
    assert store.load(match_id).rev == second.rev
    assert 0 < services.redis.ttl(key) <= 24 * 3600


def test_commit_never_half_writes_out_of_order_events(client, services):
    match_id = create(client)["match"]["id"]
    store = services.store
    event = {"type": "x", "seat": 0, "data": {}}
    first = store.load(match_id)
    last = _last_seq(store, match_id)
    assert (
        store.commit(match_id, first.rev, Change(doc=first.doc, events=[(last + 1, 1, event)])).outcome
        == "OK"
    )
    second = store.load(match_id)
    with pytest.raises(RuntimeError):
        store.commit(
            match_id, second.rev, Change(doc=dict(second.doc, version=7), events=[(last + 1, 2, event)])
        )
    assert store.load(match_id).rev == second.rev
    assert store.load(match_id).doc["version"] == second.doc["version"]


def test_threads_that_come_and_go_give_their_connections_back(redis_server):
    """Each thread keeps one connection for its round trips (transport.py);
    a thread that ends gives it back. 150 short-lived threads (more than
    redis-py's pool allows, 100) leave none behind: they used to leak one
    each, and a pairing worker's waves then failed with MaxConnectionsError."""
    client = redis.Redis.from_url(redis_server.url)
    transport = Transport(client)
    for _ in range(150):
        thread = threading.Thread(target=transport.replies, args=([("PING",)], True))
        thread.start()
        thread.join()
    assert len(client.connection_pool._in_use_connections) == 0
    assert transport.replies([("PING",)], True) == [b"PONG"]
