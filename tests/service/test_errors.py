"""The contract's error table: body shape and the generic codes."""

import pytest

from .conftest import make_app, rate_limited_app, unreachable_redis_url
from .helpers import bearer, create

ERROR_KEYS = {"error", "message", "details"}


def assert_error(response, status, code):
    assert response.status_code == status, response.get_data(as_text=True)
    body = response.get_json()
    assert set(body) >= ERROR_KEYS, body
    assert body["error"] == code, body
    assert "Traceback" not in response.get_data(as_text=True)
    return body


def test_unknown_route_is_404_in_contract_shape(client):
    assert_error(client.get("/v1/nothing-here"), 404, "not_found")


def test_wrong_method_keeps_allow_header(client):
    response = client.delete("/v1/games")
    assert_error(response, 405, "method_not_allowed")
    assert "GET" in response.headers["Allow"]


@pytest.mark.parametrize(
    "data, content_type",
    [
        ("{not json", "application/json"),
        ("[1, 2]", "application/json"),
        ('"a string"', "application/json"),
        ("game=anno1503", "application/x-www-form-urlencoded"),
        ('{"a": ' * 3000, "application/json"),  # nested beyond json.loads' recursion limit
    ],
)
def test_body_not_a_json_object_is_400(client, data, content_type):
    assert_error(client.post("/v1/matches", data=data, content_type=content_type), 400, "bad_request")


def test_schema_failure_is_422_with_field_details(client):
    body = assert_error(
        client.post("/v1/matches", json={"game": "anno1503", "seats": "x"}), 422, "validation_error"
    )
    assert "seats" in body["details"]["fields"]["json"]
    body = assert_error(client.get("/v1/matches?status=bogus"), 422, "validation_error")
    assert "status" in body["details"]["fields"]["query"]


def test_bad_options_and_seat_counts_are_422(client):
    seats = [{"kind": "human"}, {"kind": "ai", "level": "easy"}]
    for body in (
        {"game": "anno1503", "seats": seats, "options": {"colour": "red"}},
        {"game": "anno1503", "seats": seats, "options": {"expansion": "moon"}},
        {"game": "anno1503", "seats": seats[:1]},
        {"game": "anno1503", "seats": [{"kind": "ai", "level": "godlike"}] * 2},
        {"game": "anno1503", "seats": [{"kind": "human", "level": "easy"}] * 2},
    ):
        assert_error(client.post("/v1/matches", json=body), 422, "validation_error")


def test_unknown_game_in_create_is_404(client):
    body = {"game": "chess", "seats": [{"kind": "human"}, {"kind": "human"}]}
    assert_error(client.post("/v1/matches", json=body), 404, "not_found")


def test_unknown_match_is_404(client):
    assert_error(client.get("/v1/matches/doesnotexist"), 404, "not_found")
    assert_error(client.get("/v1/matches/doesnotexist/events"), 404, "not_found")
    assert_error(client.post("/v1/matches/doesnotexist/join", json={}), 404, "not_found")


def test_body_over_limit_is_413(redis_server):
    app = make_app(redis_server.url, MAX_CONTENT_LENGTH=512)
    response = app.test_client().post("/v1/matches", json={"game": "x" * 1000, "seats": []})
    assert_error(response, 413, "payload_too_large")


def test_rate_limit_is_429_with_retry_after(redis_server):
    app = rate_limited_app(redis_server.url, RATE_LIMIT=3)
    client = app.test_client()
    # An address of its own: another test's count may still be in this
    # Redis's window (the fixture does not flush it).
    client.environ_base["REMOTE_ADDR"] = "198.51.100.20"
    codes = [client.get("/v1/games").status_code for _ in range(3)]
    assert codes == [200, 200, 200]
    response = client.get("/v1/games")
    assert_error(response, 429, "rate_limited")
    assert 1 <= int(response.headers["Retry-After"]) <= 60
    # Another client (another address) has its own budget; health is exempt.
    other = app.test_client()
    other.environ_base["REMOTE_ADDR"] = "192.0.2.7"
    assert other.get("/v1/games").status_code == 200
    assert client.get("/healthz").status_code == 200


def test_unexpected_exception_is_generic_500_without_trace(redis_server, caplog):
    app = make_app(redis_server.url)
    app.testing = False

    def explode():
        raise RuntimeError("secret internals")

    app.add_url_rule("/boom", view_func=explode)
    response = app.test_client().get("/boom")
    body = assert_error(response, 500, "internal_error")
    assert "secret internals" not in response.get_data(as_text=True)
    assert body["details"] == {}
    assert "secret internals" in caplog.text  # logged for operators, not shown


def test_storage_down_is_503():
    app = make_app(unreachable_redis_url())
    down = app.test_client()
    assert_error(down.get("/v1/matches/abc"), 503, "unavailable")
    body = {"game": "anno1503", "seats": [{"kind": "human"}, {"kind": "human"}]}
    assert_error(down.post("/v1/matches", json=body), 503, "unavailable")


def test_tokens_401_and_403(client):
    one = create(client)
    other = create(client)
    match_id = one["match"]["id"]
    actions = f"/v1/matches/{match_id}/actions"
    assert_error(client.get(actions), 401, "unauthorized")
    assert_error(client.get(actions, headers=bearer("made-up")), 401, "unauthorized")
    assert_error(client.get(actions, headers=bearer(other["tokens"]["0"])), 403, "forbidden")
    assert_error(client.get(f"/v1/matches/{match_id}", headers=bearer("made-up")), 401, "unauthorized")
    assert_error(client.post(f"/v1/matches/{match_id}/resign"), 401, "unauthorized")


def test_action_routes_count_with_their_read_and_429_comes_first(redis_server):
    """/actions counts its request in the same round trip as its read of the
    match; a request that fails before that read (bad body) still counts,
    and over the limit 429 wins over 422 and 404 as it does elsewhere."""
    app = rate_limited_app(redis_server.url, RATE_LIMIT=4)
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = "198.51.100.21"  # its own address, as above
    created = create(client)  # counted for the client address, not the token
    match_id, token = created["match"]["id"], created["tokens"]["0"]
    path = f"/v1/matches/{match_id}/actions"
    assert client.get(path, headers=bearer(token)).status_code == 200
    assert client.get(path, headers=bearer(token)).status_code == 200
    assert_error(client.post(path, headers=bearer(token), json={"action": 5}), 422, "validation_error")
    assert client.get(path, headers=bearer(token)).status_code == 200  # the 4th: still allowed
    assert_error(client.post(path, headers=bearer(token), json={"action": 5}), 429, "rate_limited")
    response = client.get(path, headers=bearer(token))
    assert_error(response, 429, "rate_limited")
    assert 1 <= int(response.headers["Retry-After"]) <= 60
    assert_error(client.get("/v1/matches/nope/actions", headers=bearer(token)), 429, "rate_limited")
    # Another token has its own budget.
    assert client.get(path, headers=bearer(created["tokens"]["1"])).status_code == 200
