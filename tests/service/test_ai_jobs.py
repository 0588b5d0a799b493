"""AI seats: jobs chained through RQ, duplicates, stall recovery, resignation."""

import time

import engine
from engine.runner import replay
from service.play import ai
from service.worker import ai_jobs, sweeper

from .conftest import make_app, run_ai_jobs
from .helpers import bearer, create


def _human_vs_ai(client, services, human_first=True):
    """A 2-seat match where the human (seat 0) has (or has not) the first decision.

    Matches made while searching a seed are deleted with their AI jobs.
    """
    for seed in range(1, 50):
        created = create(
            client, seats=[{"kind": "human", "name": "H"}, {"kind": "ai", "level": "random"}], seed=seed
        )
        if (created["match"]["to_act"] == [0]) == human_first:
            services.queue.empty()
            doc = services.store.load(created["match"]["id"]).doc
            ai.schedule(services, doc)
            return created
    raise AssertionError("no seed gave the wanted first player")


def test_ai_moves_after_the_human_until_the_human_decides_again(client, services):
    created = _human_vs_ai(client, services)
    match_id, token = created["match"]["id"], created["tokens"]["0"]
    # Play the human's decisions until the AI has one pending.
    while True:
        match = client.get(f"/v1/matches/{match_id}").get_json()
        if match["to_act"] == [1]:
            break
        listed = client.get(f"/v1/matches/{match_id}/actions", headers=bearer(token)).get_json()
        end = [a for a in listed["actions"] if a["type"] == "end_turn"]
        action = end[0] if end else listed["actions"][0]
        client.post(f"/v1/matches/{match_id}/actions", headers=bearer(token), json={"action": action})
    version = match["version"]
    assert services.queue.count == 1
    assert services.queue.job_ids == [ai.job_id(match_id, version)]
    run_ai_jobs(services)
    after = client.get(f"/v1/matches/{match_id}").get_json()
    assert after["version"] > version
    assert after["to_act"] == [0] or after["status"] == "finished"
    assert services.queue.count == 0


def test_duplicate_enqueue_is_a_no_op(client, services):
    created = _human_vs_ai(client, services, human_first=False)
    doc = services.store.load(created["match"]["id"]).doc
    assert services.queue.count == 1  # enqueued at creation
    assert ai.schedule(services, doc) is None
    assert services.queue.count == 1


def test_lost_job_is_re_enqueued_on_read_and_by_the_sweep(redis_server):
    app = make_app(redis_server.url, AI_STALL_S=0)
    services = app.extensions["tabula"]
    services.redis.flushdb()
    client = app.test_client()
    created = _human_vs_ai(client, services, human_first=False)
    match_id = created["match"]["id"]
    services.queue.empty()  # the job is lost (a crashed Redis list, a purge...)
    assert services.queue.count == 0
    time.sleep(0.01)
    client.get(f"/v1/matches/{match_id}")
    assert services.queue.count == 1
    services.queue.empty()
    assert sweeper.sweep(services) == (1, 0)
    assert services.queue.count == 1
    run_ai_jobs(services)
    assert client.get(f"/v1/matches/{match_id}").get_json()["to_act"] == [0]


def test_stale_job_does_nothing(client, services):
    created = _human_vs_ai(client, services, human_first=False)
    match_id = created["match"]["id"]
    ai_jobs.bind(services)
    assert ai_jobs.play_ai_turn(match_id, 99) == "stale"
    assert client.get(f"/v1/matches/{match_id}").get_json()["version"] == 0


def test_resigned_match_is_played_out_by_ai_and_replays(client, services):
    created = _human_vs_ai(client, services)
    match_id = created["match"]["id"]
    client.post(f"/v1/matches/{match_id}/resign", headers=bearer(created["tokens"]["0"]))
    run_ai_jobs(services)
    match = client.get(f"/v1/matches/{match_id}").get_json()
    assert match["status"] == "finished", match["to_act"]
    result = match["result"]
    assert result["resigned"] == [0]
    assert 0 not in result["winners"]
    rep = client.get(f"/v1/matches/{match_id}/replay").get_json()
    game = engine.get_game(rep["game"])
    state, _ = replay(
        game,
        len(rep["seats"]),
        rep["options"],
        rep["seed"],
        [(a["seat"], a["action"]) for a in rep["actions"]],
    )
    outcome = game.outcome(state)
    assert outcome["winners"] == result["engine_winners"]
    assert outcome["scores"] == result["scores"]


def test_failed_job_is_replaced_once_the_decision_stalls(redis_server):
    from rq.job import Job

    app = make_app(redis_server.url, AI_STALL_S=0)
    services = app.extensions["tabula"]
    services.redis.flushdb()
    client = app.test_client()
    created = _human_vs_ai(client, services, human_first=False)
    match_id = created["match"]["id"]
    job = Job.fetch(
        ai.job_id(match_id, 0), connection=services.rq_redis, serializer=services.queue.serializer
    )
    services.queue.remove(job)
    job.set_status("failed")  # as if the worker crashed while playing it
    assert services.queue.count == 0
    client.get(f"/v1/matches/{match_id}")
    assert services.queue.job_ids == [ai.job_id(match_id, 0)]
    run_ai_jobs(services)
    assert client.get(f"/v1/matches/{match_id}").get_json()["version"] > 0
