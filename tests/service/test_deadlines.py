"""The deadline index: a sweep costs O(due), and no match is out of reach.

Before: the stalled-AI sweep read the 1,000 newest active matches, so a
stall in an older one was never recovered until someone read that match.
Workers shared one heartbeat key, so a dead worker went unnoticed by
/readyz, and a job it held counted as in hand for a whole minute.
"""

import time

import orjson
import pytest
import redis
from rq.job import Job, JobStatus

from service.play import ai
from service.storage.keys import deadline_shard_keys
from service.worker import sweeper

from .conftest import make_app
from .helpers import create, humans
from .test_ai_jobs import _human_vs_ai

# Left out by `make test-fast` (-m "not slow"): seconds each: replica waits.
pytestmark = pytest.mark.slow


def _count_reads(services, monkeypatch):
    reads = []
    load_doc = services.store.load_doc
    monkeypatch.setattr(
        services.store, "load_doc", lambda match_id: reads.append(match_id) or load_doc(match_id)
    )
    return reads


def test_a_stall_behind_a_thousand_newer_matches_is_recovered(stall_app, monkeypatch):
    services, client = stall_app.extensions["tabula"], stall_app.test_client()
    stalled = _human_vs_ai(client, services, human_first=False)["match"]["id"]
    services.queue.empty()  # its job is lost
    for _ in range(1000):  # newer active matches, humans only: nothing due
        create(client, seats=humans(2), seed=None)
    assert services.redis.zcard("lobby:active:*") >= 1001
    reads = _count_reads(services, monkeypatch)
    time.sleep(0.01)
    assert sweeper.sweep(services) == (1, 0)
    assert reads == [stalled]  # O(due): the one due match, not 1,001 active ones
    assert services.queue.count == 1


def test_a_visit_moves_the_entry_to_the_next_due_time(stall_app, monkeypatch):
    services, client = stall_app.extensions["tabula"], stall_app.test_client()
    services.config["AI_STALL_S"] = 30
    match_id = _human_vs_ai(client, services, human_first=False)["match"]["id"]
    services.queue.empty()  # its job is lost
    reads = _count_reads(services, monkeypatch)
    now = int(time.time() * 1000)
    assert sweeper.sweep(services, now) == (0, 0) and reads == []  # not due for 30 s
    assert sweeper.sweep(services, now + 31_000) == (1, 0) and reads == [match_id]
    # Visited and acted on: not due again before one more stall period.
    assert sweeper.sweep(services, now + 32_000) == (0, 0) and reads == [match_id]


def test_a_finished_match_leaves_the_index(stall_app):
    services, client = stall_app.extensions["tabula"], stall_app.test_client()
    created = _human_vs_ai(client, services, human_first=False)
    match_id = created["match"]["id"]
    doc = services.store.load_doc(match_id)
    doc["status"] = "finished"
    services.redis.hset(f"match:{{{match_id}}}", "doc", orjson.dumps(doc))
    sweeper.sweep(services)
    assert services.store.due_matches(int(time.time() * 1000) + 10**9, 10) == []


def test_the_newest_version_wins_a_race_for_the_entry(stall_app):
    store = stall_app.extensions["tabula"].store
    assert store.set_deadline("m1", 5, 1000)
    # A sweeper that read version 4 must not move what version 5 wrote...
    assert not store.set_deadline("m1", 4, None)
    assert store.due_matches(1000, 10) == ["m1"]
    # ...and a newer version may move or clear it.
    assert store.set_deadline("m1", 6, 5000)
    assert store.due_matches(1000, 10) == [] and store.due_matches(5000, 10) == ["m1"]
    assert store.set_deadline("m1", 6, None)
    assert store.due_matches(10**12, 10) == []


def test_backfill_puts_older_active_matches_in_the_index_once(stall_app):
    services, client = stall_app.extensions["tabula"], stall_app.test_client()
    # Matches stored before the index: none of their entries is there.
    ids = [create(client, seats=humans(2), seed=None)["match"]["id"] for _ in range(3)]
    for key in services.redis.scan_iter("deadlines:*"):  # every node's, on a cluster
        services.redis.delete(key)
    assert sweeper.backfill_deadlines(services) == 3
    assert sorted(services.store.due_matches(10**13, 10)) == sorted(ids)
    assert sweeper.backfill_deadlines(services) == 0


def _started_by(services, match_id, worker_name):
    doc = services.store.load_doc(match_id)
    job = Job.fetch(
        ai.job_id(match_id, doc["version"]),
        connection=services.rq_redis,
        serializer=services.queue.serializer,
    )
    job.worker_name = worker_name
    job.set_status(JobStatus.STARTED)
    job.save()
    services.queue.remove(job)  # a started job has left the queue
    return doc


def test_a_job_held_by_a_dead_worker_is_replaced(stall_app):
    services, client = stall_app.extensions["tabula"], stall_app.test_client()
    match_id = _human_vs_ai(client, services, human_first=False)["match"]["id"]
    ai.beat(services, "alive-worker")
    doc = _started_by(services, match_id, "alive-worker")
    time.sleep(0.01)
    assert not ai.recover_if_stalled(services, doc)  # a live worker has it in hand
    services.rq_redis.zadd(ai.HEARTBEATS_KEY, {"alive-worker": time.time() - 6})  # it died
    assert ai.recover_if_stalled(services, doc)
    assert services.queue.count == 1


def test_readyz_counts_live_workers(redis_server):
    redis.Redis.from_url(redis_server.url).flushdb()
    app = make_app(redis_server.url, READY_MIN_WORKERS=2, WORKER_SEEN_S=5)
    services, client = app.extensions["tabula"], app.test_client()
    ai.beat(services, "w1")
    ai.beat(services, "w2")
    ready = client.get("/readyz")
    assert ready.status_code == 200 and ready.get_json()["workers_alive"] == 2
    services.rq_redis.zadd(ai.HEARTBEATS_KEY, {"w2": time.time() - 6})  # w2 was killed
    ready = client.get("/readyz")
    assert ready.status_code == 503
    assert ready.get_json()["workers_alive"] == 1
    assert ready.get_json()["checks"]["worker"] == "1 of 2 workers alive"
    ai.forget(services, "w1")
    assert client.get("/readyz").get_json()["workers_alive"] == 0


def test_an_entry_of_the_earlier_layout_moves_to_the_matchs_shard_when_visited(stall_app):
    """Entries written before the shards were spread over the slots
    (``deadlines:{0}`` .. ``{15}``) are swept like the others; a visit moves
    each to its match's shard (service/storage/deadline_index.py)."""
    services, client = stall_app.extensions["tabula"], stall_app.test_client()
    services.config["AI_STALL_S"] = 30
    match_id = _human_vs_ai(client, services, human_first=False)["match"]["id"]
    store = services.store
    tag = store.deadline_shard(match_id)[0]
    version = store.load_doc(match_id)["version"]
    entries, versions = deadline_shard_keys(tag)
    services.redis.zrem(entries, match_id)
    services.redis.hdel(versions, match_id)
    services.redis.zadd(deadline_shard_keys("3")[0], {match_id: 1000})  # as the old layout wrote it
    services.redis.hset(deadline_shard_keys("3")[1], match_id, version)
    now = int(time.time() * 1000)
    assert store.due_entries(now, 10) == [(match_id, "3")]
    sweeper.sweep(services, now)
    assert services.redis.zscore(deadline_shard_keys("3")[0], match_id) is None
    assert store.due_entries(now + 31_000, 10) == [(match_id, tag)]
