"""Ratings through the library and ``tabula leaderboard``, against the
served stack (gunicorn and an AI worker; docs/ratings.md): a rated match
created and resigned, played out by the AI worker, rates both seats."""

import json
import time
import uuid

import pytest

from tabula_client import NotFound

from .test_cli import run

pytestmark = pytest.mark.slow  # the served stack

POOL = "anno1452-basic"


def test_a_rated_match_shows_on_the_leaderboard_and_in_the_history(api, server_url):
    name = f"rated{uuid.uuid4().hex[:8]}"
    me = api.with_token(api.sign_up(name, "bot")["token"])
    seats = [{"kind": "human"}, {"kind": "ai", "level": "random"}]
    options = {"end_year": 1314, "scenario": "ottokar_a"}
    created = me.create_match("anno1452", seats, options=options, rated=True, turn_timeout_s=0)
    assert created["match"]["rated"] is True and created["match"]["pool"] == POOL
    me.resign(created["match"]["id"])
    deadline = time.monotonic() + 60
    while api.get_match(created["match"]["id"])["status"] != "finished":
        assert time.monotonic() < deadline, "the AI worker did not finish the match"
        time.sleep(0.2)
    history = api.rating_history(name, POOL)
    assert history["total"] == 1 and history["history"][0]["place"] == 2
    assert history["rating"]["matches"] == 1 and history["rating"]["provisional"]
    bots = api.leaderboard(POOL, kind="bot", page_size=100)
    assert name in [e["name"] for e in bots] and "ai-random" in [e["name"] for e in bots]
    assert [e["rank"] for e in bots] == list(range(1, len(bots) + 1))
    assert api.profile(name)["ratings"][POOL]["matches"] == 1
    with pytest.raises(NotFound):
        api.leaderboard("chess")
    code, out, _ = run("--url", server_url, "leaderboard", POOL, "--kind", "bot", "--json")
    assert code == 0 and name in [e["name"] for e in json.loads(out)]
    code, out, _ = run("--url", server_url, "leaderboard", POOL, "--page-size", "100")
    assert code == 0 and name in out and "ai-random" in out
