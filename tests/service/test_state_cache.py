"""The per-process engine state cache never serves a stale state; the raw
Redis round trips behave like redis-py's own calls."""

import random

import pytest
import redis

import engine
from service.runtime.state_cache import EngineStateCache, engine_state
from service.storage.keys import match_key

from .conftest import make_app
from .helpers import bearer, create, humans


def _post_random(client, match_id, tokens, rng):
    """GET the seat's actions and POST one of them; returns (action, seat, response JSON)."""
    seat = client.get(f"/v1/matches/{match_id}").get_json()["to_act"][0]
    listed = client.get(f"/v1/matches/{match_id}/actions", headers=bearer(tokens[str(seat)])).get_json()
    action = rng.choice(listed["actions"])
    response = client.post(
        f"/v1/matches/{match_id}/actions",
        headers=bearer(tokens[str(seat)]),
        json={"action": action, "version": listed["version"]},
    )
    assert response.status_code == 200, response.get_json()
    return action, seat, response.get_json()


def test_a_move_after_another_worker_moved_uses_the_new_state(app, redis_server):
    """Two apps on one Redis stand for two gunicorn workers, each with its cache."""
    other = make_app(redis_server.url)
    try:
        here, there = app.test_client(), other.test_client()
        created = create(here, seats=humans(4), seed=3)
        match_id, tokens = created["match"]["id"], created["tokens"]
        game = engine.get_game("anno1503")
        replay = game.setup(4, created["match"]["options"], 3)
        rng = random.Random(4)
        for client in (here, here, there, there, here, there, here, here):
            action, seat, _ = _post_random(client, match_id, tokens, rng)
            replay, _ = game.apply(replay, seat, action)
        # Each worker listed and planned its moves on top of the other's: had
        # one used its own older cached state, a move would have been refused
        # or the stored state would differ from the rules' replay.
        services = app.extensions["tabula"]
        stored = services.store.load(match_id)
        assert stored.state == game.dump(replay)
        assert game.dump(engine_state(services, game, stored)) == game.dump(replay)
    finally:
        other.extensions["tabula"].close()


def test_a_cached_state_is_used_only_at_its_revision(app, client, services):
    created = create(client)
    match_id = created["match"]["id"]
    stored = services.store.load(match_id)
    game = engine.get_game("anno1503")
    planted = object()
    services.states.put(match_id, str(int(stored.rev) - 1), planted)
    assert engine_state(services, game, stored) is not planted
    services.states.put(match_id, stored.rev, planted)
    assert engine_state(services, game, stored) is planted


def test_the_cache_keeps_the_newest_revision_and_evicts_the_least_recent():
    cache = EngineStateCache(capacity=2)
    cache.put("a", "5", "a5")
    cache.put("a", "4", "a4")  # a slower thread's older read does not push out rev 5
    assert cache.get("a", "5") == "a5" and cache.get("a", "4") is None
    cache.put("b", "1", "b1")
    cache.get("a", "5")  # a is now the most recently used
    cache.put("c", "1", "c1")
    assert cache.get("b", "1") is None
    assert cache.get("a", "5") == "a5" and cache.get("c", "1") == "c1"
    assert len(cache) == 2
    off = EngineStateCache(capacity=0)
    off.put("a", "1", "a1")
    assert off.get("a", "1") is None


def test_a_commit_caches_the_new_state_under_the_new_revision(client, services):
    created = create(client)
    match_id = created["match"]["id"]
    services.states._entries.clear()
    _post_random(client, match_id, created["tokens"], random.Random(1))
    stored = services.store.load(match_id)
    cached = services.states.get(match_id, stored.rev)
    assert cached is not None
    assert engine.get_game("anno1503").dump(cached) == stored.state


# --- the raw round trips (storage.transport.Transport.replies) ---------------------------------


def test_a_move_still_commits_after_the_server_forgot_the_script(client, services):
    created = create(client)
    services.redis.script_flush()
    _, _, reply = _post_random(client, created["match"]["id"], created["tokens"], random.Random(2))
    assert reply["version"] == created["match"]["version"] + 1


def test_an_error_reply_in_the_read_pipeline_leaves_no_reply_pending(client, services):
    created = create(client)
    match_id = created["match"]["id"]
    services.redis.hset("not-a-counter", "f", "v")
    with pytest.raises(redis.ResponseError):
        services.store.load_counted(match_id, None, "not-a-counter", 60)
    # The next round trip on the pool reads its own replies, not the leftovers.
    stored, count = services.store.load_counted(match_id, None, "counter", 60)
    assert stored.doc["id"] == match_id and count == 1
    assert services.redis.ttl("counter") > 0
    assert services.store.load(match_id).rev == services.redis.hget(match_key(match_id), "rev").decode()


def test_a_missing_script_never_runs_a_commit_twice(client, services):
    """The deadline index write goes before the commit in one round trip: when
    the server lacks its script (a restarted Redis), only that command is sent
    again. Before, the whole round trip was, and the create found its own
    match there already: 503 and an orphan match."""
    for _ in range(3):
        services.redis.script_flush()
        created = client.post(
            "/v1/matches",
            json={"game": "anno1503", "seats": [{"kind": "ai", "level": "random"}, {"kind": "human"}]},
        )
        assert created.status_code == 201, created.get_json()
    assert len(client.get("/v1/matches").get_json()) == 3
