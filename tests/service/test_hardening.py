"""Hardening: odd bodies and odd pages answered in the contract's shape, never a 500.

Through the WSGI test client; tests/service/test_live_gunicorn.py covers
what only a real gunicorn shows (chunked bodies, gunicorn's own errors).
"""

import io
import json

import pytest

import engine
import service.http.move_lane as move_lane
from service.http import bodies
from service.spec.schemas import MAX_SEATS

from .helpers import bearer, create

ERROR_KEYS = {"error", "message", "details"}
LONE = "\\ud800"  # as written in a JSON body: a lone (high) surrogate


def _error(response, status, code):
    assert response.status_code == status, response.get_data(as_text=True)
    body = response.get_json()
    assert set(body) == ERROR_KEYS, body
    assert body["error"] == code, body
    return body


def _post_raw(client, url, text, headers=None):
    return client.post(url, data=text.encode(), content_type="application/json", headers=headers or {})


def _lobby_total(client):
    return json.loads(client.get("/v1/matches").headers["X-Pagination"])["total"]


def _whole(response):
    # Everything but the request id, which is new for each request.
    headers = [(name, value) for name, value in response.headers.items() if name != "X-Request-ID"]
    return response.status, headers, response.get_data()


def _flask_only(patch):
    patch.setattr(move_lane, "plain_move", lambda environ, max_length: None)


# --- 1. lone surrogates ------------------------------------------------------


def test_a_lone_surrogate_in_a_seat_name_is_422_on_create(client):
    before = _lobby_total(client)
    text = '{"game": "anno1503", "seats": [{"kind": "human", "name": "A' + LONE + '"}, {"kind": "human"}]}'
    body = _error(_post_raw(client, "/v1/matches", text), 422, "validation_error")
    assert list(body["details"]["fields"]["json"]["seats"]["0"]) == ["name"]
    assert "\\ud800" in body["details"]["fields"]["json"]["seats"]["0"]["name"][0]
    assert _lobby_total(client) == before  # nothing created


def test_a_lone_surrogate_in_a_join_name_is_422_and_the_seat_stays_open(client):
    created = create(client, seats=[{"kind": "human", "name": "Ada"}, {"kind": "open"}])
    match_id = created["match"]["id"]
    text = '{"name": "' + LONE + 'x", "seat": 1}'
    body = _error(_post_raw(client, f"/v1/matches/{match_id}/join", text), 422, "validation_error")
    assert set(body["details"]["fields"]["json"]) == {"name"}
    after = client.get(f"/v1/matches/{match_id}").get_json()
    assert after["version"] == created["match"]["version"]
    assert after["seats"][1]["kind"] == "open"


@pytest.mark.parametrize(
    ("text", "path"),
    [
        ('{"game": "anno1503", "options": {"expansion": "\\udc00"}, "seats": []}', ["options", "expansion"]),
        (
            '{"game": "anno1503", "seats": [], "options": {"a": [{"b": ["ok", "' + LONE + '"]}]}}',
            ["options", "a", "0", "b", "1"],
        ),
        (
            '{"game": "anno1503", "seats": [], "options": {"' + LONE + '": 1}}',
            ["options", "\\ud800"],
        ),  # a key: named by its JSON escape
    ],
)
def test_the_422_names_the_field_path_anywhere_in_the_body(client, text, path):
    body = _error(_post_raw(client, "/v1/matches", text), 422, "validation_error")
    node = body["details"]["fields"]["json"]
    for key in path:
        node = node[key]
    assert isinstance(node, list) and node


def test_surrogate_pairs_and_escaped_backslashes_are_fine(client):
    text = (
        '{"game": "anno1503", "seats": [{"kind": "human", "name": "\\ud83d\\ude00"}, '
        '{"kind": "human", "name": "\\\\ud800"}]}'
    )
    response = _post_raw(client, "/v1/matches", text)
    assert response.status_code == 201, response.get_json()
    names = [seat["name"] for seat in response.get_json()["match"]["seats"]]
    assert names == ["\U0001f600", "\\ud800"]


@pytest.mark.parametrize(
    "text",
    [
        '{"action": {"type": "' + LONE + '"}}',
        '{"action": {"type": "pass", "' + LONE + '": 1}, "version": 0}',
    ],
)
def test_a_lone_surrogate_in_a_move_is_refused_alike_by_both_lanes(client, monkeypatch, text):
    created = create(client)
    match = created["match"]
    token = created["tokens"][str(match["to_act"][0])]
    url = f"/v1/matches/{match['id']}/actions"
    lane = _whole(_post_raw(client, url, text, bearer(token)))
    with monkeypatch.context() as patch:
        _flask_only(patch)
        flask = _whole(_post_raw(client, url, text, bearer(token)))
    assert lane == flask
    assert lane[0] == "422 UNPROCESSABLE ENTITY"
    body = json.loads(lane[2])
    assert body["error"] == "validation_error" and "action" in body["details"]["fields"]["json"]
    assert client.get(f"/v1/matches/{match['id']}").get_json()["version"] == match["version"]


def test_the_lane_hands_a_surrogate_body_to_flask(monkeypatch):
    seen = []
    real = move_lane.plain_move

    def spy(environ, max_length):
        move = real(environ, max_length)
        seen.append(move)
        return move

    monkeypatch.setattr(move_lane, "plain_move", spy)
    raw = ('{"action": {"type": "' + LONE + '"}}').encode()
    environ = {
        "REQUEST_METHOD": "POST",
        "PATH_INFO": "/v1/matches/abc/actions",
        "CONTENT_TYPE": "application/json",
        "CONTENT_LENGTH": str(len(raw)),
        "HTTP_AUTHORIZATION": "Bearer t",
        "wsgi.input": io.BytesIO(raw),
    }
    assert move_lane.plain_move(environ, 65536) is None
    assert environ["wsgi.input"].read() == raw  # handed on whole


def test_one_parser_for_checks_webargs_and_the_lane():
    assert bodies.json_object(b'{"a": [1.0, 2.5, 1e2, -0.0]}') == {"a": [1, 2.5, 100, 0]}
    assert type(bodies.json_object(b'{"a": 1e30}')["a"]) is float  # huge: stays a float
    for raw in (b'{"a": NaN}', b'{"a": Infinity}', b"\xef\xbb\xbf{}", b"[1]", b'{"a": "\xff"}'):
        with pytest.raises(bodies.ApiError) as refused:
            bodies.json_object(raw)
        assert refused.value.status == 400
    with pytest.raises(bodies.ApiError) as refused:
        bodies.json_object(b'{"a": {"b": "\\udfff"}}')
    assert refused.value.status == 422
    assert refused.value.details == {
        "fields": {"json": {"a": {"b": ["not valid Unicode: lone surrogate \\udfff"]}}}
    }


# --- integers as JSON Schema reads them ---------------------------------------


def test_whole_numbers_written_with_a_fraction_are_integers(client, monkeypatch):
    created = client.post(
        "/v1/matches",
        json={
            "game": "anno1503",
            "seed": 5.0,
            "dice": "reproducible",
            "turn_timeout_s": 6e1,
            "seats": [{"kind": "human"}, {"kind": "open"}],
        },
    )
    assert created.status_code == 201, created.get_json()
    match = created.get_json()["match"]
    assert match["turn_timeout_s"] == 60
    joined = client.post(f"/v1/matches/{match['id']}/join", json={"seat": 1.0})
    assert joined.status_code == 201 and joined.get_json()["seat"] == 1
    playing = create(client)
    token = playing["tokens"][str(playing["match"]["to_act"][0])]
    url = f"/v1/matches/{playing['match']['id']}/actions"
    text = '{"action": {"type": "no_such_action"}, "version": 0.0}'
    lane = _whole(_post_raw(client, url, text, bearer(token)))
    with monkeypatch.context() as patch:
        _flask_only(patch)
        assert _whole(_post_raw(client, url, text, bearer(token))) == lane
    assert lane[0] == "422 UNPROCESSABLE ENTITY"  # the action, not the version
    assert "type" in json.loads(lane[2])["details"]["fields"]
    half = client.post(f"/v1/matches/{match['id']}/join", json={"seat": 0.5})
    assert _error(half, 422, "validation_error")["details"]["fields"]["json"]["seat"]


# --- actions: a malformed body before the match's state -----------------------


def test_a_malformed_action_is_422_even_with_a_stale_if_match(client):
    created = create(client)
    match = created["match"]
    token = created["tokens"][str(match["to_act"][0])]
    response = client.post(
        f"/v1/matches/{match['id']}/actions",
        json={"action": {"type": "discard_card"}},
        headers={**bearer(token), "If-Match": '"999"'},
    )
    _error(response, 422, "validation_error")


def test_an_action_of_another_game_is_409_other_game_action(client):
    game = engine.get_game("anno1452")
    state = game.setup(3, {}, 1)
    foreign = game.legal_actions(state, game.to_act(state)[0])[0]
    created = create(client)  # an Anno 1503 match
    match = created["match"]
    token = created["tokens"][str(match["to_act"][0])]
    response = client.post(
        f"/v1/matches/{match['id']}/actions", json={"action": foreign}, headers=bearer(token)
    )
    body = _error(response, 409, "illegal_action")
    assert body["details"]["reason"] == "other_game_action"
    assert client.get(f"/v1/matches/{match['id']}").get_json()["version"] == match["version"]


# --- seats and joins as documented ----------------------------------------------


def test_an_open_seat_with_a_level_is_422_and_an_ai_seat_takes_one(client):
    seats = [{"kind": "human"}, {"kind": "open", "level": "easy"}]
    body = _error(
        client.post("/v1/matches", json={"game": "anno1503", "seats": seats}), 422, "validation_error"
    )
    assert body["details"]["fields"]["json"]["seats"]["1"] == {"level": ["Unknown field."]}
    seats = [{"kind": "human"}, {"kind": "ai", "level": "easy", "name": "Bot"}]
    assert client.post("/v1/matches", json={"game": "anno1503", "seats": seats}).status_code == 201


def test_join_seat_maximum_is_the_most_seats_of_any_game(client):
    created = create(client, seats=[{"kind": "human"}, {"kind": "open"}])
    match_id = created["match"]["id"]
    over = client.post(f"/v1/matches/{match_id}/join", json={"seat": MAX_SEATS})
    assert "seat" in _error(over, 422, "validation_error")["details"]["fields"]["json"]
    joined = client.post(f"/v1/matches/{match_id}/join")  # no body: the lowest open seat
    assert joined.status_code == 201 and joined.get_json()["seat"] == 1


# --- 2. pages past the end -------------------------------------------------------


@pytest.mark.parametrize(
    "query",
    [
        "page=10000",  # MAX_PAGE, service/http/routes/common.py
        "page=10000&page_size=100&status=waiting&game=anno1503",
        "page=3",
    ],
)
def test_a_page_past_the_end_is_an_empty_200(client, query):
    create(client)
    response = client.get(f"/v1/matches?{query}")
    assert response.status_code == 200, response.get_data(as_text=True)
    assert response.get_json() == []
    pagination = json.loads(response.headers["X-Pagination"])
    assert pagination["total"] in (0, 1) and "page" not in pagination


@pytest.mark.parametrize(
    "query", ["page=10001", "page=9223372036854775808&page_size=100", f"page={10**40}&status=waiting"]
)
def test_a_page_past_the_bound_is_422(client, query):
    response = client.get(f"/v1/matches?{query}")
    assert response.status_code == 422, response.get_data(as_text=True)
    assert "page" in response.get_json()["details"]["fields"]["query"]


def test_lobby_page_never_sends_redis_an_out_of_range_index(services):
    assert services.store.lobby_page(None, None, 1 << 70, 100) == ([], 0)
    assert services.store.lobby_page("waiting", None, (1 << 63) - 1, 1 << 63) == ([], 0)


# --- 3. chunked bodies get a length (the live test drives a real gunicorn) -------


def _chunked_environ(body):
    return {"REQUEST_METHOD": "POST", "HTTP_TRANSFER_ENCODING": "chunked", "wsgi.input": io.BytesIO(body)}


def test_a_chunked_body_within_the_limit_gets_its_length():
    environ = _chunked_environ(b"x" * 100)
    bodies.size_unsized_body(environ, 1000)
    assert environ["CONTENT_LENGTH"] == "100" and "HTTP_TRANSFER_ENCODING" not in environ
    assert environ["wsgi.input"].read() == b"x" * 100


def test_a_chunked_body_over_the_limit_gets_a_length_over_it():
    environ = _chunked_environ(b"x" * 5000)
    bodies.size_unsized_body(environ, 1000)
    assert environ["CONTENT_LENGTH"] == "1001"  # read no further than that


def test_a_sized_body_is_left_alone():
    environ = {**_chunked_environ(b"abc"), "CONTENT_LENGTH": "3"}
    stream = environ["wsgi.input"]
    bodies.size_unsized_body(environ, 1000)
    assert environ["wsgi.input"] is stream and environ["HTTP_TRANSFER_ENCODING"] == "chunked"
