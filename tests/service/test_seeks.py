"""Seeks and pairing waves (service/meet/seeks.py, waves.py, pairing.py): a
wave seats compatible seekers in one match, each seeker in one at most,
cancelled and expired seeks never; ratings group near equals first and the
range widens with the waves waited; AI fill; the scope matrix."""

import threading
import time

import pytest

from service.meet import starting, waves
from service.meet.pairing import Seeker, Widening, group
from service.model.accounts import SCOPES
from service.storage import accounts as stored_accounts
from service.storage.ratings import pool_key

from .conftest import fresh_app
from .helpers import bearer
from .test_accounts import account_token

POOL = "anno1452-basic"


def seek(client, token, pool=POOL, **extra):
    return client.post("/v1/seeks", json={"pool": pool, **extra}, headers=bearer(token))


def mine(client, token):
    return client.get("/v1/seeks", headers=bearer(token)).json


def set_rating(services, name, mu, sigma=2.0):
    aid = stored_accounts.holder(services.redis, stored_accounts.name_claim_key(name.lower()))
    services.redis.hset(pool_key(POOL, "ratings"), aid, f'{{"mu": {mu}, "sigma": {sigma}}}')


def test_two_seekers_land_in_one_match_with_their_seats(client, services):
    ada, bob = account_token(client, "Ada"), account_token(client, "Bob")
    first = seek(client, ada)
    assert first.status_code == 201, first.json
    assert first.json["status"] == "waiting" and first.json["rating"]["mu"] == 25.0
    assert seek(client, bob, counts=[2, 3]).status_code == 201
    result = waves.run_wave(services, POOL)
    assert len(result.tables) == 1 and result.created == 1
    (a,), (b,) = mine(client, ada), mine(client, bob)
    assert a["status"] == b["status"] == "matched" and a["match_id"] == b["match_id"]
    match = client.get(f"/v1/matches/{a['match_id']}", headers=bearer(ada)).json
    assert match["status"] == "active" and match["rated"] is True and match["pool"] == POOL
    assert match["you"] == a["seat"] and {a["seat"], b["seat"]} == {0, 1}
    assert client.get(f"/v1/matches/{a['match_id']}", headers=bearer(bob)).json["you"] == b["seat"]
    assert match["options"]["rules"] == "basic"
    for token in (ada, bob):  # the account stream's match_started
        aid = client.get("/v1/account", headers=bearer(token)).json["id"]
        logged = stored_accounts.read_account_events(services.redis, aid, "0", 50)
        assert [e["data"]["match_id"] for e in logged if e["type"] == "match_started"] == [a["match_id"]]
    # nothing left to pair; the next wave makes nothing
    assert waves.run_wave(services, POOL).tables == []


def test_one_waiting_seek_per_account_and_pool(client):
    ada = account_token(client, "Ada")
    first = seek(client, ada).json
    again = seek(client, ada)
    assert again.status_code == 409 and again.json["details"]["seek_id"] == first["id"]
    assert seek(client, ada, pool="anno1503-base").status_code == 201


def test_a_cancelled_seek_is_never_paired(client, services):
    ada, bob = account_token(client, "Ada"), account_token(client, "Bob")
    mine_ = seek(client, ada).json
    seek(client, bob)
    cancelled = client.delete(f"/v1/seeks/{mine_['id']}", headers=bearer(ada))
    assert cancelled.status_code == 200 and cancelled.json["status"] == "cancelled"
    assert waves.run_wave(services, POOL).tables == []
    assert mine(client, ada)[0]["status"] == "cancelled"
    assert client.delete(f"/v1/seeks/{mine_['id']}", headers=bearer(bob)).status_code == 404


def test_a_matched_seek_cannot_be_cancelled(client, services):
    ada, bob = account_token(client, "Ada"), account_token(client, "Bob")
    mine_ = seek(client, ada).json
    seek(client, bob)
    waves.run_wave(services, POOL)
    late = client.delete(f"/v1/seeks/{mine_['id']}", headers=bearer(ada))
    assert late.status_code == 409 and late.json["details"]["state"] == "matched"


def test_a_seek_not_renewed_expires(client, services):
    ada, bob = account_token(client, "Ada"), account_token(client, "Bob")
    seek(client, ada)
    seek(client, bob)
    later = int(time.time() * 1000) + services.config["SEEK_TTL_S"] * 1000 + 1000
    result = waves.run_wave(services, POOL, now_ms=later)
    assert result.tables == [] and result.expired == 2
    assert [s["status"] for s in mine(client, ada)] == ["expired"]


def test_near_ratings_first_and_the_range_widens(client, services):
    tokens = {name: account_token(client, name) for name in ("Ada", "Bob", "Cy", "Di")}
    for name, mu in (("Ada", 10), ("Bob", 40), ("Cy", 11), ("Di", 46)):
        set_rating(services, name, mu)
    for token in tokens.values():
        seek(client, token)
    now = int(time.time() * 1000)
    first = waves.run_wave(services, POOL, now_ms=now)
    assert [sorted(s.mu for s in t.seekers) for t in first.tables] == [[10, 11]]
    # Bob and Di are 6 apart: paired once the width (2 + 1 per 1.5 s wave) reaches 6
    assert waves.run_wave(services, POOL, now_ms=now + 3000).tables == []
    assert [
        sorted(s.mu for s in t.seekers) for t in waves.run_wave(services, POOL, now_ms=now + 6100).tables
    ] == [[40, 46]]


def test_ai_fill_after_its_wait(client, services):
    ada = account_token(client, "Ada")
    seek(client, ada, counts=[3], ai_fill={"level": "easy", "after_s": 5})
    now = int(time.time() * 1000)
    assert waves.run_wave(services, POOL, now_ms=now).tables == []
    (table,) = waves.run_wave(services, POOL, now_ms=now + 5000).tables
    assert table.ai_seats == 2
    (state,) = mine(client, ada)
    match = client.get(f"/v1/matches/{state['match_id']}").json
    assert sorted(s["kind"] for s in match["seats"]) == ["ai", "ai", "human"]


def test_rated_and_casual_seekers_are_not_mixed(client, services):
    ada, bob = account_token(client, "Ada"), account_token(client, "Bob")
    seek(client, ada, rated=True)
    seek(client, bob, rated=False)
    assert waves.run_wave(services, POOL).tables == []


def _claim_and_die(client, services, monkeypatch):
    """Two seekers; a wave claims their table and dies before its match."""
    ada, bob = account_token(client, "Ada"), account_token(client, "Bob")
    seek(client, ada)
    seek(client, bob)

    def die(*args, **kwargs):
        raise RuntimeError("the worker died")

    monkeypatch.setattr(starting, "ensure_match", die)
    with pytest.raises(RuntimeError):
        waves.run_wave(services, POOL)
    monkeypatch.undo()
    return ada


def test_a_wave_dies_after_its_claim_and_the_next_creates_the_match(client, services, monkeypatch):
    _claim_and_die(client, services, monkeypatch)
    assert waves.run_wave(services, POOL).created == 1
    assert waves.run_wave(services, POOL).created == 0


def test_a_seek_that_reads_matched_names_a_match_that_exists(client, services, monkeypatch):
    """Between a wave's claim and its match, the seek's read creates the
    match: a client that opens it at once never sees 404."""
    ada = _claim_and_die(client, services, monkeypatch)
    (a,) = mine(client, ada)
    assert a["status"] == "matched"
    assert client.get(f"/v1/matches/{a['match_id']}").status_code == 200
    assert waves.run_wave(services, POOL).created == 0  # created once


@pytest.fixture
def roomy(redis_server):
    """An app without the sign-up limit (many accounts)."""
    with fresh_app(redis_server.url, SIGNUP_RATE_LIMIT=0) as app:
        yield app.test_client(), app.extensions["tabula"]


def test_concurrent_waves_seat_each_seeker_once(roomy):
    client, services = roomy
    tokens = [account_token(client, f"P{i}") for i in range(40)]
    for i, token in enumerate(tokens):
        seek(client, token, counts=[2, 3, 4] if i % 2 else [2])
    results = []
    threads = [
        threading.Thread(target=lambda: results.append(waves.run_wave(services, POOL))) for _ in range(4)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    # A wave whose claim lost a seeker to another wave leaves the rest of that
    # table for the next wave: one more, alone, seats them.
    results.append(waves.run_wave(services, POOL))
    seated = [s.sid for result in results for table in result.tables for s in table.seekers]
    assert len(seated) == len(set(seated)) >= 39  # one may be left with nobody it accepts
    matches = {s["match_id"] for token in tokens for s in mine(client, token) if s["match_id"]}
    assert len(matches) == sum(len(r.tables) for r in results)
    assert sum(r.created for r in results) == len(matches)


def test_grouping_is_pure_and_seats_each_seeker_once():
    widening = Widening(2.0, 1.0, 25.0, 1500)
    seekers = [Seeker(f"s{i}", f"a{i}", 25.0 + (i % 7), [2, 3], True, i) for i in range(50)]
    tables = group(seekers, 1000, widening)
    seated = [s.sid for t in tables for s in t.seekers]
    assert len(seated) == len(set(seated))
    assert all(t.spread <= 2.0 for t in tables)


def _seek_routes(client, sid):
    return {
        "createSeek": ("match:play", lambda h: client.post("/v1/seeks", json={"pool": POOL}, headers=h), 201),
        "listSeeks": ("match:read", lambda h: client.get("/v1/seeks", headers=h), 200),
        "cancelSeek": ("match:play", lambda h: client.delete(f"/v1/seeks/{sid}", headers=h), 200),
    }


@pytest.mark.parametrize("operation", ["createSeek", "listSeeks", "cancelSeek"])
@pytest.mark.parametrize("held", SCOPES)
def test_seek_scope_matrix(client, operation, held):
    ada = account_token(client, "Ada")
    sid = seek(client, ada, pool="anno1503-base").json["id"]
    minted = client.post("/v1/account/tokens", json={"label": "m", "scopes": [held]}, headers=bearer(ada))
    needed, call, served = _seek_routes(client, sid)[operation]
    answer = call(bearer(minted.json["token"]))
    if held == needed:
        assert answer.status_code == served, answer.json
    else:
        assert answer.status_code == 403 and answer.json["details"]["missing_scope"] == needed


@pytest.mark.parametrize(
    "body",
    [
        {"pool": "chess"},
        {"pool": POOL, "counts": [5]},
        {"pool": POOL, "counts": []},
        {"pool": POOL, "rating_min": 30, "rating_max": 20},
        {"pool": POOL, "ai_fill": {"level": "godlike", "after_s": 3}},
    ],
)
def test_bad_seeks_are_422_and_store_nothing(client, body):
    ada = account_token(client, "Ada")
    answer = client.post("/v1/seeks", json=body, headers=bearer(ada))
    assert answer.status_code == 422, answer.json
    assert mine(client, ada) == []


def test_the_open_account_stream_keeps_the_seeks_alive(redis_server):
    from service.accounts.auth import live_principal
    from service.live.account_stream import AccountStreamBody
    from service.model.tokens import hash_token
    from service.storage import meet as stored

    with fresh_app(redis_server.url, STREAM_KEEPALIVE_S=0.1) as app:
        client, services = app.test_client(), app.extensions["tabula"]
        ada = account_token(client, "Ada")
        sid = seek(client, ada).json["id"]
        alive_key = stored.pool_keys(POOL)[2]
        services.redis.hset(alive_key, sid, 1)  # as if not renewed for long
        body = AccountStreamBody(services, live_principal(services, hash_token(ada)), False, None)
        try:
            assert int(services.redis.hget(alive_key, sid)) > 1  # renewed as it opened
            services.redis.hset(alive_key, sid, 1)
            stream = iter(body)
            next(stream)  # a keep-alive
            next(stream)  # the next one: renewed in between
            assert int(services.redis.hget(alive_key, sid)) > 1
        finally:
            body.close()
        later = int(time.time() * 1000) + services.config["SEEK_TTL_S"] * 1000 - 5000
        assert waves.run_wave(services, POOL, now_ms=later).expired == 0


def test_one_worker_runs_a_pools_wave_per_interval(client, services):
    ada, bob = account_token(client, "Ada"), account_token(client, "Bob")
    seek(client, ada)
    seek(client, bob)
    first = waves.run_waves(services, "worker-1")
    assert set(first) == set(waves.POOLS) and len(first[POOL].tables) == 1
    assert waves.run_waves(services, "worker-2") == {}  # within SEEK_WAVE_S: nobody's turn
    time.sleep(services.config["SEEK_WAVE_S"] + 0.1)
    assert set(waves.run_waves(services, "worker-2")) == set(waves.POOLS)
