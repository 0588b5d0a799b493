"""The rate limit cannot be bypassed with made-up tokens; creations have their own.

Before: the limit was counted per bearer token before the token was known to
be valid, so ``Authorization: Bearer <random>`` bought a fresh allowance on
every request (1,250 ``GET /v1/games`` with random tokens: all 200).
"""

import secrets

import pytest
import redis

from .conftest import rate_limited_app
from .helpers import bearer, create, humans


@pytest.fixture(autouse=True)
def _empty_redis(redis_server):
    redis.Redis.from_url(redis_server.url).flushdb()


def _client(app, address):
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return client


def _random_token():
    return bearer(secrets.token_urlsafe(32))


def test_made_up_tokens_count_against_the_address(redis_server):
    app = rate_limited_app(redis_server.url, RATE_LIMIT=5)
    attacker = _client(app, "198.51.100.1")
    codes = [attacker.get("/v1/games", headers=_random_token()).status_code for _ in range(8)]
    assert codes == [200] * 5 + [429] * 3
    # A 401 is no way around it either: unknown tokens on a match route.
    assert attacker.get("/v1/matches/abc/actions", headers=_random_token()).status_code == 429
    assert attacker.get("/v1/games").status_code == 429  # the same address's budget
    # Another address is not affected.
    assert _client(app, "198.51.100.2").get("/v1/games").status_code == 200


def test_unknown_tokens_on_the_move_path_count_against_the_address(redis_server):
    app = rate_limited_app(redis_server.url, RATE_LIMIT=4, CREATE_RATE_LIMIT=0)
    owner = _client(app, "198.51.100.3")
    match_id = create(owner)["match"]["id"]  # counts 1 for 198.51.100.3
    attacker = _client(app, "198.51.100.4")
    path = f"/v1/matches/{match_id}/actions"
    move = {"action": {"type": "end_turn"}}
    codes = [attacker.post(path, headers=_random_token(), json=move).status_code for _ in range(6)]
    assert codes == [401] * 4 + [429] * 2
    codes = [attacker.get(path, headers=_random_token()).status_code for _ in range(2)]
    assert codes == [429, 429]


def test_a_known_token_has_its_own_budget(redis_server):
    app = rate_limited_app(redis_server.url, RATE_LIMIT=3, CREATE_RATE_LIMIT=0)
    client = _client(app, "198.51.100.5")
    created = create(client, seats=humans(2))  # the address: 1
    token = bearer(created["tokens"]["0"])
    match = f"/v1/matches/{created['match']['id']}"
    assert [client.get(match, headers=token).status_code for _ in range(4)] == [200, 200, 200, 429]
    # The address still has 2 requests of its own left, the other seat 3.
    assert [client.get(match).status_code for _ in range(3)] == [200, 200, 429]
    assert client.get(match, headers=bearer(created["tokens"]["1"])).status_code == 200


def test_a_revoked_token_counts_against_the_address(redis_server):
    app = rate_limited_app(redis_server.url, RATE_LIMIT=4, CREATE_RATE_LIMIT=0)
    client = _client(app, "198.51.100.6")
    created = create(client, seats=humans(2))  # address: 1
    token = bearer(created["tokens"]["0"])
    match = f"/v1/matches/{created['match']['id']}"
    assert client.post(f"{match}/resign", headers=token).status_code == 200  # token: 1
    # On its match's routes and on others (its seat is looked for in its match).
    paths = (match, "/v1/games", f"{match}/actions", match)
    codes = [client.get(path, headers=token).status_code for path in paths]
    assert codes == [401, 200, 401, 429]  # address: 2, 3, 4, then over


def test_creating_matches_has_its_own_tighter_limit(redis_server):
    app = rate_limited_app(redis_server.url, RATE_LIMIT=100, CREATE_RATE_LIMIT=2)
    client = _client(app, "198.51.100.7")
    body = {"game": "anno1503", "seats": humans(2)}
    codes = [client.post("/v1/matches", json=body, headers=_random_token()).status_code for _ in range(3)]
    assert codes == [201, 201, 429]
    response = client.post("/v1/matches", json=body)
    assert response.status_code == 429 and response.get_json()["error"] == "rate_limited"
    assert "creations" in response.get_json()["message"]
    assert 1 <= int(response.headers["Retry-After"]) <= 60
    # Nothing was created by the refused requests; reading is still allowed.
    listed = client.get("/v1/matches")
    assert listed.status_code == 200 and len(listed.get_json()) == 2
    assert _client(app, "198.51.100.8").post("/v1/matches", json=body).status_code == 201


# --- the RateLimit fields (service/http/rate_headers.py) ----------------------


def _fields(response, name):
    """``{policy: params}`` of a RateLimit field, parsed as a client would."""
    import http_sf

    return {
        name_: dict(params) for name_, params in http_sf.parse(response.headers[name].encode(), tltype="list")
    }


@pytest.mark.parametrize("flask_only", [False, True])
def test_every_counted_response_says_what_is_left_from_the_same_counter(
    redis_server, monkeypatch, flask_only
):
    """On both lanes, r counts down with each request of the token's window
    down to the 429, whose r is 0 and whose t matches its Retry-After."""
    import service.http.move_lane as move_lane

    if flask_only:
        monkeypatch.setattr(move_lane, "plain_move", lambda environ, limit: None)
    app = rate_limited_app(redis_server.url, RATE_LIMIT=4, CREATE_RATE_LIMIT=0)
    client = _client(app, "198.51.100.20")
    created = create(client, seats=humans(2), seed=7)
    match_id, token = created["match"]["id"], created["tokens"]["0"]
    listed = client.get(f"/v1/matches/{match_id}/actions", headers=bearer(token))
    move = {"action": listed.get_json()["actions"][0], "version": listed.get_json()["version"]}
    moved = client.post(f"/v1/matches/{match_id}/actions", headers=bearer(token), json=move)
    assert moved.status_code == 200
    stale = client.post(f"/v1/matches/{match_id}/actions", headers=bearer(token), json=move)
    assert stale.status_code == 409
    refused = client.get(f"/v1/matches/{match_id}", headers=bearer(token))
    assert refused.status_code == 200
    over = client.get(f"/v1/matches/{match_id}", headers=bearer(token))
    assert over.status_code == 429
    left = [_fields(r, "RateLimit")["requests"]["r"] for r in (listed, moved, stale, refused, over)]
    assert left == [3, 2, 1, 0, 0]
    assert _fields(over, "RateLimit-Policy") == {"requests": {"q": 4, "w": 60}}
    assert _fields(over, "RateLimit")["requests"]["t"] == int(over.headers["Retry-After"])


def test_a_creation_names_both_windows_and_exempt_paths_none(redis_server):
    app = rate_limited_app(redis_server.url, RATE_LIMIT=10, CREATE_RATE_LIMIT=3)
    client = _client(app, "198.51.100.21")
    response = client.post("/v1/matches", json={"game": "anno1503", "seats": humans(2)})
    assert response.status_code == 201
    assert _fields(response, "RateLimit-Policy") == {
        "requests": {"q": 10, "w": 60},
        "creations": {"q": 3, "w": 60},
    }
    assert {k: v["r"] for k, v in _fields(response, "RateLimit").items()} == {"requests": 9, "creations": 2}
    for path in ("/healthz", "/openapi.json", "/play/"):
        assert "RateLimit" not in client.get(path).headers, path


# --- where a window is kept (service/storage/counters.py) ---------------------


def _windows(redis_server):
    """``{counter key: count}`` of every request window in Redis."""
    store = redis.Redis.from_url(redis_server.url)
    return {key.decode(): int(store.get(key)) for key in store.scan_iter("ratelimit:requests:*")}


def test_a_seat_tokens_window_is_one_on_every_route_and_kept_with_its_match(redis_server):
    from redis.crc import key_slot

    from service.model.tokens import hash_token

    app = rate_limited_app(redis_server.url, RATE_LIMIT=5, CREATE_RATE_LIMIT=0)
    client = _client(app, "198.51.100.30")
    created = create(client, seats=humans(2), seed=3)  # the address: 1
    other = create(client, seats=humans(2))["match"]["id"]  # the address: 2
    match_id, token = created["match"]["id"], created["tokens"]["0"]
    match = f"/v1/matches/{match_id}"
    read = client.get(match, headers=bearer(token))  # counted before its route
    listed = client.get(f"{match}/actions", headers=bearer(token))  # counted with its read
    games = client.get("/v1/games", headers=bearer(token))  # no match in its path
    elsewhere = client.get(f"/v1/matches/{other}", headers=bearer(token))  # another match's route
    move = {"action": listed.get_json()["actions"][0], "version": listed.get_json()["version"]}
    moved = client.post(f"{match}/actions", headers=bearer(token), json=move)  # the move lane
    answered = (read, listed, games, elsewhere, moved)
    assert [r.status_code for r in (read, listed, games, moved)] == [200] * 4
    assert elsewhere.status_code != 429
    assert [_fields(r, "RateLimit")["requests"]["r"] for r in answered] == [4, 3, 2, 1, 0]
    assert client.get(match, headers=bearer(token)).status_code == 429
    assert client.post(f"{match}/actions", headers=bearer(token), json=move).status_code == 429
    # One window for the token, in its match's slot; the address's untouched.
    (seat_window,) = [key for key in _windows(redis_server) if key.startswith("ratelimit:requests:s:")]
    assert seat_window.startswith(f"ratelimit:requests:s:{{{match_id}}}:{hash_token(token)}:")
    assert key_slot(seat_window.encode()) == key_slot(f"match:{{{match_id}}}".encode())
    windows = _windows(redis_server)
    (address_window,) = [key for key in windows if key.startswith("ratelimit:requests:a:")]
    assert windows == {seat_window: 7, address_window: 2}


def test_an_account_tokens_window_stays_in_its_own_slot(redis_server):
    from service.model.tokens import hash_token

    app = rate_limited_app(redis_server.url, RATE_LIMIT=4, CREATE_RATE_LIMIT=0, SIGNUP_RATE_LIMIT=0)
    client = _client(app, "198.51.100.32")
    signed = client.post("/v1/accounts", json={"name": "Rita", "kind": "human"})
    assert signed.status_code == 201, signed.get_json()
    token = signed.get_json()["token"]
    match_id = create(client, seats=humans(2))["match"]["id"]  # the address: 1
    codes = [
        client.get(path, headers=bearer(token)).status_code
        for path in ("/v1/account", f"/v1/matches/{match_id}/actions", "/v1/account", "/v1/account")
    ]
    assert codes[0] == 200 and codes[2:] == [200, 200]
    assert client.get("/v1/account", headers=bearer(token)).status_code == 429
    windows = _windows(redis_server)
    assert windows[next(k for k in windows if f":t:{{{hash_token(token)}}}:" in k)] == 5
    assert not any(":s:" in key for key in windows)
