"""The move route's fast path answers exactly what the documented (flask-smorest) path does.

``POST /v1/matches/{id}/actions`` skips webargs and the marshmallow response
dump for plain requests (routes/playing.py, service/fast_dump.py). These
tests drive the same requests through both paths and compare what comes
back, byte for byte where the match is the same.
"""

import copy
import json
import random

import pytest

import engine
import service.routes.playing as playing_routes
from service.documents import _result
from service.fast_dump import UnsupportedSchema, compile_dump
from service.playing import Submission, submit_action
from service.schemas import ActionResultSchema, MatchSchema, ResultSchema

from .helpers import bearer, create, humans


@pytest.fixture
def documented_only(monkeypatch):
    """Turn the fast path off: every move goes through webargs and the schema dump."""
    monkeypatch.setattr(playing_routes, "_plain_arguments", lambda: None)


def _fast_path_taken(monkeypatch):
    """Count the requests the fast path served (to prove a test exercises it)."""
    taken = []
    real = playing_routes._plain_arguments

    def spy():
        arguments = real()
        taken.append(arguments is not None)
        return arguments

    monkeypatch.setattr(playing_routes, "_plain_arguments", spy)
    return taken


def _play(client, game_id, seed, moves, rng_seed):
    """Create a match with human seats and post ``moves`` random legal moves;
    returns the raw response bodies (bytes) and the match id."""
    game = engine.get_game(game_id)
    created = create(client, seats=humans(game.max_players), seed=seed, game=game_id)
    match_id = created["match"]["id"]
    rng = random.Random(rng_seed)
    bodies = []
    match = created["match"]
    for _ in range(moves):
        if not match["to_act"]:
            break
        token = created["tokens"][str(match["to_act"][0])]
        listed = client.get(f"/v1/matches/{match_id}/actions", headers=bearer(token)).get_json()
        response = client.post(f"/v1/matches/{match_id}/actions", headers=bearer(token),
                               json={"action": rng.choice(listed["actions"]),
                                     "version": listed["version"]})
        assert response.status_code == 200, response.get_json()
        assert response.mimetype == "application/json"
        bodies.append(response.get_data())
        match = response.get_json()["match"]
    return match_id, bodies


def _normalized(body, match_id):
    """The response bytes with what differs between two equal matches blanked:
    the match id and the timestamps (values of the same length in both)."""
    text = body.decode().replace(match_id, "<id>")
    match = json.loads(text)["match"]
    for key in ("created_at", "updated_at"):
        text = text.replace(match[key], "<time>")
    return text


@pytest.mark.parametrize("game_id", engine.list_games())
def test_fast_path_answers_the_same_bytes_as_the_documented_path(app, monkeypatch, game_id):
    taken = _fast_path_taken(monkeypatch)
    fast_id, fast = _play(app.test_client(), game_id, seed=11, moves=25, rng_seed=3)
    assert taken and all(taken)
    monkeypatch.setattr(playing_routes, "_plain_arguments", lambda: None)
    slow_id, slow = _play(app.test_client(), game_id, seed=11, moves=25, rng_seed=3)
    assert len(fast) == len(slow) > 0
    for a, b in zip(fast, slow, strict=True):
        assert _normalized(a, fast_id) == _normalized(b, slow_id)


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
    ({"action": {"type": "pass"}}, {"If-Match": '"999"'}),
]


@pytest.mark.parametrize(("body", "headers"), BAD_REQUESTS)
def test_refused_requests_get_the_same_answer_on_both_paths(app, client, monkeypatch, body, headers):
    created = create(client)
    match = created["match"]
    token = created["tokens"][str(match["to_act"][0])]
    url = f"/v1/matches/{match['id']}/actions"

    def post():
        response = client.post(url, headers={**bearer(token), **headers}, json=body)
        return response.status_code, response.get_json()

    fast = post()
    with monkeypatch.context() as patch:
        patch.setattr(playing_routes, "_plain_arguments", lambda: None)
        documented = post()
    assert fast == documented
    assert fast[0] >= 400
    after = client.get(f"/v1/matches/{match['id']}").get_json()
    assert after["version"] == match["version"]  # nothing was applied


ODD_BODIES = [
    b'\xef\xbb\xbf{"action": {"type": "pass"}}',  # UTF-8 BOM: json.loads skips it, webargs not
    b'{"action": {"type": "\xed\xa0\x80"}}',  # a surrogate: only json.loads' surrogatepass reads it
]


@pytest.mark.parametrize("raw", ODD_BODIES)
def test_bodies_webargs_would_read_differently_take_the_documented_path(client, monkeypatch, raw):
    taken = _fast_path_taken(monkeypatch)
    created = create(client)
    match = created["match"]
    token = created["tokens"][str(match["to_act"][0])]

    def post():
        response = client.post(f"/v1/matches/{match['id']}/actions", data=raw,
                               headers={**bearer(token), "Content-Type": "application/json"})
        return response.status_code, response.get_json()

    fast = post()
    assert taken == [False]
    with monkeypatch.context() as patch:
        patch.setattr(playing_routes, "_plain_arguments", lambda: None)
        assert post() == fast
    assert fast[0] >= 400


def test_a_utf8_body_takes_the_fast_path(client, monkeypatch):
    taken = _fast_path_taken(monkeypatch)
    created = create(client)
    match = created["match"]
    token = created["tokens"][str(match["to_act"][0])]
    response = client.post(f"/v1/matches/{match['id']}/actions", headers=bearer(token),
                           data='{"action": {"type": "caf\u00e9"}}'.encode(),
                           content_type="application/json")
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
    outcome = {"winners": [1], "reason": "three_victory_points", "scores": {"0": 1, "1": 3},
               "extra": "not in the schema"}
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
