"""The Redis layer: one slot per match, the compare-and-set commit."""

import threading
import time

import pytest
import redis
from redis.crc import key_slot

from launcher.redis_process import RedisProcess
from service.storage.breaker import Breaker, connection_class
from service.storage.keys import actions_key, events_key, idem_key, match_key
from service.storage.records import Change
from service.storage.transport import Transport, _parallel

from .conftest import unreachable_redis_url
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


def test_a_round_trip_to_two_servers_takes_the_slower_ones_time(redis_server):
    """On a cluster the commands of one round trip that go to several nodes
    are all written before any reply is read (transport._parallel): two
    servers that each take 0.4 s answer in about 0.4 s, not 0.8."""
    with RedisProcess() as other:
        pools = [
            redis.ConnectionPool.from_url(url, socket_timeout=5) for url in (redis_server.url, other.url)
        ]
        started = time.monotonic()
        replies = _parallel([(pool, [("BLPOP", "nothing-here", 0.4)]) for pool in pools], retry=False)
        assert time.monotonic() - started < 0.7
        assert replies == [[None], [None]]


def test_a_node_that_fails_leaves_no_reply_pending_on_the_others(redis_server):
    live = redis.ConnectionPool.from_url(redis_server.url, socket_timeout=5)
    dead = redis.ConnectionPool.from_url(unreachable_redis_url(), socket_timeout=1, socket_connect_timeout=1)
    with pytest.raises(redis.ConnectionError):
        _parallel([(live, [("SET", "k", "1"), ("GET", "k")]), (dead, [("GET", "k")])], retry=False)
    assert len(live._in_use_connections) == 0
    # Whatever connection the pool hands out next answers its own command.
    assert _parallel([(live, [("PING",)]), (live, [("ECHO", "x")])], retry=False) == [[b"PONG"], [b"x"]]


def test_a_connection_the_server_closed_is_not_handed_out(redis_server):
    """The pool's check for pending replies (one real poll, breaker.py) still
    sees a connection the server closed: the next command gets a fresh one."""
    pool = redis.BlockingConnectionPool.from_url(
        redis_server.url, connection_class=connection_class(Breaker()), max_connections=1, timeout=5
    )
    conn = pool.get_connection()
    assert not conn.can_read()  # nothing pending
    conn.send_command("CLIENT", "ID")
    client_id = conn.read_response()
    pool.release(conn)
    redis.Redis.from_url(redis_server.url).execute_command("CLIENT", "KILL", "ID", client_id)
    time.sleep(0.1)
    # Not retried (as a commit is not): a dead connection handed out would fail it.
    assert _parallel([(pool, [("PING",)])], retry=False) == [[b"PONG"]]
