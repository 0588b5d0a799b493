"""Seats bound to accounts (docs/accounts.md, "Seats"): created and joined
with an account token, one seat of a match per account, the account token
acting for its seat on every match route, the scope matrix of the match
routes, and the move lane answering account-token moves byte for byte as Flask.
"""

import json
import random

import pytest

import engine
from service.model.accounts import SCOPES

from .helpers import bearer
from .test_accounts import account_token, sign_up
from .test_move_lane import _flask_only, _lane_taken, _normalized, _whole

OPEN_MATCH = [{"kind": "human", "name": "Ada"}, {"kind": "open"}]


def new_match(client, token, seats=None, game="anno1503", seed=7):
    body = {"game": game, "seats": seats or OPEN_MATCH, "seed": seed, "dice": "reproducible"}
    response = client.post("/v1/matches", json=body, headers=bearer(token))
    assert response.status_code == 201, response.json
    return response.json


def seated_pair(client, game="anno1503", seed=7, ada=None, bo=None):
    """A match of Ada (seat 0, creator) and Bo (seat 1, joined): ``(match id, {seat: token})``."""
    ada = ada or account_token(client, "Ada")
    bo = bo or account_token(client, "Bo")
    created = new_match(client, ada, game=game, seed=seed)
    match_id = created["match"]["id"]
    joined = client.post(f"/v1/matches/{match_id}/join", json={"name": "Bo"}, headers=bearer(bo))
    assert joined.status_code == 201, joined.json
    return match_id, {0: ada, 1: bo}


def test_create_and_join_bind_the_seats_and_still_issue_seat_tokens(client):
    match_id, tokens = seated_pair(client)
    match = client.get(f"/v1/matches/{match_id}").json
    assert [s["account"] for s in match["seats"]] == [
        {"name": "Ada", "kind": "human"},
        {"name": "Bo", "kind": "human"},
    ]
    assert "account_id" not in str(match)
    assert client.get(f"/v1/matches/{match_id}", headers=bearer(tokens[0])).json["you"] == 0
    assert client.get(f"/v1/matches/{match_id}", headers=bearer(tokens[1])).json["you"] == 1
    created = new_match(client, tokens[0])
    assert set(created["tokens"]) == {"0"}  # the seat token, as for anonymous clients
    seat_view = client.get(f"/v1/matches/{created['match']['id']}", headers=bearer(created["tokens"]["0"]))
    assert seat_view.json["you"] == 0


def test_an_account_holds_at_most_one_seat_of_a_match(client):
    ada = account_token(client, "Ada")
    created = new_match(client, ada, seats=[{"kind": "human"}, {"kind": "open"}, {"kind": "open"}])
    again = client.post(f"/v1/matches/{created['match']['id']}/join", json={}, headers=bearer(ada))
    assert again.status_code == 409 and again.json["error"] == "already_seated"
    assert again.json["details"]["seat"] == 0
    anonymous = client.post(f"/v1/matches/{created['match']['id']}/join", json={})
    assert anonymous.status_code == 201


def test_an_account_match_needs_a_human_seat(client):
    ada = account_token(client, "Ada")
    body = {"game": "anno1503", "seats": [{"kind": "ai"}, {"kind": "ai"}]}
    response = client.post("/v1/matches", json=body, headers=bearer(ada))
    assert response.status_code == 422 and "seats" in response.json["details"]["fields"]


def _reads(client, match_id):
    base = f"/v1/matches/{match_id}"
    return {
        "getMatch": lambda h: client.get(base, headers=h),
        "listActions": lambda h: client.get(f"{base}/actions", headers=h),
        "listEvents": lambda h: client.get(f"{base}/events", headers=h),
        "getBoard": lambda h: client.get(f"{base}/board.svg", headers=h),
        "streamTicket": lambda h: client.post(f"{base}/stream-ticket", headers=h),
        "stream": lambda h: _stream_status(client, f"{base}/stream", h),
    }


def _writes(client, match_id, action):
    base = f"/v1/matches/{match_id}"
    return {
        "postAction": lambda h: client.post(f"{base}/actions", json={"action": action}, headers=h),
        "rematch": lambda h: client.post(f"{base}/rematch", headers=h),
        "resign": lambda h: client.post(f"{base}/resign", headers=h),
    }


def _status(answer):
    return answer if isinstance(answer, int) else answer.status_code


def _stream_status(client, path, headers):
    response = client.get(path, headers={**headers, "Accept": "application/x-ndjson"}, buffered=False)
    status = response.status_code
    response.close()
    return status


def test_the_account_token_acts_for_its_seat_on_every_match_route(client):
    match_id, tokens = seated_pair(client)
    seat = client.get(f"/v1/matches/{match_id}").json["to_act"][0]
    for name, call in _reads(client, match_id).items():
        assert _status(call(bearer(tokens[seat]))) in (200, 201), name
    assert client.get(f"/v1/matches/{match_id}/actions", headers=bearer(tokens[seat])).json["seat"] == seat
    action = client.get(f"/v1/matches/{match_id}/actions", headers=bearer(tokens[seat])).json["actions"][0]
    moved = client.post(
        f"/v1/matches/{match_id}/actions", json={"action": action}, headers=bearer(tokens[seat])
    )
    assert moved.status_code == 200 and moved.json["match"]["you"] == seat
    resigned = client.post(f"/v1/matches/{match_id}/resign", headers=bearer(tokens[1]))
    assert resigned.status_code == 200 and resigned.json["seats"][1]["resigned"]
    after = client.post(f"/v1/matches/{match_id}/resign", headers=bearer(tokens[1]))
    assert after.status_code == 403  # the seat is the AI's now
    early = client.post(f"/v1/matches/{match_id}/rematch", headers=bearer(tokens[0]))
    assert early.status_code == 409 and early.json["details"]["reason"] == "match_not_finished"


def test_an_account_token_is_refused_on_a_match_where_it_holds_no_seat(client):
    match_id, _ = seated_pair(client)
    cy = account_token(client, "Cy")
    for name, call in {**_reads(client, match_id), **_writes(client, match_id, {"type": "pass"})}.items():
        assert _status(call(bearer(cy))) == 403, name
    unknown = client.get(f"/v1/matches/{match_id}", headers=bearer("tab_pat_" + "x" * 43))
    assert unknown.status_code == 401


ROUTE_SCOPES = {
    "getMatch": "match:read",
    "listActions": "match:read",
    "listEvents": "match:read",
    "getBoard": "match:read",
    "streamTicket": "match:read",
    "stream": "match:read",
    "postAction": "match:play",
    "rematch": "match:play",
    "resign": "match:play",
}


@pytest.mark.parametrize("scope", ["match:read", "match:play", "match:create"])
def test_each_match_route_is_refused_without_its_scope(client, scope):
    ada = account_token(client, "Ada")
    match_id, _ = seated_pair(client, ada=ada)
    lacking = _minted(client, ada, [s for s in SCOPES if s != scope])
    routes = {**_reads(client, match_id), **_writes(client, match_id, {"type": "pass"})}
    for name, call in routes.items():
        answer = call(bearer(lacking))
        status = _status(answer)
        if ROUTE_SCOPES[name] == scope:
            assert status == 403, name
            if not isinstance(answer, int):
                assert answer.json["details"]["missing_scope"] == scope, name
        else:
            assert status != 403, (name, status)
    created = client.post(
        "/v1/matches", json={"game": "anno1503", "seats": OPEN_MATCH}, headers=bearer(lacking)
    )
    assert created.status_code == (403 if scope == "match:create" else 201)
    other = new_match(client, account_token(client, "Cy"))
    joined = client.post(f"/v1/matches/{other['match']['id']}/join", json={}, headers=bearer(lacking))
    assert joined.status_code == (403 if scope == "match:play" else 201)


def _minted(client, token, scopes):
    body = {"label": "less", "scopes": scopes}
    minted = client.post("/v1/account/tokens", json=body, headers=bearer(token))
    assert minted.status_code == 201, minted.json
    return minted.json["token"]


def _play_as_accounts(client, tokens, game_id, moves, seed):
    match_id, tokens = seated_pair(client, game=game_id, seed=11, ada=tokens[0], bo=tokens[1])
    rng = random.Random(seed)
    answers = []
    match = client.get(f"/v1/matches/{match_id}").json
    for _ in range(moves):
        if not match["to_act"]:
            break
        token = tokens[match["to_act"][0]]
        listed = client.get(f"/v1/matches/{match_id}/actions", headers=bearer(token)).json
        response = client.post(
            f"/v1/matches/{match_id}/actions",
            headers=bearer(token),
            json={"action": rng.choice(listed["actions"]), "version": listed["version"]},
        )
        assert response.status_code == 200, response.json
        answers.append(_whole(response))
        match = response.json["match"]
    return match_id, answers


def test_the_lane_answers_account_token_moves_as_flask_does(app, monkeypatch):
    client = app.test_client()
    tokens = [account_token(client, "Ada"), account_token(client, "Bo")]
    game_id = "anno1503"
    assert engine.get_game(game_id).max_players >= 2
    taken = _lane_taken(monkeypatch)
    lane_id, lane = _play_as_accounts(client, tokens, game_id, 20, 3)
    assert taken and all(taken)
    _flask_only(monkeypatch)
    flask_id, flask = _play_as_accounts(client, tokens, game_id, 20, 3)
    assert len(lane) == len(flask) > 0
    for a, b in zip(lane, flask, strict=True):
        assert _normalized(a, lane_id) == _normalized(b, flask_id)


def test_seat_tokens_keep_working_beside_account_seats(client):
    ada = account_token(client, "Ada")
    created = new_match(client, ada)
    match_id = created["match"]["id"]
    seat_token = created["tokens"]["0"]
    joined = client.post(f"/v1/matches/{match_id}/join", json={})
    assert joined.status_code == 201
    assert client.get(f"/v1/matches/{match_id}/actions", headers=bearer(seat_token)).json["seat"] == 0
    assert sign_up(client, "Ada").status_code == 409


def test_a_stream_ticket_of_an_account_token_opens_its_seats_stream(client):
    match_id, tokens = seated_pair(client)
    ticket = client.post(f"/v1/matches/{match_id}/stream-ticket", headers=bearer(tokens[1])).json["ticket"]
    response = client.get(
        f"/v1/matches/{match_id}/stream?ticket={ticket}",
        headers={"Accept": "application/x-ndjson"},
        buffered=False,
    )
    try:
        assert response.status_code == 200
        line = next(iter(response.response))
        first = json.loads(line)
    finally:
        response.close()
    assert first["id"] == match_id and first["you"] == 1
    assert b"account_id" not in line and first["seats"][1]["account"]["name"] == "Bo"
