"""The move lane answers exactly what the documented (Flask, flask-smorest) path does.

A plain ``POST /v1/matches/{id}/actions`` is answered by service/http/move_lane.py
in front of Flask (no webargs, no marshmallow dump: service/spec/fast_dump.py).
These tests drive the same requests through both lanes and compare what comes
back: status, headers and bytes.
"""

import copy
import json
import random

import pytest
from marshmallow import ValidationError

import engine
import service.http.move_lane as move_lane
from service.http.move_lane import plain_arguments
from service.model.documents import _result
from service.play.moves import Submission, submit_action
from service.spec.fast_dump import UnsupportedSchema, compile_dump
from service.spec.play_schemas import ActionHeadersSchema, ActionResultSchema, PostActionSchema
from service.spec.schemas import MAX_SEED, MatchSchema, ResultSchema

from .conftest import make_app
from .helpers import bearer, create, humans


def _flask_only(patch):
    """Close the lane: every move goes through Flask, webargs and the schema dump."""
    patch.setattr(move_lane, "plain_move", lambda environ, max_length: None)


def _lane_taken(monkeypatch):
    """Record, per move request, whether the lane took it (to prove a test exercises it)."""
    taken = []
    real = move_lane.plain_move

    def spy(environ, max_length):
        move = real(environ, max_length)
        if environ["REQUEST_METHOD"] == "POST" and environ["PATH_INFO"].endswith("/actions"):
            taken.append(move is not None)
        return move

    monkeypatch.setattr(move_lane, "plain_move", spy)
    return taken


def _play(client, game_id, seed, moves, rng_seed):
    """Create a match with human seats and post ``moves`` random legal moves;
    returns the responses (status, headers, bytes) and the match id."""
    game = engine.get_game(game_id)
    created = create(client, seats=humans(game.max_players), seed=seed, game=game_id)
    match_id = created["match"]["id"]
    rng = random.Random(rng_seed)
    answers = []
    match = created["match"]
    for _ in range(moves):
        if not match["to_act"]:
            break
        token = created["tokens"][str(match["to_act"][0])]
        listed = client.get(f"/v1/matches/{match_id}/actions", headers=bearer(token)).get_json()
        response = client.post(
            f"/v1/matches/{match_id}/actions",
            headers=bearer(token),
            json={"action": rng.choice(listed["actions"]), "version": listed["version"]},
        )
        assert response.status_code == 200, response.get_json()
        answers.append(_whole(response))
        match = response.get_json()["match"]
    return match_id, answers


def _whole(response):
    """Everything a client receives: status line, headers in order (the
    X-Request-ID, new for each request, blanked), body."""
    headers = [
        (name, "<request-id>" if name == "X-Request-ID" else value)
        for name, value in response.headers.items()
    ]
    return response.status, headers, response.get_data()


def _normalized(answer, match_id):
    """An answer with what differs between two equal matches blanked: the match
    id and the timestamps, turn-timer deadlines included (values of the same
    length in both)."""
    status, headers, body = answer
    text = body.decode().replace(match_id, "<id>")
    match = json.loads(text)["match"]
    for when in [match["created_at"], match["updated_at"], *match["deadlines"].values()]:
        text = text.replace(when, "<time>")
    return status, headers, text


@pytest.mark.parametrize("game_id", engine.list_games())
def test_the_lane_answers_the_same_bytes_as_flask(app, monkeypatch, game_id):
    taken = _lane_taken(monkeypatch)
    lane_id, lane = _play(app.test_client(), game_id, seed=11, moves=25, rng_seed=3)
    assert taken and all(taken)
    _flask_only(monkeypatch)
    flask_id, flask = _play(app.test_client(), game_id, seed=11, moves=25, rng_seed=3)
    assert len(lane) == len(flask) > 0
    for a, b in zip(lane, flask, strict=True):
        assert _normalized(a, lane_id) == _normalized(b, flask_id)


BAD_REQUESTS = [
    ({"action": {"type": "pass"}, "version": 1, "extra": 1}, {}),
    ({"action": {"type": "pass"}, "version": True}, {}),
    ({"action": {"type": "pass"}, "version": -1}, {}),
    ({"action": {"type": "pass"}, "version": "1"}, {}),
    ({"action": {"type": "pass"}, "version": 1.0}, {}),
    ({"action": {"type": "pass"}, "version": 1 << 63}, {}),
    ({"action": {"type": "pass"}, "version": None}, {}),
    ({"action": ["pass"]}, {}),
    ({"action": None}, {}),
    ({"version": 1}, {}),
    ({}, {}),
    ({"action": {"type": "no_such_action"}}, {}),
    ({"action": {"type": "pass"}}, {"Idempotency-Key": "x" * 256}),
    ({"action": {"type": "pass"}}, {"Idempotency-Key": ""}),
    ({"action": {"type": "pass"}}, {"If-Match": '"999"'}),
    ({"action": {"type": "pass"}, "version": 999}, {}),
    ({"action": {"type": "pass"}}, {"Authorization": "Bearer not-a-token"}),
    ({"action": {"type": "pass"}}, {"Authorization": ""}),
    ({"action": {"type": "pass"}}, {"Content-Type": "text/plain"}),
    ({"action": {"type": "pass"}}, {"Content-Type": "application/json; charset=utf-8"}),
]


@pytest.mark.parametrize(("body", "headers"), BAD_REQUESTS)
def test_refused_requests_get_the_same_answer_in_both_lanes(client, monkeypatch, body, headers):
    created = create(client)
    match = created["match"]
    token = created["tokens"][str(match["to_act"][0])]
    url = f"/v1/matches/{match['id']}/actions"

    def post():
        response = client.post(
            url,
            data=json.dumps(body),
            headers={**bearer(token), "Content-Type": "application/json", **headers},
        )
        return _whole(response)

    lane = post()
    with monkeypatch.context() as patch:
        _flask_only(patch)
        flask = post()
    assert lane == flask
    assert int(lane[0].split()[0]) >= 400
    after = client.get(f"/v1/matches/{match['id']}").get_json()
    assert after["version"] == match["version"]  # nothing was applied


def test_other_matches_and_unknown_matches_are_refused_alike(client, monkeypatch):
    first, second = create(client), create(client)
    token = first["tokens"][str(first["match"]["to_act"][0])]
    body = {"action": {"type": "pass"}}
    answers = []
    for closed in (False, True):
        with monkeypatch.context() as patch:
            if closed:
                _flask_only(patch)
            answers.append(
                [
                    _whole(client.post(f"/v1/matches/{match_id}/actions", json=body, headers=bearer(token)))
                    for match_id in (second["match"]["id"], "no-such-match")
                ]
            )
    assert answers[0] == answers[1]
    assert [a[0] for a in answers[0]] == ["403 FORBIDDEN", "404 NOT FOUND"]


def test_an_unexpected_error_in_the_lane_is_the_apps_500(redis_server, monkeypatch, caplog):
    app = make_app(redis_server.url)
    client = app.test_client()
    created = create(client)
    token = created["tokens"][str(created["match"]["to_act"][0])]

    def explode(*args, **kwargs):
        raise RuntimeError("secret internals")

    monkeypatch.setattr(move_lane, "play_move", explode)
    response = client.post(
        f"/v1/matches/{created['match']['id']}/actions",
        json={"action": {"type": "pass"}},
        headers=bearer(token),
    )
    assert response.status_code == 500
    assert response.get_json() == {"error": "internal_error", "message": "internal error", "details": {}}
    assert "secret internals" in caplog.text  # logged for operators, not shown


def test_the_lane_counts_for_the_rate_limit_as_flask_does(redis_server, monkeypatch):
    """Per token, a move counts once whichever lane answers it; over the limit
    both answer the same 429 before anything else."""
    answers = []
    for closed in (False, True):
        app = make_app(redis_server.url, RATE_LIMIT=3, RATE_LIMIT_WINDOW_S=3600)
        client = app.test_client()
        created = create(client)
        match = created["match"]
        token = created["tokens"][str(match["to_act"][0])]
        with monkeypatch.context() as patch:
            if closed:
                _flask_only(patch)
            taken = _lane_taken(patch) if not closed else None
            codes = [
                client.post(
                    f"/v1/matches/{match['id']}/actions",
                    headers=bearer(token),
                    json={"action": {"type": "no_such_action"}},
                ).status_code
                for _ in range(4)
            ]
        if taken is not None:
            assert taken == [True] * 4
        answers.append(codes)
    assert answers[0] == answers[1] == [422, 422, 422, 429]


def test_a_body_over_the_limit_goes_to_flask(redis_server, monkeypatch):
    app = make_app(redis_server.url, MAX_CONTENT_LENGTH=200)
    client = app.test_client()
    created = create(client, seats=[{"kind": "human"}] * 4)
    token = created["tokens"]["0"]
    taken = _lane_taken(monkeypatch)
    response = client.post(
        f"/v1/matches/{created['match']['id']}/actions",
        headers=bearer(token),
        json={"action": {"type": "pass", "pad": "x" * 300}},
    )
    assert taken == [False]
    assert response.status_code == 413
    assert response.get_json()["error"] == "payload_too_large"


ODD_BODIES = [
    b'\xef\xbb\xbf{"action": {"type": "pass"}}',  # UTF-8 BOM: json.loads skips it, webargs not
    b'{"action": {"type": "\xed\xa0\x80"}}',  # a surrogate: only json.loads' surrogatepass reads it
    b'{"action": {"type": "pass"}',  # not JSON
    b"[1, 2]",  # not an object
    b'{"a": ' * 3000,  # too deep for json.loads
]


@pytest.mark.parametrize("raw", ODD_BODIES)
def test_bodies_webargs_would_read_differently_go_to_flask(client, monkeypatch, raw):
    taken = _lane_taken(monkeypatch)
    created = create(client)
    match = created["match"]
    token = created["tokens"][str(match["to_act"][0])]

    def post():
        response = client.post(
            f"/v1/matches/{match['id']}/actions",
            data=raw,
            headers={**bearer(token), "Content-Type": "application/json"},
        )
        return _whole(response)

    lane = post()
    assert taken == [False]
    with monkeypatch.context() as patch:
        _flask_only(patch)
        assert post() == lane
    assert 400 <= int(lane[0].split()[0]) < 500


def test_a_utf8_body_takes_the_lane(client, monkeypatch):
    taken = _lane_taken(monkeypatch)
    created = create(client)
    match = created["match"]
    token = created["tokens"][str(match["to_act"][0])]
    response = client.post(
        f"/v1/matches/{match['id']}/actions",
        headers=bearer(token),
        data='{"action": {"type": "caf\u00e9"}}'.encode(),
        content_type="application/json",
    )
    assert response.status_code == 422  # no such action type, from validate_action
    assert taken == [True]


# --- compile_dump against marshmallow's dump ------------------------------------


def _responses(services, client, game_id, moves):
    """Raw operation results (dicts, before any dump) of ``moves`` random moves."""
    game = engine.get_game(game_id)
    created = create(client, seats=humans(game.max_players), seed=5, game=game_id)
    match_id = created["match"]["id"]
    rng = random.Random(9)
    out = []
    for _ in range(moves):
        stored = services.store.load(match_id)
        if not stored.doc["to_act"]:
            break
        seat = stored.doc["to_act"][0]
        actions = game.legal_actions(game.load(stored.state), seat)
        out.append(submit_action(services, match_id, Submission(seat, rng.choice(actions))))
    return out


@pytest.mark.parametrize("game_id", engine.list_games())
def test_compiled_dump_equals_the_schema_dump_on_real_responses(services, client, game_id):
    schema = ActionResultSchema()
    dump = compile_dump(schema)
    results = _responses(services, client, game_id, 30)
    assert results
    for result in results:
        fast, slow = dump(result), schema.dump(result)
        assert fast == slow
        assert list(fast["match"]) == list(slow["match"])  # same key order, same JSON


def test_compiled_dump_reorders_filters_and_converts_like_marshmallow(services, client):
    result = _responses(services, client, "anno1503", 1)[0]
    match = copy.deepcopy(result["match"])
    outcome = {
        "winners": [1],
        "reason": "three_victory_points",
        "scores": {"0": 1, "1": 3},
        "extra": "not in the schema",
    }
    match["seats"][0]["resigned"] = True
    match["result"] = _result(match, outcome)  # keys in another order than ResultSchema
    match["surplus"] = "dropped by the schema"
    match["turn_timeout_s"] = 300.0  # Integer: int(300.0)
    del match["updated_at"]  # missing keys are left out
    schema = MatchSchema()
    fast, slow = compile_dump(schema)(match), schema.dump(match)
    assert fast == slow
    assert list(fast) == list(slow)
    assert list(fast["result"]) == list(ResultSchema().dump(match["result"]))
    assert type(fast["turn_timeout_s"]) is int


def test_compile_dump_refuses_what_it_cannot_reproduce():
    import marshmallow as ma

    class WithDefault(ma.Schema):
        n = ma.fields.Integer(dump_default=3)

    class WithHook(ma.Schema):
        n = ma.fields.Integer()

        @ma.post_dump
        def twice(self, data, **kwargs):
            return data

    for schema in (WithDefault(), WithHook(), MatchSchema(many=True)):
        with pytest.raises(UnsupportedSchema):
            compile_dump(schema)


GOOD_REQUESTS = [
    ({"action": {"type": "pass"}}, {}),
    ({"action": {"type": "pass"}, "version": 0}, {"Idempotency-Key": "k"}),
    ({"action": {"type": "pass"}, "version": MAX_SEED}, {"Idempotency-Key": "x" * 255, "If-Match": '"3"'}),
]


@pytest.mark.parametrize(("body", "headers"), GOOD_REQUESTS + BAD_REQUESTS)
def test_the_lanes_argument_check_is_the_routes_schemas(body, headers):
    """plain_arguments accepts exactly what the route's two argument schemas
    load, with their result: its rules are the schemas', not restated."""
    try:
        expected = (
            ActionHeadersSchema().load(
                {k: v for k, v in headers.items() if k in ("If-Match", "Idempotency-Key")}
            ),
            PostActionSchema().load(body),
        )
    except ValidationError:
        expected = None
    assert plain_arguments(body, headers.get) == expected
