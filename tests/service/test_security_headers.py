"""The security headers by kind of response (service/http/security_headers.py):
the pages' strict CSP, the API's "run nothing" policy, on both lanes."""

import base64
import hashlib
import itertools
import re

import pytest

import engine
from engine.render import board_svg
from service.http.security_headers import API_POLICY, style_hashes
from service.spec.create_match import option_combinations

from .conftest import make_app
from .helpers import bearer, create

COMMON = {"X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer", "X-Frame-Options": "DENY"}


def directives(policy):
    return {part.split()[0]: part.split()[1:] for part in policy.split("; ")}


def assert_common(response):
    for name, value in COMMON.items():
        assert response.headers.get(name) == value, name


@pytest.mark.parametrize("path", ["/play/", "/play/app.js", "/docs", "/docs/assets/tabula-docs.js"])
def test_pages_carry_the_strict_policy(client, path):
    response = client.get(path)
    assert response.status_code == 200
    assert_common(response)
    policy = directives(response.headers["Content-Security-Policy"])
    assert policy["script-src"] == ["'self'"]  # no inline script, no eval
    assert policy["default-src"] == ["'none'"] and policy["frame-ancestors"] == ["'none'"]
    assert policy["connect-src"] == ["'self'"]
    assert "'unsafe-inline'" not in policy["style-src"] and policy["style-src"][0] == "'self'"
    assert set(policy["style-src"][1:]) == set(style_hashes())


def test_the_docs_page_has_no_inline_script_or_style(client):
    page = client.get("/docs").get_data(as_text=True)
    assert re.findall(r"<script(?![^>]*\ssrc=)[^>]*>", page) == []
    assert "<style" not in page and " style=" not in page


def test_named_servers_join_connect_src(redis_server):
    app = make_app(redis_server.url, WEB_CLIENT_SERVERS="https://api.example, http://127.0.0.1:9")
    try:
        policy = directives(app.test_client().get("/play/").headers["Content-Security-Policy"])
        assert policy["connect-src"] == ["'self'", "https://api.example", "http://127.0.0.1:9"]
    finally:
        app.extensions["tabula"].close()


def test_api_answers_run_nothing_on_both_lanes(client):
    created = create(client)
    match_id, token = created["match"]["id"], created["tokens"]["0"]
    listed = client.get(f"/v1/matches/{match_id}/actions", headers=bearer(token))
    move = {"action": listed.get_json()["actions"][0], "version": listed.get_json()["version"]}
    responses = {
        "json": client.get("/v1/games"),
        "error": client.get("/v1/matches/nope"),
        "svg": client.get(f"/v1/matches/{match_id}/board.svg"),
        "move lane": client.post(f"/v1/matches/{match_id}/actions", headers=bearer(token), json=move),
        "spec": client.get("/openapi.json"),
    }
    assert responses["move lane"].status_code == 200
    for kind, response in responses.items():
        assert_common(response)
        assert response.headers["Content-Security-Policy"] == API_POLICY, kind


def test_the_style_hashes_cover_every_variants_board():
    """Every <style> a board picture of any variant and player count carries
    is allowed by hash (else the web client's board would lose its look)."""
    allowed = set(style_hashes())
    for game_id in engine.list_games():
        game = engine.get_game(game_id)
        for options, players in itertools.product(option_combinations(game) or [{}], (2, 4)):
            try:
                state = game.setup(players, options, seed=3)
            except engine.EngineError:
                continue  # a combination this player count does not set up
            svg = board_svg(game.view(state, None))
            for sheet in re.findall(r"<style>(.*?)</style>", svg, flags=re.DOTALL):
                digest = base64.b64encode(hashlib.sha256(sheet.encode()).digest()).decode()
                assert f"'sha256-{digest}'" in allowed, (game_id, options, players)
