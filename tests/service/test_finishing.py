"""Finish steps (service/play/finishing.py): each runs at least once per
finished match, and being idempotent, takes effect exactly once, whether the
process dies between the finishing commit and the steps (the workers' sweep
completes them: here a real ``python -m service.worker``), a step raises
(retried by the sweep, the others unharmed), or the finishing request is
retried with its Idempotency-Key."""

import time

import pytest

from service.play import finishing
from service.storage.keys import FINISHING_SHARDS, finishing_shard_key
from service.worker import sweeper

from .conftest import METRICS_BASE_URL
from .helpers import bearer, create, new_rng, worker_process
from .test_accounts import account_token

SHORT_MATCH = {"game": "anno1452", "options": {"end_year": 1314, "scenario": "ottokar_a"}}


def intents(services):
    return {
        raw.decode()
        for shard in range(FINISHING_SHARDS)
        for raw in services.redis.zrange(finishing_shard_key(shard), 0, -1)
    }


def played(client):
    return client.get("/v1/accounts/Ada").get_json()["games"]


def play_to_the_finishing_move(client, ada, rated_with=None):
    """Ada (an account) and Bo (a seat token; with ``rated_with``, Bo's
    account token in a rated match) play random moves, each with an
    Idempotency-Key, up to the finishing one; returns ``(match id, its
    request, its response)``."""
    if rated_with is None:
        seats = [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}]
        body = {**SHORT_MATCH, "seats": seats, "seed": 5, "dice": "reproducible"}
    else:  # rated: fair dice, the other seat open for Bo's account
        body = {**SHORT_MATCH, "seats": [{"kind": "human", "name": "Ada"}, {"kind": "open"}], "rated": True}
    created = client.post("/v1/matches", json=body, headers=bearer(ada))
    assert created.status_code == 201, created.get_json()
    match_id = created.get_json()["match"]["id"]
    if rated_with is None:
        tokens = {0: ada, 1: created.get_json()["tokens"]["1"]}
    else:
        joined = client.post(f"/v1/matches/{match_id}/join", json={}, headers=bearer(rated_with))
        assert joined.status_code == 201, joined.get_json()
        tokens = {0: ada, 1: rated_with}
    rng = new_rng(5)
    for _ in range(2000):
        match = client.get(f"/v1/matches/{match_id}").get_json()
        seat = match["to_act"][0]
        listed = client.get(f"/v1/matches/{match_id}/actions", headers=bearer(tokens[seat])).get_json()
        request = {
            "path": f"/v1/matches/{match_id}/actions",
            "headers": {**bearer(tokens[seat]), "Idempotency-Key": f"move-{listed['version']}"},
            "json": {"action": rng.choice(listed["actions"]), "version": listed["version"]},
        }
        response = client.post(**request)
        assert response.status_code == 200, response.get_json()
        if response.get_json()["match"]["status"] == "finished":
            return match_id, request, response
    raise AssertionError("no finish")


def test_a_process_dead_after_the_commit_is_completed_by_the_workers_sweep(
    client, services, redis_server, monkeypatch
):
    ada = account_token(client, "Ada")
    # The process "dies" right after the finishing commit: no step runs.
    monkeypatch.setattr(finishing, "finish", lambda services, doc: False)
    match_id, request, response = play_to_the_finishing_move(client, ada)
    assert intents(services) == {match_id}
    assert played(client) == {}
    # A retry of the finishing request gets its answer, and runs nothing.
    retried = client.post(**request)
    assert retried.get_data() == response.get_data()
    assert played(client) == {}
    monkeypatch.undo()

    with worker_process(REDIS_URL=redis_server.url, FINISH_RECOVERY_S="1"):
        deadline = time.monotonic() + 30
        while intents(services):
            assert time.monotonic() < deadline, "the sweep never completed the finish"
            time.sleep(0.2)
    assert sum(game["played"] for game in played(client).values()) == 1
    # At least once, exactly once: running the steps again changes nothing.
    doc = services.store.load_doc(match_id)
    assert finishing.run_steps(services, doc)
    sweeper.sweep(services, int(time.time() * 1000) + 60_000)
    assert sum(game["played"] for game in played(client).values()) == 1


def test_a_step_that_raises_is_retried_and_the_others_run_once(client, services, monkeypatch):
    calls = []

    def flaky(services, doc):
        calls.append(doc["id"])
        if len(calls) == 1:
            raise RuntimeError("not now")

    monkeypatch.setitem(finishing._STEPS, "test.flaky", flaky)
    ada = account_token(client, "Ada")
    match_id, _, _ = play_to_the_finishing_move(client, ada)
    assert calls == [match_id] and intents(services) == {match_id}
    assert sum(game["played"] for game in played(client).values()) == 1  # the other step ran
    assert (
        b'tabula_archive_total{what="finish_step_failed"}'
        in client.get("/metrics", base_url=METRICS_BASE_URL).get_data()
    )

    sweeper.sweep(services)  # too early: FINISH_RECOVERY_S not past
    assert calls == [match_id]
    sweeper.sweep(services, int(time.time() * 1000) + 10_000)
    assert calls == [match_id, match_id] and intents(services) == set()
    assert sum(game["played"] for game in played(client).values()) == 1
    sweeper.sweep(services, int(time.time() * 1000) + 20_000)
    assert calls == [match_id, match_id]


def test_an_intent_whose_match_did_not_finish_is_dropped(client, services):
    match_id = create(client, **SHORT_MATCH)["match"]["id"]
    finishing.intend(services, match_id)  # as a finishing commit that then lost its race
    now = int(time.time() * 1000)
    sweeper.sweep(services, now + 10_000)
    assert intents(services) == {match_id}  # it may still be on its way
    sweeper.sweep(services, now + (finishing.DROP_AFTER_S + 1) * 1000)
    assert intents(services) == set()
    finishing.intend(services, "no-such-match")
    sweeper.sweep(services, now + 10_000)
    assert intents(services) == set()


@pytest.mark.parametrize("name", ["accounts.count_finished"])
def test_the_registry_holds_the_built_in_steps(name):
    assert name in finishing.steps()
