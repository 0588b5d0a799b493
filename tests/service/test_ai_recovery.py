"""AI decisions survive a queue that loses or duplicates jobs.

A failover of the queue's primary can lose an enqueue, keep a worker's pop
of a job but not its "started" mark, or leave a job started by a worker
name that died with its connection; the sweeper then enqueues the decision
again. So a decision may have two jobs: both must apply it once.
"""

import threading
import time

from rq.job import Job, JobStatus

from service.play import ai
from service.worker import ai_jobs

from .conftest import run_ai_jobs
from .test_ai_jobs import _human_vs_ai


def _stall(app):
    return app.extensions["tabula"], app.test_client()


def _ai_to_move(services, client):
    """A human-vs-AI match where the AI decides now: ``(match id, version)``."""
    match_id = _human_vs_ai(client, services, human_first=False)["match"]["id"]
    return match_id, services.store.load_doc(match_id)["version"]


def _applied_once(services, match_id):
    """The match's version counts each replayed action exactly once."""
    doc = services.store.load_doc(match_id)
    return doc["version"] == len(services.store.read_actions(match_id))


def test_a_second_job_for_one_decision_does_nothing(stall_app):
    services, client = _stall(stall_app)
    match_id, version = _ai_to_move(services, client)
    services.queue.enqueue(
        "service.worker.ai_jobs.play_ai_turn", match_id, version, job_id="second-job", result_ttl=600
    )
    assert services.queue.count == 2  # the scheduled job, then the duplicate

    run_ai_jobs(services)

    doc = services.store.load_doc(match_id)
    assert doc["version"] > version and doc["to_act"] in ([0], [])
    assert _applied_once(services, match_id)
    duplicate = Job.fetch("second-job", connection=services.rq_redis, serializer=services.queue.serializer)
    assert duplicate.return_value() == "stale"


def test_two_jobs_racing_for_one_decision_apply_it_once(stall_app):
    services, client = _stall(stall_app)
    match_id, version = _ai_to_move(services, client)
    ai_jobs.bind(services)
    start = threading.Barrier(2)
    outcomes = []

    def play():
        start.wait(10)
        outcomes.append(ai_jobs.play_ai_turn(match_id, version))

    threads = [threading.Thread(target=play) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)

    assert outcomes.count("played") == 1, outcomes
    assert set(outcomes) - {"played"} <= {"stale", "version_conflict"}
    assert services.store.load_doc(match_id)["version"] > version
    assert _applied_once(services, match_id)


def test_a_job_marked_queued_but_out_of_the_queue_is_replaced(stall_app):
    """The failover kept a worker's pop of the job but not its "started" mark."""
    services, client = _stall(stall_app)
    match_id, version = _ai_to_move(services, client)
    services.rq_redis.lrem(services.queue.key, 0, ai.job_id(match_id, version))
    job = Job.fetch(
        ai.job_id(match_id, version), connection=services.rq_redis, serializer=services.queue.serializer
    )
    assert job.get_status() == JobStatus.QUEUED and services.queue.count == 0
    time.sleep(0.01)

    assert ai.recover_if_stalled(services, services.store.load_doc(match_id))

    assert services.queue.job_ids == [ai.job_id(match_id, version)]
    run_ai_jobs(services)
    assert services.store.load_doc(match_id)["version"] > version


def test_a_job_waiting_in_the_queue_is_left_alone(stall_app):
    services, client = _stall(stall_app)
    match_id, version = _ai_to_move(services, client)
    time.sleep(0.01)
    assert not ai.recover_if_stalled(services, services.store.load_doc(match_id))
    assert services.queue.job_ids == [ai.job_id(match_id, version)]


def test_a_recovered_decision_goes_to_the_front_of_the_queue(stall_app):
    services, client = _stall(stall_app)
    waiting, _ = _ai_to_move(services, client)
    lost, version = _ai_to_move(services, client)
    services.queue.empty()  # both jobs gone (the enqueues were never replicated)...
    ai.schedule(services, services.store.load_doc(waiting))  # ...one enqueued again since
    assert services.queue.job_ids == [ai.job_id(waiting, 0)]
    time.sleep(0.01)

    assert ai.recover_if_stalled(services, services.store.load_doc(lost))

    assert services.queue.job_ids == [ai.job_id(lost, version), ai.job_id(waiting, 0)]
