"""Failover of the AI queue: kill -9 the queue's primary under Sentinel while
AI-only matches play (and a few clients post moves against an AI seat),
through a real gunicorn and a real RQ worker.

Matches live on a standalone redis-server, the queue (RQ_REDIS_URL) on a
private Sentinel service (a primary, a replica, 3 sentinels: the replica is
promoted within a few seconds). An AI decision can be lost with the killed
primary: its job enqueued there and not replicated, or replicated as queued
while the worker's pop of it was, or taken by a worker whose RQ name died
with the connection. The worker reconnects through Sentinel to the promoted
replica, and the sweeper re-enqueues every AI decision that made no
progress for AI_STALL_S (service/play/ai.py), so:

Asserted: every match finishes within FINISH_BOUND_S of the kill; the API
answers only 2xx, 409 and 503 ``unavailable`` (never a 500, no request past
the client's timeout, no 401: a resign retried after a 503 gets its first
answer); no version applied twice (a match's version is its number of
actions plus its resignations) and every accepted move is in the replay.

    .venv/bin/python -m pytest tests/cluster/test_queue_failover.py -q -s
"""

import json
import threading
import time
from collections import Counter

import pytest

from bench.redis_topologies import SentinelServers, node_client
from launcher.redis_process import RedisProcess
from tests.service.live import LiveServer, RqWorker

from .chaos import HTTP_TIMEOUT_S, Player, replay_check, wait_finished

# Left out by `make test-fast` (-m "not slow"): starts a Redis Cluster or Sentinel.
pytestmark = pytest.mark.slow

AI_MATCHES = 8
HUMAN_MATCHES = 2
MOVES_PER_CLIENT = 6
AI_STALL_S = 2
# Every match finishes within this of the kill (their play itself takes
# 10-25 s on a loaded 2-core machine; a decision left stuck waits 60 s).
FINISH_BOUND_S = 50
PLAYER_BOUND_S = 40
# The kill comes once every AI-only match has played this many actions
# (early: most of each match is played after it).
PLAYED_BEFORE_KILL = 1


@pytest.fixture
def queue_chaos_stack(tmp_path):
    with RedisProcess() as data, SentinelServers(tmp_path / "sentinel") as queue:
        # Short AI jobs (a few decisions each, then the next is enqueued):
        # the queue is busy with enqueues, pops and "started" marks when
        # its primary dies.
        env = {
            "RQ_REDIS_URL": queue.url,
            "AI_STALL_S": str(AI_STALL_S),
            "SWEEP_S": "0.5",
            "AI_CHAIN_BUDGET_S": "0.02",
        }
        worker = RqWorker(data.url, log=tmp_path / "worker.log")
        worker.env.update(env)
        with worker, LiveServer(data.url, threads=8, env=env, log=tmp_path / "gunicorn.log") as server:
            yield queue, server


def _create(server, seats):
    status, _, raw = server.request("POST", "/v1/matches", {"game": "anno1503", "seats": seats})
    assert status == 201, raw
    created = json.loads(raw)
    return created["match"]["id"], (created.get("tokens") or {}).get("0")


def _versions(server, match_ids):
    out = {}
    for match_id in match_ids:
        status, _, raw = server.request("GET", f"/v1/matches/{match_id}", timeout=HTTP_TIMEOUT_S)
        if status == 200:
            body = json.loads(raw)
            out[match_id] = (body["version"], body["status"])
    return out


class Watcher(threading.Thread):
    """Reads every match as a spectator until stopped, logging each answer
    (the API must never answer 500 while the queue fails over)."""

    def __init__(self, server, match_ids, log):
        super().__init__(daemon=True)
        self.server, self.match_ids, self.log = server, match_ids, log
        self.stop = threading.Event()

    def run(self):
        while not self.stop.is_set():
            for match_id in self.match_ids:
                started = time.monotonic()
                path = f"/v1/matches/{match_id}"
                try:
                    status, _, raw = self.server.request("GET", path, timeout=HTTP_TIMEOUT_S)
                except OSError as exc:
                    self.log.append((match_id, "error", time.monotonic() - started, started, repr(exc), path))
                    continue
                error = json.loads(raw).get("error") if status >= 400 else None
                self.log.append((match_id, status, time.monotonic() - started, started, error, path))
            self.stop.wait(0.2)


def _wait_for_play(server, match_ids, bound_s=30):
    deadline = time.monotonic() + bound_s
    while time.monotonic() < deadline:
        seen = _versions(server, match_ids)
        if all(seen.get(m, (0, ""))[0] >= PLAYED_BEFORE_KILL for m in match_ids):
            return seen
        time.sleep(0.05)
    raise AssertionError(f"the AI matches did not start playing: {_versions(server, match_ids)}")


def _promoted(queue, bound_s=20):
    """Seconds until a sentinel names a new primary (the killed one's replica)."""
    started = time.monotonic()
    sentinel = node_client(queue.sentinel_ports[0])
    while time.monotonic() - started < bound_s:
        try:
            address = sentinel.sentinel_get_master_addr_by_name("tabula")
            if address and int(address[1]) == queue.replica_port:
                return time.monotonic() - started
        except OSError:
            pass
        time.sleep(0.05)
    return None


def test_ai_matches_finish_after_the_queue_primary_is_killed(queue_chaos_stack, tmp_path):
    queue, server = queue_chaos_stack
    log = []
    ai_ids = [_create(server, [{"kind": "ai", "level": "medium"}] * 2)[0] for _ in range(AI_MATCHES)]
    players = [
        Player(
            server,
            *_create(server, [{"kind": "human", "name": "H"}, {"kind": "ai", "level": "medium"}]),
            log,
            MOVES_PER_CLIENT,
            PLAYER_BOUND_S,
        )
        for _ in range(HUMAN_MATCHES)
    ]
    watcher = Watcher(server, ai_ids, log)
    watcher.start()
    for player in players:
        player.start()
    before = _wait_for_play(server, ai_ids)

    killed_at = time.monotonic()
    queue.by_port[queue.primary_port].kill()
    promoted_s = _promoted(queue)
    for player in players:
        player.join(PLAYER_BOUND_S + HTTP_TIMEOUT_S)
    match_ids = ai_ids + [p.match_id for p in players]
    unfinished = wait_finished(server, match_ids, max(1.0, FINISH_BOUND_S - (time.monotonic() - killed_at)))
    finished_s = time.monotonic() - killed_at
    watcher.stop.set()
    watcher.join(HTTP_TIMEOUT_S + 1)

    accepted = {p.match_id: p.accepted for p in players}
    results = {m: replay_check(server, m, accepted.get(m, ())) for m in match_ids if m not in unfinished}
    lost = sum(len(r[0]) for r in results.values())
    doubled = [m for m, r in results.items() if r[1] != r[2] + r[3]]
    statuses = Counter(entry[1] for entry in log)
    slowest = max(entry[2] for entry in log)
    recovered = (tmp_path / "worker.log").read_text().count("re-enqueueing stalled AI decision")
    print(
        f"\n[queue failover] killed the queue primary :{queue.primary_port} with AI matches at "
        f"versions {sorted(v for v, _ in before.values())}; replica promoted after "
        f"{promoted_s if promoted_s is None else round(promoted_s, 2)} s; all finished "
        f"{round(finished_s, 1)} s after the kill; unfinished {len(unfinished)}; requests by status "
        f"{dict(sorted(statuses.items(), key=str))}; slowest {slowest:.2f} s; moves accepted "
        f"{sum(len(a) for a in accepted.values())}, lost {lost}, doubled {len(doubled)}; "
        f"resigns answered {[p.resigned for p in players]}; AI decisions re-enqueued {recovered}"
    )

    assert promoted_s is not None, "Sentinel promoted no replica"
    assert not any(p.is_alive() for p in players), "a client is still waiting"
    assert not unfinished, f"matches that did not finish: {_versions(server, unfinished)}"
    assert finished_s < FINISH_BOUND_S + 1
    assert set(statuses) <= {200, 201, 409, 503}, statuses
    assert {e[4] for e in log if e[1] == 503} <= {"unavailable"}
    assert slowest < HTTP_TIMEOUT_S
    assert all(p.resigned in (200, 409) for p in players), [p.resigned for p in players]
    assert not doubled, f"a match's version is not its number of actions: {doubled}"
    assert lost == 0, "an accepted move is not in the replay"
