"""Fair dice: a client's seed alone fixes nothing; the replay proves the dice.

Before, ``seed_commitment`` was ``sha256(str(seed))`` of the creator's seed:
a small seed was found by brute force, and with it every die.
"""

import hashlib

import pytest

import engine
from engine.runner import replay
from service.model import dice

from .helpers import bearer


def _create(client, **extra):
    body = {
        "game": "anno1503",
        "seats": [{"kind": "human", "name": "Ada"}, {"kind": "ai", "level": "random"}],
        **extra,
    }
    response = client.post("/v1/matches", json=body)
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def _first_view(client, created):
    match_id = created["match"]["id"]
    return client.get(f"/v1/matches/{match_id}", headers=bearer(created["tokens"]["0"])).get_json()["view"]


def test_the_same_client_seed_gives_different_fair_dice(client):
    a, b = _create(client, seed=42), _create(client, seed=42)
    assert a["match"]["dice"] == b["match"]["dice"] == "fair"
    assert a["match"]["seed_commitment"] != b["match"]["seed_commitment"]
    # Neither commitment is the old, brute-forceable hash of the seed.
    for small in range(1000):
        assert hashlib.sha256(str(small).encode()).hexdigest() != a["match"]["seed_commitment"]


def test_reproducible_dice_are_asked_for_and_shown(client):
    a = _create(client, seed=42, dice="reproducible")
    b = _create(client, seed=42, dice="reproducible")
    assert a["match"]["dice"] == "reproducible"
    assert a["match"]["seed_commitment"] == hashlib.sha256(b"42").hexdigest()
    assert _first_view(client, a) == _first_view(client, b)
    spectator = client.get(f"/v1/matches/{a['match']['id']}").get_json()
    assert spectator["dice"] == "reproducible"
    lobby = client.get("/v1/matches").get_json()
    assert {m["dice"] for m in lobby} == {"reproducible"}


def test_reproducible_dice_need_a_seed(client):
    response = client.post(
        "/v1/matches",
        json={"game": "anno1503", "dice": "reproducible", "seats": [{"kind": "human"}, {"kind": "human"}]},
    )
    assert response.status_code == 422
    assert "seed" in response.get_json()["details"]["fields"]
    assert client.get("/v1/matches").get_json() == []


def test_a_server_may_forbid_reproducible_dice(redis_server):
    from .conftest import make_app

    client = make_app(redis_server.url, ALLOW_REPRODUCIBLE_DICE=0).test_client()
    response = client.post(
        "/v1/matches",
        json={
            "game": "anno1503",
            "dice": "reproducible",
            "seed": 1,
            "seats": [{"kind": "human"}, {"kind": "human"}],
        },
    )
    assert response.status_code == 422
    assert "dice" in response.get_json()["details"]["fields"]
    assert _create(client, seed=1)["match"]["dice"] == "fair"


def test_unknown_dice_mode_is_refused(client):
    response = client.post(
        "/v1/matches",
        json={"game": "anno1503", "dice": "loaded", "seats": [{"kind": "human"}, {"kind": "human"}]},
    )
    assert response.status_code == 422


@pytest.mark.parametrize("client_seed", [None, 7])
def test_fair_replay_reveals_what_verifies_and_reruns_it(client, services, ai_runner, client_seed):
    extra = {} if client_seed is None else {"seed": client_seed}
    created = _create(client, **extra)
    match_id, token = created["match"]["id"], created["tokens"]["0"]
    assert client.get(f"/v1/matches/{match_id}/replay").status_code == 409
    client.post(f"/v1/matches/{match_id}/resign", headers=bearer(token))
    for _ in range(200):
        ai_runner()
        if client.get(f"/v1/matches/{match_id}").get_json()["status"] == "finished":
            break
    rep = client.get(f"/v1/matches/{match_id}/replay").get_json()
    assert rep["dice"] == "fair" and rep["seed_commitment"] == created["match"]["seed_commitment"]
    assert rep["proof"]["client_seed"] == client_seed
    assert dice.verify(rep)
    # The engine seed is derived from the secret, with the standard library alone.
    assert rep["seed"] == dice.engine_seed(rep["proof"]["server_secret"], client_seed)
    game = engine.get_game(rep["game"])
    state, _ = replay(
        game,
        len(rep["seats"]),
        rep["options"],
        rep["seed"],
        [(a["seat"], a["action"]) for a in rep["actions"]],
    )
    assert game.outcome(state)["winners"] == rep["result"]["engine_winners"]
    # A changed secret, seed or commitment does not verify.
    assert not dice.verify({**rep, "seed": rep["seed"] ^ 1})
    forged = {**rep["proof"], "server_secret": dice.new_secret()}
    assert not dice.verify({**rep, "proof": forged})


def test_engine_seed_mixes_the_client_seed():
    secret = dice.new_secret()
    seeds = {dice.engine_seed(secret, s) for s in (None, 0, 1, 2)}
    assert len(seeds) == 4
    assert all(0 <= s < 2**63 for s in seeds)
