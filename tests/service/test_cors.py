"""CORS: browsers on third-party origins may call every route (flask-cors).

Before, no response carried a CORS header, so a browser page on another
origin could call nothing.
"""

import pytest
import redis

from .conftest import make_app
from .helpers import bearer, create, humans

ORIGIN = "https://frontend.example"
REQUEST_HEADERS = "authorization, content-type, if-match, idempotency-key, last-event-id"


@pytest.fixture
def cors_app(redis_server):
    redis.Redis.from_url(redis_server.url).flushdb()
    app = make_app(redis_server.url, CORS_ORIGINS="*")
    yield app
    app.extensions["tabula"].close()


def _paths(app):
    """Every route of the app, with a made-up id in its parameters."""
    return sorted(
        {
            rule.rule.replace("<match_id>", "m1").replace("<game_id>", "anno1503")
            for rule in app.url_map.iter_rules()
            if rule.endpoint != "static"
        }
    )


def test_preflight_works_for_every_route(cors_app):
    client = cors_app.test_client()
    paths = [path for path in _paths(cors_app) if path != "/metrics"]  # internal port only: 404 here
    assert "/v1/matches/m1/actions" in paths and "/v1/matches" in paths
    for path in paths:
        response = client.options(
            path,
            headers={
                "Origin": ORIGIN,
                "Access-Control-Request-Method": "POST",
                "Access-Control-Request-Headers": REQUEST_HEADERS,
            },
        )
        assert response.status_code == 200, path
        assert response.headers["Access-Control-Allow-Origin"] == "*", path
        allowed = response.headers["Access-Control-Allow-Headers"].lower()
        for header in REQUEST_HEADERS.split(", "):
            assert header in allowed, (path, header)
        assert "POST" in response.headers["Access-Control-Allow-Methods"]
        assert "Access-Control-Allow-Credentials" not in response.headers


def test_responses_and_errors_carry_the_headers(cors_app):
    client = cors_app.test_client()
    created = create(client, seats=humans(2))
    match_id = created["match"]["id"]
    for response in (
        client.get(f"/v1/matches/{match_id}", headers={"Origin": ORIGIN}),
        client.get("/v1/matches/nope", headers={"Origin": ORIGIN}),
        client.post("/v1/matches", data="x", headers={"Origin": ORIGIN}),
    ):
        assert response.headers["Access-Control-Allow-Origin"] == "*"
        exposed = response.headers["Access-Control-Expose-Headers"]
        assert "ETag" in exposed and "X-Pagination" in exposed and "Retry-After" in exposed
        assert "RateLimit" in exposed.split(", ") and "RateLimit-Policy" in exposed


@pytest.mark.parametrize("legal", [True, False])
def test_the_move_lane_answers_with_the_same_headers_as_flask(cors_app, monkeypatch, legal):
    from service.http import move_lane

    client = cors_app.test_client()
    created = create(client, seats=humans(2))
    match = created["match"]
    seat = match["to_act"][0]
    token = created["tokens"][str(seat)]
    path = f"/v1/matches/{match['id']}/actions"
    action = (
        client.get(path, headers=bearer(token)).get_json()["actions"][0]
        if legal
        else {"type": "no_such_action"}
    )
    headers = {**bearer(token), "Origin": ORIGIN}
    seen = []
    real = move_lane.plain_move
    monkeypatch.setattr(move_lane, "plain_move", lambda *a: seen.append(real(*a)) or seen[-1])
    lane = client.post(path, headers=headers, json={"action": action, "version": match["version"]})
    assert seen[-1] is not None  # the lane answered
    assert lane.status_code == (200 if legal else 422)
    monkeypatch.setattr(move_lane, "plain_move", lambda *a: None)
    flask = client.post(path, headers=headers, json={"action": action, "version": match["version"]})
    assert flask.status_code == (409 if legal else 422)  # a legal move was played already
    cors = {k: v for k, v in flask.headers.items() if k.startswith("Access-Control")}
    assert cors and cors == {k: v for k, v in lane.headers.items() if k.startswith("Access-Control")}


def test_a_listed_origin_only(redis_server):
    app = make_app(redis_server.url, CORS_ORIGINS="https://a.example, https://b.example")
    client = app.test_client()
    ok = client.get("/v1/games", headers={"Origin": "https://b.example"})
    assert ok.headers["Access-Control-Allow-Origin"] == "https://b.example"
    assert "Origin" in ok.headers.get("Vary", "")
    other = client.get("/v1/games", headers={"Origin": "https://evil.example"})
    assert "Access-Control-Allow-Origin" not in other.headers


def test_no_origins_configured_means_no_cors(redis_server):
    app = make_app(redis_server.url, CORS_ORIGINS="")
    response = app.test_client().get("/v1/games", headers={"Origin": ORIGIN})
    assert "Access-Control-Allow-Origin" not in response.headers
