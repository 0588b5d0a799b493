"""Create, read (views, ETag), lobby, join, resign."""

import hashlib

from service.model.tokens import TOKEN_PREFIX, new_token

from .helpers import bearer, create, humans


def test_create_returns_match_location_tokens_and_commitment(client):
    response = client.post(
        "/v1/matches",
        json={
            "game": "anno1503",
            "seed": 42,
            "seats": [{"kind": "human", "name": "Ada"}, {"kind": "ai", "level": "hard"}, {"kind": "open"}],
        },
    )
    assert response.status_code == 201
    body = response.get_json()
    match = body["match"]
    assert response.headers["Location"] == f"/v1/matches/{match['id']}"
    assert list(body["tokens"]) == ["0"]
    assert match["status"] == "waiting" and match["to_act"] == [] and match["version"] == 0
    # Fair dice by default: the commitment is to the server's secret, not the seed.
    assert match["dice"] == "fair"
    assert len(match["seed_commitment"]) == 64
    assert match["seed_commitment"] != hashlib.sha256(b"42").hexdigest()
    assert match["options"] == {"expansion": "none"}
    assert [s["kind"] for s in match["seats"]] == ["human", "ai", "open"]
    assert match["seats"][1]["level"] == "hard"
    assert match["you"] is None and match["result"] is None
    assert match["view"]["players"][0]["name"] == "Ada"


def test_server_draws_a_seed_when_none_is_given(client):
    a = create(client, seed=None)["match"]
    b = create(client, seed=None)["match"]
    assert a["seed_commitment"] != b["seed_commitment"]


def test_views_per_seat_and_spectator(client):
    created = create(client, seats=humans(3))
    match_id = created["match"]["id"]
    for seat in range(3):
        match = client.get(f"/v1/matches/{match_id}", headers=bearer(created["tokens"][str(seat)])).get_json()
        assert match["you"] == seat
        players = match["view"]["players"]
        assert "hand" in players[seat]
        assert all("hand" not in p and "hand_size" in p for i, p in enumerate(players) if i != seat)
        assert [p["name"] for p in players] == ["P0", "P1", "P2"]
    spectator = client.get(f"/v1/matches/{match_id}").get_json()
    assert spectator["you"] is None
    assert all("hand" not in p for p in spectator["view"]["players"])


def test_etag_and_if_none_match(client):
    created = create(client)
    match_id = created["match"]["id"]
    first = client.get(f"/v1/matches/{match_id}")
    assert first.headers["ETag"] == '"0"'
    cached = client.get(f"/v1/matches/{match_id}", headers={"If-None-Match": '"0"'})
    assert cached.status_code == 304 and cached.data == b""
    seat = first.get_json()["to_act"][0]
    token = created["tokens"][str(seat)]
    listed = client.get(f"/v1/matches/{match_id}/actions", headers=bearer(token)).get_json()
    client.post(
        f"/v1/matches/{match_id}/actions", headers=bearer(token), json={"action": listed["actions"][0]}
    )
    fresh = client.get(f"/v1/matches/{match_id}", headers={"If-None-Match": '"0"'})
    assert fresh.status_code == 200 and fresh.headers["ETag"] == '"1"'


def test_lobby_filters_and_paginates(client):
    waiting = [create(client, seats=[{"kind": "human"}, {"kind": "open"}])["match"]["id"] for _ in range(3)]
    active = create(client)["match"]["id"]
    listed = client.get("/v1/matches?status=waiting&game=anno1503&page_size=2")
    assert listed.status_code == 200
    assert [m["id"] for m in listed.get_json()] == waiting[::-1][:2]  # newest first
    assert '"total": 3' in listed.headers["X-Pagination"]
    page2 = client.get("/v1/matches?status=waiting&page_size=2&page=2").get_json()
    assert [m["id"] for m in page2] == [waiting[0]]
    assert [m["id"] for m in client.get("/v1/matches?status=active").get_json()] == [active]
    assert len(client.get("/v1/matches").get_json()) == 4
    assert client.get("/v1/matches?game=anno1452x").get_json() == []
    assert "view" not in client.get("/v1/matches").get_json()[0]


def test_join_fills_open_seats_then_starts(client):
    created = create(client, seats=[{"kind": "human"}, {"kind": "open"}, {"kind": "open"}])
    match_id = created["match"]["id"]
    first = client.post(f"/v1/matches/{match_id}/join", json={"name": "Bo", "seat": 2})
    assert first.status_code == 201 and first.get_json()["seat"] == 2
    taken = client.post(f"/v1/matches/{match_id}/join", json={"name": "Cy", "seat": 2})
    assert taken.status_code == 409 and taken.get_json()["error"] == "seat_taken"
    assert client.get(f"/v1/matches/{match_id}").get_json()["status"] == "waiting"
    second = client.post(f"/v1/matches/{match_id}/join", json={"name": "Cy"})
    assert second.get_json()["seat"] == 1
    match = client.get(f"/v1/matches/{match_id}", headers=bearer(second.get_json()["token"])).get_json()
    assert match["status"] == "active" and match["you"] == 1 and match["to_act"]
    assert match["seats"][1]["name"] == "Cy" and match["view"]["players"][2]["name"] == "Bo"
    full = client.post(f"/v1/matches/{match_id}/join", json={"name": "Di"})
    assert full.status_code == 409 and full.get_json()["error"] == "seat_taken"
    bad_seat = client.post(f"/v1/matches/{match_id}/join", json={"seat": 9})
    assert bad_seat.status_code == 422
    events = client.get(f"/v1/matches/{match_id}/events").get_json()["events"]
    joins = [(e["type"], e["seat"]) for e in events if e["version"] > 0]  # after the set-up's
    assert joins == [("player_joined", 2), ("player_joined", 1)]


def test_waiting_match_refuses_actions(client):
    created = create(client, seats=[{"kind": "human"}, {"kind": "open"}])
    match_id = created["match"]["id"]
    token = created["tokens"]["0"]
    assert client.get(f"/v1/matches/{match_id}/actions", headers=bearer(token)).get_json()["actions"] == []
    response = client.post(
        f"/v1/matches/{match_id}/actions", headers=bearer(token), json={"action": {"type": "end_turn"}}
    )
    assert response.status_code == 409 and response.get_json()["error"] == "not_your_turn"


def test_resign_hands_seat_to_medium_ai_and_revokes_token(client, ai_runner):
    created = create(client)
    match_id = created["match"]["id"]
    token = created["tokens"]["1"]
    response = client.post(f"/v1/matches/{match_id}/resign", headers=bearer(token))
    assert response.status_code == 200
    seat = response.get_json()["seats"][1]
    assert seat == {
        "seat": 1,
        "kind": "ai",
        "name": "Bo",
        "level": "medium",
        "resigned": True,
        "account": None,
    }
    again = client.post(f"/v1/matches/{match_id}/resign", headers=bearer(token))
    assert again.status_code == 401
    events = client.get(f"/v1/matches/{match_id}/events").get_json()["events"]
    assert events[-1]["type"] == "player_resigned" and events[-1]["seat"] == 1


def test_join_without_a_body_takes_the_first_open_seat(client):
    match_id = create(client, seats=[{"kind": "human"}, {"kind": "open"}])["match"]["id"]
    response = client.post(f"/v1/matches/{match_id}/join")
    assert response.status_code == 201 and response.get_json()["seat"] == 1


def test_lobby_repairs_a_stale_index_entry(client, services):
    match_id = create(client)["match"]["id"]  # active from the start
    services.redis.zadd("lobby:waiting:*", {match_id: 1})  # as if a status update was lost
    assert client.get("/v1/matches?status=waiting").get_json() == []
    assert services.redis.zscore("lobby:waiting:*", match_id) is None


def test_replay_is_refused_until_the_match_is_finished(client):
    match_id = create(client)["match"]["id"]
    response = client.get(f"/v1/matches/{match_id}/replay")
    assert response.status_code == 409
    body = response.get_json()
    assert body["error"] == "illegal_action" and body["details"]["reason"] == "match_not_finished"


def test_tokens_never_look_like_a_command_line_option():
    """1 in 64 URL-safe random tokens began with "-", which `tabula play
    --token -x...` then read as an option: every token has a fixed prefix."""
    tokens = [new_token()[0] for _ in range(2000)]
    assert all(t.startswith(TOKEN_PREFIX) and not t.startswith("-") for t in tokens)
    assert len(set(tokens)) == len(tokens)
    assert all(len(t) >= len(TOKEN_PREFIX) + 43 for t in tokens)  # 256 random bits
