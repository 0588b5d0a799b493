"""A busy match's slot migrated to another primary (CLUSTER SETSLOT
IMPORTING / MIGRATING, MIGRATE of its keys one at a time, SETSLOT NODE: what
``redis-cli --cluster reshard`` does) while a client posts moves and a
stream watches it.

During the migration single-key commands follow ASK to the importing node
(the store's own routing sends ASKING first, service/storage/store.py); the commit
script cannot run anywhere while the slot's keys are split (TRYAGAIN: see
TRYAGAIN_PAUSE_S there), so it waits a little and at worst answers 503,
never a 500. Asserted: only 200 and 503 ``unavailable``; 503s only while the
slot is migrating (plus MIGRATION_MARGIN_S); every accepted move in the
replay once, in order; the match's keys on the new node and the match
playing on; the stream got every event once, in order.
"""

import threading
import time
import uuid

import pytest
import redis

from bench.redis_topologies import wait_for
from service.live.feeds import Subscriber
from service.live.hub import hub_of
from service.storage.keys import match_key
from tests.service.conftest import make_app
from tests.service.helpers import bearer, create

# Left out by `make test-fast` (-m "not slow"): starts a Redis Cluster or Sentinel.
pytestmark = pytest.mark.slow

STEP_PAUSE_S = 0.3  # between two migration steps: moves are posted meanwhile
MIGRATION_MARGIN_S = 3.0  # a 503 may come this long after the slot is handed over
MOVES_AFTER = 3  # accepted after the migration: the match plays on


@pytest.fixture
def cluster_app(redis_cluster, queue_server):
    wait_for(redis_cluster.is_ready, 30, "the cluster is not ready")
    # Rate limits on (never reached): a read then counts its token's window
    # and loads the match in one routed round trip (Store.load_counted), the
    # store's own routing, which must follow ASK as redis-py's does.
    app = make_app(
        redis_cluster.url, REDIS_MODE="cluster", RQ_REDIS_URL=queue_server.url, RATE_LIMIT=1_000_000
    )
    yield app
    app.extensions["tabula"].close()


class Poster(threading.Thread):
    """Posts moves of both seats in turn (a 503 sent again with the same
    Idempotency-Key, as tabula_client does) until told to stop."""

    def __init__(self, app, match_id, tokens):
        super().__init__(daemon=True)
        self.client, self.match_id, self.tokens = app.test_client(), match_id, tokens
        self.accepted = []  # (version, seat, action) answered 200
        self.log = []  # (monotonic time, status, error code, method)
        self.stop = threading.Event()
        self.failure = None

    def call(self, method, path, token, body=None, key=None):
        headers = bearer(token) | ({"Idempotency-Key": key} if key else {})
        response = self.client.open(path, method=method, json=body, headers=headers)
        payload = response.get_json()
        self.log.append(
            (
                time.monotonic(),
                response.status_code,
                payload.get("error") if response.status_code >= 400 else None,
                method,
            )
        )
        return response.status_code, payload

    def run(self):
        try:
            while not self.stop.is_set():
                self.play_one()
        except Exception as exc:  # noqa: BLE001  (reported by the test)
            self.failure = exc

    def play_one(self):
        base = f"/v1/matches/{self.match_id}"
        for seat, token in enumerate(self.tokens):
            status, listed = self.call("GET", f"{base}/actions", token)
            if status == 503:
                time.sleep(0.05)
                return
            assert status == 200, (status, listed)
            if not listed["actions"]:
                continue
            action, key = listed["actions"][0], str(uuid.uuid4())
            while not self.stop.is_set():
                status, answer = self.call(
                    "POST", f"{base}/actions", token, {"action": action, "version": listed["version"]}, key
                )
                if status != 503:
                    break
                time.sleep(0.05)
            else:
                return
            assert status == 200, (status, answer)
            self.accepted.append((answer["version"], seat, action))
            return

    def wait_for_moves(self, count, timeout=30):
        wait_for(
            lambda: len(self.accepted) >= count or self.failure is not None,
            timeout,
            f"fewer than {count} moves accepted",
        )
        assert self.failure is None, self.failure


def _node(port):
    return redis.Redis(port=port, socket_timeout=10)


def _migrate(slot, source, target, primaries, first):
    """Move ``slot`` from ``source`` to ``target`` key by key (``first``
    first: reads of it then follow ASK), pausing between steps; returns
    (started, ended) monotonic times."""
    source_id = _node(source).execute_command("CLUSTER", "MYID").decode()
    target_id = _node(target).execute_command("CLUSTER", "MYID").decode()
    started = time.monotonic()
    _node(target).execute_command("CLUSTER", "SETSLOT", slot, "IMPORTING", source_id)
    _node(source).execute_command("CLUSTER", "SETSLOT", slot, "MIGRATING", target_id)
    time.sleep(STEP_PAUSE_S)
    _node(source).execute_command("MIGRATE", "127.0.0.1", target, "", 0, 5000, "KEYS", first)
    time.sleep(STEP_PAUSE_S)
    while keys := _node(source).execute_command("CLUSTER", "GETKEYSINSLOT", slot, 1):
        _node(source).execute_command("MIGRATE", "127.0.0.1", target, "", 0, 5000, "KEYS", *keys)
        time.sleep(STEP_PAUSE_S)
    for port in (target, source, *[p for p in primaries if p not in (source, target)]):
        _node(port).execute_command("CLUSTER", "SETSLOT", slot, "NODE", target_id)
    return started, time.monotonic()


def test_a_busy_matchs_slot_migrates_while_moves_are_posted(redis_cluster, cluster_app):
    services = cluster_app.extensions["tabula"]
    client = cluster_app.test_client()
    created = create(client)
    match_id, tokens = created["match"]["id"], [created["tokens"]["0"], created["tokens"]["1"]]
    before = services.store.load_doc(match_id).get("seq", 0)
    hub = hub_of(services)
    sub = Subscriber(viewer=None, sse=False, cursor=before, limit=10_000)
    hub.note_seq(hub.register(match_id, sub), before)
    poster = Poster(cluster_app, match_id, tokens)
    try:
        slot = services.redis.keyslot(match_key(match_id))
        source = services.redis.get_node_from_key(match_key(match_id)).port
        primaries = [c.connection_pool.connection_kwargs["port"] for c in redis_cluster.primaries()]
        target = next(p for p in primaries if p != source)
        poster.start()
        poster.wait_for_moves(3)
        started, ended = _migrate(slot, source, target, primaries, match_key(match_id))
        during = len(poster.accepted)
        poster.wait_for_moves(during + MOVES_AFTER)
        # The stream: every event once, in order, up to the last one stored.
        poster.stop.set()
        poster.join(30)
        last = services.store.load_doc(match_id)["seq"]
        deadline = time.monotonic() + 10
        while (not sub.queue or sub.queue[-1][0] < last) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert [item[0] for item in sub.queue] == list(range(before + 1, last + 1))
    finally:
        poster.stop.set()
        poster.join(30)
        hub.unregister(match_id, sub)
    assert poster.failure is None, poster.failure

    statuses = {(status, error) for _, status, error, _ in poster.log}
    assert statuses <= {(200, None), (503, "unavailable")}, statuses
    unavailable = [at for at, status, _, _ in poster.log if status == 503]
    # Reads are single-key commands: they follow ASK and are never refused.
    assert not [at for at, status, _, method in poster.log if status == 503 and method == "GET"]
    print(
        f"\nmigration {ended - started:.2f} s, {len(poster.log)} requests, {len(unavailable)} answered 503, "
        f"moves accepted {len(poster.accepted)} ({during} before the slot was handed over)"
    )
    assert all(started <= at <= ended + MIGRATION_MARGIN_S for at in unavailable), (
        started,
        ended,
        unavailable,
    )
    # A commit is answered 503 only after about a second of TRYAGAIN pauses
    # (an ASK is followed at once): a handful over the whole migration.
    assert len(unavailable) <= (ended - started) / 1.0 + 2, len(unavailable)
    reads_mid_migration = [
        at
        for at, status, _, method in poster.log
        if status == 200 and method == "GET" and started < at < ended
    ]
    assert reads_mid_migration, "no read was answered while the slot migrated"

    # Every accepted move once, in order, and nothing else.
    replay = services.store.read_actions(match_id)
    assert [(entry["seat"], entry["action"]) for entry in replay] == [(s, a) for _, s, a in poster.accepted]
    versions = [v for v, _, _ in poster.accepted]
    assert versions == sorted(set(versions))

    # The match lives on the target now, and nowhere else.
    assert services.redis.get_node_from_key(match_key(match_id)).port == target
    assert _node(target).exists(match_key(match_id))  # (the source answers MOVED for it now)
    assert not _node(source).execute_command("CLUSTER", "COUNTKEYSINSLOT", slot)
