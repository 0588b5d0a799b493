"""GET /v1/matches/{id}/board.svg and the web client's files.

The picture is drawn from the viewer's view (engine/render; its own tests
check what is drawn): here, that the route serves the right viewer's
picture, caches by version, steps through finished matches, refuses what
it must, and that / and /play/ serve the client.
"""

import xml.etree.ElementTree as ET

import engine
from engine.render import board_svg

from .conftest import make_app
from .helpers import bearer, create, new_rng, play_random, seat_to_act

SVG = "{http://www.w3.org/2000/svg}svg"


def _board(client, match_id, token=None, **headers):
    if token:
        headers.update(bearer(token))
    return client.get(f"/v1/matches/{match_id}/board.svg", headers=headers)


def _finished_match(client):
    """A 2-seat Anno 1452 match to its earliest end, random moves through the API."""
    created = create(client, game="anno1452", seed=11, options={"scenario": "ottokar_a", "end_year": 1314})
    match_id, tokens = created["match"]["id"], created["tokens"]
    rng = new_rng(3)
    for _ in range(5000):
        seat, match = seat_to_act(client, match_id)
        if match["status"] == "finished":
            return match_id, tokens
        assert play_random(client, match_id, tokens[str(seat)], rng).status_code == 200
    raise AssertionError("the match did not finish")


def test_the_picture_is_the_viewers_view_drawn(client):
    created = create(client)
    match_id, token = created["match"]["id"], created["tokens"]["0"]
    seat_view = client.get(f"/v1/matches/{match_id}", headers=bearer(token)).get_json()["view"]
    spectator_view = client.get(f"/v1/matches/{match_id}").get_json()["view"]

    mine, watched = _board(client, match_id, token), _board(client, match_id)

    assert mine.status_code == watched.status_code == 200
    assert mine.mimetype == "image/svg+xml"
    assert mine.get_data(as_text=True) == board_svg(seat_view, 0)
    assert watched.get_data(as_text=True) == board_svg(spectator_view, None)
    assert mine.get_data() != watched.get_data()  # the seat sees its own hand
    assert ET.fromstring(mine.get_data()).tag == SVG
    assert mine.headers["Vary"] == "Authorization"


def test_etag_by_version_and_304(client):
    created = create(client)
    match_id, tokens = created["match"]["id"], created["tokens"]
    first = _board(client, match_id, tokens["0"])
    assert first.headers["ETag"] == f'"{created["match"]["version"]}"'

    unchanged = _board(client, match_id, tokens["0"], **{"If-None-Match": first.headers["ETag"]})
    weak = _board(client, match_id, tokens["0"], **{"If-None-Match": f"W/{first.headers['ETag']}"})
    anything = _board(client, match_id, tokens["0"], **{"If-None-Match": "*"})
    other = _board(client, match_id, tokens["0"], **{"If-None-Match": '"999", "0.1"'})
    assert unchanged.status_code == weak.status_code == anything.status_code == 304
    assert other.status_code == 200
    assert unchanged.get_data() == b""

    seat, _ = seat_to_act(client, match_id)
    assert play_random(client, match_id, tokens[str(seat)], new_rng()).status_code == 200
    moved = _board(client, match_id, tokens["0"], **{"If-None-Match": first.headers["ETag"]})
    assert moved.status_code == 200
    assert moved.headers["ETag"] != first.headers["ETag"]


def test_refusals(client):
    created = create(client)
    match_id = created["match"]["id"]
    assert _board(client, "0000000000000000").status_code == 404
    assert _board(client, match_id, "not-a-token").status_code == 401
    other = create(client)["tokens"]["0"]
    assert _board(client, match_id, other).status_code == 403
    early = client.get(f"/v1/matches/{match_id}/board.svg?step=0")
    assert early.status_code == 409
    assert early.get_json()["details"]["reason"] == "match_not_finished"
    assert client.get(f"/v1/matches/{match_id}/board.svg?step=-1").status_code == 422


def test_a_finished_match_steps_through_its_replay(client):
    match_id, tokens = _finished_match(client)
    replay = client.get(f"/v1/matches/{match_id}/replay").get_json()
    count = len(replay["actions"])
    game = engine.get_game("anno1452")

    set_up = client.get(f"/v1/matches/{match_id}/board.svg?step=0")
    last = client.get(f"/v1/matches/{match_id}/board.svg?step={count}")
    now = _board(client, match_id)
    beyond = client.get(f"/v1/matches/{match_id}/board.svg?step={count + 1}")

    assert set_up.status_code == last.status_code == 200
    assert beyond.status_code == 422
    state = game.setup(2, replay["options"], replay["seed"])
    expected = game.view(state, None)
    for player, seat in zip(expected["players"], replay["seats"], strict=True):
        player["name"] = seat["name"]
    assert set_up.get_data(as_text=True) == board_svg(expected, None)
    assert last.get_data() == now.get_data()  # every action re-run: the final position
    assert set_up.headers["ETag"] != last.headers["ETag"]
    cached = client.get(
        f"/v1/matches/{match_id}/board.svg?step=0", headers={"If-None-Match": set_up.headers["ETag"]}
    )
    assert cached.status_code == 304
    assert _board(client, match_id, tokens["0"]).status_code == 200


def test_home_leads_to_the_web_client(client):
    home = client.get("/")
    assert home.status_code == 302
    assert home.headers["Location"].endswith("/play/")
    page = client.get("/play/")
    assert page.status_code == 200
    assert page.mimetype == "text/html"
    assert b'<script type="module" src="app.js">' in page.get_data()
    script = client.get("/play/app.js")
    assert script.status_code == 200
    assert "javascript" in script.mimetype
    assert client.get("/play/../app.py").status_code == 404
    assert client.get("/play/no-such-file.js").status_code == 404


def test_client_files_are_not_rate_limited(redis_server):
    app = make_app(redis_server.url, RATE_LIMIT=3)
    try:
        client = app.test_client()
        statuses = [client.get("/play/style.css").status_code for _ in range(10)]
        assert statuses == [200] * 10
        assert [client.get("/v1/games").status_code for _ in range(4)][-1] == 429
    finally:
        app.extensions["tabula"].close()
