"""Failover under load: kill -9 the cluster primary that holds a busy match
while clients post moves (each its own match and token, an Idempotency-Key
on every post, a 503 retried with the same key, as tabula_client does) and a
real RQ worker plays the AI seats, through a real gunicorn.

A private cluster (node timeout 1 s, so a replica takes over by itself
within a few seconds) and queue: the session's shared servers stay intact.

Asserted: only 2xx, 409 and 503 ``unavailable`` (never a 500, never a
request past the client's timeout); the killed shard's match answers 2xx
again within RECOVERY_BOUND_S; every match finishes; no version applied
twice. With REDIS_WAIT_REPLICAS=1 every accepted move is in the replay;
without, whether one was lost is printed, not asserted (redis replication
is asynchronous: that is the guarantee WAIT buys).

The queue's primary under Sentinel: test_queue_failover.py.

    .venv/bin/python -m pytest tests/cluster/test_failover_chaos.py -q -s
"""

import json
import time
from collections import Counter

import pytest
import redis

from bench.redis_topologies import ClusterServers
from launcher.redis_process import RedisProcess
from service.storage.keys import match_key
from tests.service.live import LiveServer, RqWorker

from .chaos import HTTP_TIMEOUT_S, Player, replay_check, wait_finished

# Left out by `make test-fast` (-m "not slow"): starts a Redis Cluster or Sentinel.
pytestmark = pytest.mark.slow

CLIENTS = 3
MOVES_PER_CLIENT = 8  # then the human resigns and the AI finishes the match
RECOVERY_BOUND_S = 15
FINISH_BOUND_S = 40
RESTART_AFTER_S = 3


@pytest.fixture(params=[1, 0], ids=["wait1", "nowait"])
def chaos_stack(request, tmp_path):
    wait = request.param
    with ClusterServers(tmp_path / "cluster", node_timeout_ms=1000) as cluster, RedisProcess() as queue:
        env = {
            "REDIS_MODE": "cluster",
            "RQ_REDIS_URL": queue.url,
            "REDIS_WAIT_REPLICAS": str(wait),
            "REDIS_WAIT_TIMEOUT_MS": "2000",
        }
        worker = RqWorker(cluster.url, log=tmp_path / "worker.log")
        worker.env.update(env)
        with worker, LiveServer(cluster.url, threads=8, env=env, log=tmp_path / "gunicorn.log") as server:
            yield wait, cluster, server


def _create(server):
    status, _, raw = server.request(
        "POST",
        "/v1/matches",
        {"game": "anno1503", "seats": [{"kind": "human", "name": "H"}, {"kind": "ai", "level": "random"}]},
    )
    assert status == 201, raw
    created = json.loads(raw)
    return created["match"]["id"], created["tokens"]["0"]


def _replicated(cluster, match_id):
    """Wait until the match's shard has a replica holding the match as created.

    Replication is one ordered stream: once a write made after the creation,
    in the same slot, is acknowledged by a replica (WAIT), so is the match.
    Without it, under REDIS_WAIT_REPLICAS=0 on a loaded machine, a kill just
    after the start lost the whole match (its creation not yet replicated:
    every later request 404), which is not the failover this test measures.
    """
    marker = f"test-replicated:{{{match_id}}}"  # the match key's hash tag: same slot
    # One connection to the slot's primary: WAIT counts that connection's writes.
    primary = redis.Redis(host="127.0.0.1", port=_primary_port(cluster, match_id))
    try:
        primary.set(marker, 1)
        replicas = primary.wait(1, 10_000)
        assert replicas >= 1, f"no replica of {match_id}'s shard acknowledged the match in 10 s"
    finally:
        primary.close()


def _primary_port(cluster, match_id):
    return cluster.primary_port_of(match_key(match_id))


def test_failover_under_load(chaos_stack):
    wait, cluster, server = chaos_stack
    log = []
    started = time.monotonic()
    players = [
        Player(server, *_create(server), log, MOVES_PER_CLIENT, FINISH_BOUND_S) for _ in range(CLIENTS)
    ]
    _replicated(cluster, players[0].match_id)
    for player in players:
        player.start()
    # Kill once the game is under way: a few moves accepted on the busy match.
    busy = players[0]
    deadline = time.monotonic() + 20
    while len(busy.accepted) < 3 and time.monotonic() < deadline:
        time.sleep(0.05)
    port = _primary_port(cluster, busy.match_id)
    killed_at = time.monotonic()
    cluster.by_port[port].kill()
    # The operator's part: the failed node comes back (it rejoins as a
    # replica of the promoted one), so the shard has a replica for WAIT again.
    time.sleep(RESTART_AFTER_S)
    cluster.spawn_node(port)
    for player in players:
        player.join(FINISH_BOUND_S + HTTP_TIMEOUT_S)
    done = time.monotonic()
    unfinished = wait_finished(server, [p.match_id for p in players], FINISH_BOUND_S)

    statuses = Counter(entry[1] for entry in log)
    recovered = [
        entry[3] + entry[2]
        for entry in log
        if entry[0] == busy.match_id and entry[3] > killed_at and entry[1] in (200, 201)
    ]
    recovery_s = (min(recovered) - killed_at) if recovered else None
    slowest = max(entry[2] for entry in log)
    results = [replay_check(server, p.match_id, p.accepted) for p in players] if not unfinished else []
    lost = sum(len(r[0]) for r in results)
    # The version counts every action once, plus the human's resignation.
    doubled = sum(1 for r in results if r[1] != r[2] + r[3])
    versions = [v for p in players for v, _ in p.accepted]
    print(
        f"\n[failover chaos] REDIS_WAIT_REPLICAS={wait}: killed primary :{port}; recovery "
        f"{recovery_s if recovery_s is None else round(recovery_s, 2)} s; requests by status "
        f"{dict(sorted(statuses.items(), key=str))}; slowest request {slowest:.2f} s; moves accepted "
        f"{len(versions)}, lost {lost}, doubled {doubled}"
    )

    print("non-2xx:", Counter((e[1], e[4], e[5].rsplit("/", 1)[-1]) for e in log if e[1] not in (200, 201)))
    print(
        "phases: kill at",
        round(killed_at - started, 1),
        "s, clients done",
        round(done - started, 1),
        "s, all finished",
        round(time.monotonic() - started, 1),
        "s",
    )
    assert not any(p.is_alive() for p in players), "a client is still waiting"
    # No 401 either: a resign retried after a 503 gets its first answer.
    assert set(statuses) <= {200, 201, 409, 503}, statuses
    # With WAIT, the promoted primary has no replica until the killed node is
    # back: its moves are refused before writing (not_enough_replicas).
    assert {e[4] for e in log if e[1] == 503} <= (
        {"unavailable", "not_enough_replicas"} if wait else {"unavailable"}
    )
    assert slowest < HTTP_TIMEOUT_S
    assert recovery_s is not None and recovery_s < RECOVERY_BOUND_S
    assert not unfinished, f"matches that did not finish: {unfinished}"
    assert doubled == 0, "a match's version is not its number of actions"
    for player in players:
        player_versions = [v for v, _ in player.accepted]
        assert len(player_versions) == len(set(player_versions)), "a version accepted twice"
    if wait:
        assert lost == 0, "an acknowledged move was lost with REDIS_WAIT_REPLICAS=1"
