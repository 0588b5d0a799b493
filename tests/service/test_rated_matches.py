"""Rated matches (docs/ratings.md): the pool of every game and options,
``rated`` on create, the seats a rated match allows, and joining its open
seats with account tokens only."""

import pytest

import engine
from service.ratings.pools import POOLS, pool_of

from .helpers import bearer
from .test_accounts import account_token
from .test_game_schemas import validator

RATED = [{"kind": "human"}, {"kind": "open"}, {"kind": "ai", "level": "hard"}]


def rated_match(client, token, seats=None, game="anno1452", options=None):
    body = {"game": game, "seats": seats or RATED, "rated": True, "options": options or {}}
    response = client.post("/v1/matches", json=body, headers=bearer(token))
    assert response.status_code == 201, response.json
    return response.json["match"]


@pytest.mark.parametrize(
    ("game", "options", "pool"),
    [
        ("anno1503", {}, "anno1503-base"),
        ("anno1503", {"expansion": "pirates_aristocrats"}, "anno1503-expansion"),
        ("anno1452", {}, "anno1452-basic"),
        ("anno1452", {"scenario": "ottokar_b"}, "anno1452-basic"),
        ("anno1452", {"rules": "expert", "end_year": 1400}, "anno1452-expert"),
    ],
)
def test_every_match_shows_its_pool_and_whether_it_is_rated(client, game, options, pool):
    seats = [{"kind": "human"}, {"kind": "ai"}, {"kind": "ai"}]
    created = client.post("/v1/matches", json={"game": game, "seats": seats, "options": options})
    assert created.status_code == 201, created.json
    match = created.json["match"]
    assert (match["pool"], match["rated"]) == (pool, False)
    listed = client.get("/v1/matches").json
    assert [(m["pool"], m["rated"]) for m in listed] == [(pool, False)]


def test_every_resolved_option_set_of_every_game_has_a_pool():
    for game_id in engine.list_games():
        game = engine.get_game(game_id)
        for seats in range(game.min_players, game.max_players + 1):
            assert pool_of(game_id, game.resolve_options(seats, {})) in POOLS
    with pytest.raises(ValueError):
        pool_of("chess", {})


def test_a_rated_match_with_an_account_token_seats_the_account(client):
    ada = account_token(client, "Ada")
    match = rated_match(client, ada)
    assert match["rated"] is True and match["pool"] == "anno1452-basic"
    assert match["seats"][0]["account"] == {"name": "Ada", "kind": "human"}
    assert client.get(f"/v1/matches/{match['id']}").json["rated"] is True


@pytest.mark.parametrize(
    ("seats", "extra"),
    [
        ([{"kind": "human"}, {"kind": "human"}, {"kind": "ai"}], {}),  # a second human seat
        (RATED, {"dice": "reproducible", "seed": 3}),  # the creator would know the dice
    ],
)
def test_a_rated_match_is_refused_unless_every_seat_can_be_rated(client, seats, extra):
    """The schema's rule (CreateMatch): 422 with any token, nothing stored."""
    body = {"game": "anno1452", "seats": seats, "rated": True, **extra}
    assert not validator("CreateMatch").is_valid(body)
    for headers in (bearer(account_token(client, "Ada")), {}):
        response = client.post("/v1/matches", json=body, headers=headers)
        assert response.status_code == 422, response.json
        assert response.json["error"] == "validation_error"
        assert "rated" in response.json["details"]["fields"]["json"]
    assert client.get("/v1/matches").json == []  # nothing stored


def test_a_rated_match_s_human_seat_needs_an_account_token(client):
    """A schema-valid body: 401 without a token, 403 `account_token_required`
    with a seat token; nothing stored. Without a human seat, no token is needed."""
    body = {"game": "anno1452", "seats": RATED, "rated": True}
    assert validator("CreateMatch").is_valid(body)
    anonymous = client.post("/v1/matches", json=body)
    assert anonymous.status_code == 401 and anonymous.json["error"] == "unauthorized"
    assert anonymous.headers["WWW-Authenticate"] == "Bearer"
    seat_token = client.post("/v1/matches", json={"game": "anno1452", "seats": RATED}).json["tokens"]["0"]
    refused = client.post("/v1/matches", json=body, headers=bearer(seat_token))
    assert refused.status_code == 403, refused.json
    assert refused.json["error"] == "account_token_required" and "account token" in refused.json["message"]
    assert [m["rated"] for m in client.get("/v1/matches").json] == [False]  # the seat token's own match
    machines = {"game": "anno1452", "seats": [{"kind": "ai"}, {"kind": "open"}], "rated": True}
    made = client.post("/v1/matches", json=machines, headers=bearer(seat_token))
    assert made.status_code == 201 and made.json["match"]["rated"] is True


def test_a_rated_match_s_open_seat_is_joined_with_an_account_token_only(client):
    match = rated_match(client, account_token(client, "Ada"))
    anonymous = client.post(f"/v1/matches/{match['id']}/join", json={"name": "Eve"})
    assert anonymous.status_code == 401 and anonymous.json["error"] == "unauthorized"
    seat_token = client.post("/v1/matches", json={"game": "anno1452", "seats": RATED}).json["tokens"]["0"]
    with_seat_token = client.post(f"/v1/matches/{match['id']}/join", json={}, headers=bearer(seat_token))
    assert with_seat_token.status_code == 403 and with_seat_token.json["error"] == "account_token_required"
    assert client.get(f"/v1/matches/{match['id']}").json["seats"][1]["kind"] == "open"
    bo = account_token(client, "Bo")
    joined = client.post(f"/v1/matches/{match['id']}/join", json={}, headers=bearer(bo))
    assert joined.status_code == 201, joined.json
    seats = client.get(f"/v1/matches/{match['id']}").json["seats"]
    assert seats[1]["account"] == {"name": "Bo", "kind": "human"}


def test_an_unrated_match_s_open_seat_is_joined_without_an_account(client):
    created = client.post("/v1/matches", json={"game": "anno1452", "seats": RATED})
    assert created.status_code == 201
    joined = client.post(f"/v1/matches/{created.json['match']['id']}/join", json={})
    assert joined.status_code == 201


@pytest.mark.parametrize("rated", [0, 1, "true", None])
def test_rated_is_a_json_boolean(client, rated):
    body = {"game": "anno1452", "seats": RATED, "rated": rated}
    response = client.post("/v1/matches", json=body)
    assert response.status_code == 422 and "rated" in response.json["details"]["fields"]["json"]
