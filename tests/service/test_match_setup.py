"""Creating a match: options resolved by the game, set-up chance in the log.

Issue 32: a 2-player Anno 1452 match without a ``scenario`` was refused
(the service filled in the catalogue's ``standard`` before the engine saw
the player count), and the set-up's events (the dice for the start player,
the turn order drawn, the cards dealt) were dropped from the event log.
"""

import engine

from .helpers import bearer, create, humans

GAMES = ("anno1503", "anno1452")


def _events(client, match_id, token=None):
    headers = bearer(token) if token else {}
    page = client.get(f"/v1/matches/{match_id}/events?limit=1000", headers=headers)
    assert page.status_code == 200, page.get_json()
    return page.get_json()["events"]


def _setup_events(game_id, num_players, options, seed):
    """The engine's own set-up events for the match the service made."""
    game = engine.get_game(game_id)
    return game.setup_with_events(num_players, game.resolve_options(num_players, options), seed)[1]


# --- options that depend on the player count -----------------------------------


def test_two_player_anno1452_without_a_scenario_plays_ottokar_a(client):
    """game-content §3 ruling 13 / the catalogue: "left out with 2 players,
    ottokar_a" (the 2-player game is the Ottokar scenario)."""
    created = create(client, seats=humans(2), game="anno1452")
    match = created["match"]
    assert match["options"]["scenario"] == "ottokar_a"
    assert match["options"] == engine.get_game("anno1452").resolve_options(2, {})
    stored = client.get(f"/v1/matches/{match['id']}").get_json()
    assert stored["options"]["scenario"] == "ottokar_a"
    # Ottokar's pieces are on the board: the scenario really is played
    assert any(
        e["type"] == "estate_placed" and e["data"]["reason"] == "ottokar"
        for e in _events(client, match["id"])
    )


def test_three_player_anno1452_without_a_scenario_plays_standard(client):
    created = create(client, seats=humans(3), game="anno1452")
    assert created["match"]["options"]["scenario"] == "standard"


def test_a_scenario_for_other_player_counts_is_still_refused(client):
    body = {"game": "anno1452", "options": {"scenario": "ottokar_a"}, "seats": humans(4)}
    response = client.post("/v1/matches", json=body)
    assert response.status_code == 422, response.get_json()
    assert response.get_json()["error"] == "validation_error"
    assert client.get("/v1/matches").get_json() == []  # nothing was stored


def test_the_catalogue_documents_the_two_player_default(client):
    scenario = client.get("/v1/games/anno1452").get_json()["options"]["scenario"]
    assert scenario["default"] == "standard"
    assert "2 players" in scenario["description"] and "ottokar_a" in scenario["description"]


def test_anno1503_options_are_stored_complete(client):
    created = create(client, seats=humans(3), game="anno1503")
    assert created["match"]["options"] == {"expansion": "none"}


# --- set-up chance in the event log ------------------------------------------------


def test_a_new_anno1503_match_logs_its_setup(client):
    """The start-player dice and the first production roll are events."""
    created = create(client, seats=humans(3), game="anno1503", seed=11)
    events = _events(client, created["match"]["id"])
    expected = _setup_events("anno1503", 3, {}, 11)
    assert expected and expected[0]["data"]["purpose"] == "start_player"
    assert [(e["type"], e["seat"], e["data"]) for e in events] == [
        (e["type"], e["seat"], e["data"]) for e in expected
    ]
    assert [e["seq"] for e in events] == list(range(1, len(expected) + 1))
    assert {e["version"] for e in events} == {0}


def test_a_new_anno1452_match_logs_its_setup_privately(client):
    """The turn order drawn is public; each seat's five cards are shown to
    that seat only (spectators and the other seats see the count)."""
    created = create(client, seats=humans(3), game="anno1452", seed=5)
    match_id, tokens = created["match"]["id"], created["tokens"]
    expected = _setup_events("anno1452", 3, {}, 5)
    public = _events(client, match_id)
    assert public[0]["type"] == "turn_order"
    assert public[0]["data"]["order"] == expected[0]["data"]["order"]
    assert [e["type"] for e in public] == [e["type"] for e in expected]
    for e in public:
        assert "cards" not in e["data"], e
    for seat in range(3):
        mine = _events(client, match_id, tokens[str(seat)])
        drawn = {e["seat"]: e["data"] for e in mine if e["type"] == "cards_drawn"}
        assert set(drawn) == {0, 1, 2}
        assert len(drawn[seat]["cards"]) == 5
        assert all("cards" not in data for other, data in drawn.items() if other != seat)
        view = client.get(f"/v1/matches/{match_id}", headers=bearer(tokens[str(seat)])).get_json()["view"]
        assert sorted(drawn[seat]["cards"]) == sorted(_hand_ids(view, seat))


def test_actions_follow_the_setup_events(client):
    """The set-up events come first; the first action's events follow on."""
    created = create(client, seats=humans(2), game="anno1503", seed=3)
    match_id, tokens = created["match"]["id"], created["tokens"]
    setup = _events(client, match_id)
    seat = created["match"]["to_act"][0]
    listed = client.get(f"/v1/matches/{match_id}/actions", headers=bearer(tokens[str(seat)])).get_json()
    end = next(a for a in listed["actions"] if a["type"] == "end_turn")
    posted = client.post(
        f"/v1/matches/{match_id}/actions",
        headers=bearer(tokens[str(seat)]),
        json={"action": end, "version": listed["version"]},
    )
    assert posted.status_code == 200, posted.get_json()
    after = _events(client, match_id)
    assert after[: len(setup)] == setup
    assert after[len(setup)]["seq"] == len(setup) + 1 and after[len(setup)]["version"] == 1


def _hand_ids(view, seat):
    hand = view["players"][seat]["hand"]
    return [card["id"] if isinstance(card, dict) else card for card in hand]
