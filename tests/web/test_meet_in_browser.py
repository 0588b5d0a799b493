"""Meeting opponents in the web client (issue 43, docs/matchmaking.md): two
people in two browser contexts press Play now for Anno 1452 and land in one
rated match (paired by the workers' waves), each playing its own seat with
its account token; a challenge by name, accepted from the notice the
account stream brings; a seek cancelled before any wave pairs it."""

import re
import uuid

import pytest

from .conftest import screenshot
from .test_accounts_in_browser import _sign_in

# Left out by `make test-fast` (-m "not slow"): starts a browser.
pytestmark = pytest.mark.slow

MATCH_URL = re.compile(r".*#/match/(\w+)$")


def _name(prefix):
    return f"{prefix}_{uuid.uuid4().hex[:8]}"


def _play_now(page, pool="anno1452-basic", players="2"):
    form = page.locator(".play-now-form")
    form.locator("select[name=pool]").select_option(pool)
    form.locator("select[name=players]").select_option(players)
    form.get_by_role("button", name="Play now").click()


def test_two_people_press_play_now_and_land_in_one_rated_match(stack, new_page):
    client = f"{stack}/play/"
    ada, bob = _name("Ada"), _name("Bob")
    (page_a, watch_a), (page_b, watch_b) = new_page(), new_page()
    _sign_in(page_a, client, ada)
    _sign_in(page_b, client, bob)
    _play_now(page_a)
    page_a.wait_for_selector(".seek-status .waiting")
    screenshot(page_a, "meet-play-now-waiting")
    _play_now(page_b)
    page_a.wait_for_url(MATCH_URL, timeout=30_000)
    page_b.wait_for_url(MATCH_URL, timeout=30_000)
    match_a = MATCH_URL.match(page_a.url).group(1)
    assert MATCH_URL.match(page_b.url).group(1) == match_a
    for page, name in ((page_a, ada), (page_b, bob)):
        page.wait_for_selector(".status")
        assert f"You play {name}." in page.locator(".status").inner_text()
    screenshot(page_a, "meet-play-now-match")
    match = page_a.evaluate(f"fetch('/v1/matches/{match_a}').then(r => r.json())")
    assert match["rated"] is True and match["pool"] == "anno1452-basic"
    assert sorted(s["account"]["name"] for s in match["seats"]) == sorted([ada, bob])
    for watch in (watch_a, watch_b):
        assert watch.problems == [], "\n".join(watch.problems)


def test_a_challenge_by_name_accepted_from_the_notice(stack, new_page):
    client = f"{stack}/play/"
    cy, di = _name("Cy"), _name("Di")
    (page_c, watch_c), (page_d, watch_d) = new_page(), new_page()
    _sign_in(page_c, client, cy)
    _sign_in(page_d, client, di)
    form = page_c.locator(".challenge-form")
    form.locator("input[name=opponent]").fill(di)
    form.locator("select[name=pool]").select_option("anno1503-base")
    form.get_by_role("button", name="Challenge").click()
    page_c.wait_for_selector(".challenge-status:has-text('waiting for an answer')")
    notice = page_d.locator(".challenge-notice")
    notice.wait_for(timeout=30_000)  # from the account stream
    assert cy in notice.inner_text() and "Anno 1503" in notice.inner_text()
    screenshot(page_d, "meet-challenge-notice")
    notice.get_by_role("button", name="Accept").click()
    page_d.wait_for_url(MATCH_URL)
    page_c.wait_for_url(MATCH_URL, timeout=30_000)
    assert MATCH_URL.match(page_c.url).group(1) == MATCH_URL.match(page_d.url).group(1)
    page_d.wait_for_selector(".status")
    assert f"You play {di}." in page_d.locator(".status").inner_text()
    for watch in (watch_c, watch_d):
        assert watch.problems == [], "\n".join(watch.problems)


def test_a_challenge_to_a_name_nobody_holds_says_so(stack, new_page):
    """The server's 404 naming the name (docs/matchmaking.md), shown as such."""
    page, watch = new_page()
    _sign_in(page, f"{stack}/play/", _name("Fe"))
    nobody = _name("Nobody")
    form = page.locator(".challenge-form")
    form.locator("input[name=opponent]").fill(nobody)
    form.get_by_role("button", name="Challenge").click()
    page.wait_for_selector(f".challenge-status:has-text('Nobody is named {nobody}.')")
    assert form.is_visible()
    expected = [
        p for p in watch.problems if "404" in p and ("/v1/challenges" in p or p.startswith("console:"))
    ]
    assert watch.problems == expected and expected, "\n".join(watch.problems)


def test_a_seek_is_cancelled_from_its_waiting_state(stack, new_page):
    client = f"{stack}/play/"
    page, watch = new_page()
    _sign_in(page, client, _name("Ed"))
    _play_now(page, pool="anno1503-expansion", players="4")
    page.locator(".cancel-seek").click()
    page.wait_for_selector(".seek-status:has-text('Cancelled.')")
    assert page.locator(".play-now-form").is_visible()
    seeks = page.evaluate(
        "fetch('/v1/seeks', {headers: {Authorization: 'Bearer ' + localStorage.getItem("
        "Object.keys(localStorage).find(k => k.endsWith(':account')))}}).then(r => r.json())"
    )
    assert [s["status"] for s in seeks] == ["cancelled"]
    assert watch.problems == [], "\n".join(watch.problems)
