"""Catalogue, health, readiness, spec and docs endpoints."""

import re

import engine
from service.play import ai

from .conftest import make_app, unreachable_redis_url


def test_games_list_matches_engine_catalogue(client):
    response = client.get("/v1/games")
    assert response.status_code == 200
    games = response.get_json()
    assert [g["id"] for g in games] == engine.list_games()
    anno = next(g for g in games if g["id"] == "anno1503")
    assert anno["min_players"] == 2 and anno["max_players"] == 4
    assert anno["ai_levels"] == ["random", "easy", "medium", "hard"]
    assert anno["options"]["expansion"]["default"] == "none"


def test_one_game_and_unknown_game(client):
    assert client.get("/v1/games/anno1503").get_json()["title"] == "Anno 1503"
    response = client.get("/v1/games/chess")
    assert response.status_code == 404
    assert response.get_json()["error"] == "not_found"


def test_healthz_needs_no_storage():
    app = make_app(unreachable_redis_url())
    assert app.test_client().get("/healthz").status_code == 200


def test_readyz_wants_storage_and_a_recent_worker(client, services):
    response = client.get("/readyz")
    assert response.status_code == 503
    assert response.get_json()["checks"] == {"storage": "ok", "worker": "0 of 1 workers alive"}
    ai.beat(services, "w1")
    response = client.get("/readyz")
    assert response.status_code == 200, response.get_json()


def test_readyz_without_storage_is_503():
    app = make_app(unreachable_redis_url())
    response = app.test_client().get("/readyz")
    assert response.status_code == 503
    assert response.get_json()["checks"]["storage"].startswith("unreachable")


def test_openapi_and_docs_are_served_offline(client):
    spec = client.get("/openapi.yaml")
    assert spec.status_code == 200
    assert b"openapi: 3.1.0" in spec.data
    docs = client.get("/docs")
    assert docs.status_code == 200
    page = docs.get_data(as_text=True)
    assert "/openapi.json" in page
    # No CDN or any other external resource: the page works offline.
    assert not re.search(r"(src|href)=\"(https?:)?//", page)
    assert "http://" not in page and "https://" not in page
    assert client.get("/openapi.json").get_json()["openapi"] == "3.1.0"
