"""Ratings in the web client (docs/ratings.md): the leaderboard page (pools,
the kind and established filters, provisional marks) and a profile's rating
chart, an SVG drawn in the page from the rating history. One rated match is
played through the stack (created, resigned, finished by the AI worker);
more rated results are applied straight to its storage, so the board and the
chart have something to show."""

import time
import uuid

import pytest
import requests

from service.ratings.update import apply_ratings
from tests.service.conftest import make_app
from tests.service.test_ratings import finished_doc

from .conftest import screenshot

# Left out by `make test-fast` (-m "not slow"): starts a browser.
pytestmark = pytest.mark.slow

POOL = "anno1452-basic"


def _play_a_rated_match(stack, token):
    """A rated match of the account against the random AI, resigned at once:
    the AI worker plays it to its end."""
    headers = {"Authorization": f"Bearer {token}"}
    body = {
        "game": "anno1452",
        "seats": [{"kind": "human"}, {"kind": "ai", "level": "random"}],
        "options": {"end_year": 1314, "scenario": "ottokar_a"},
        "rated": True,
        "turn_timeout_s": 0,
    }
    match_id = requests.post(f"{stack}/v1/matches", json=body, headers=headers, timeout=10).json()["match"][
        "id"
    ]
    assert requests.post(f"{stack}/v1/matches/{match_id}/resign", headers=headers, timeout=10).ok
    deadline = time.monotonic() + 60
    while requests.get(f"{stack}/v1/matches/{match_id}", timeout=10).json()["status"] != "finished":
        assert time.monotonic() < deadline, "the AI worker did not finish the rated match"
        time.sleep(0.2)


def _seed(redis_url, prefix):
    """Accounts of known strength (humans and bots), rated in 40 matches of
    four (the first in the list places first); returns ``(names, Ada's token)``."""
    app = make_app(redis_url)
    client, services = app.test_client(), app.extensions["tabula"]
    try:
        people = [(f"{prefix}{n}", kind) for n, kind in zip(("Ada", "Bo", "Cy", "Di", "Ed", "Flo"), "hbhbhh")]
        accounts, token = [], None
        for name, kind in people:
            signed = client.post(
                "/v1/accounts", json={"name": name, "kind": "human" if kind == "h" else "bot"}
            )
            accounts.append(signed.json["account"])
            token = token or signed.json["token"]
        for n in range(40):
            table = [accounts[(n + i) % len(accounts)] for i in range(4)]
            table.sort(key=accounts.index)
            if n % 5 == 4:
                table.reverse()  # an upset now and then
            apply_ratings(
                services,
                finished_doc(
                    f"{prefix}-seeded-{n}", table, winners=(0,), scores={str(i): 20 - i for i in range(4)}
                ),
            )
        return [name for name, _ in people], token
    finally:
        services.close()


def test_the_leaderboard_and_a_profile_s_rating_chart(stack, redis_url, new_page):
    prefix = f"r{uuid.uuid4().hex[:5]}"
    names, ada_token = _seed(redis_url, prefix)
    ada = names[0]
    _play_a_rated_match(stack, ada_token)
    page, watch = new_page(1200, 900)
    page.goto(f"{stack}/play/")
    page.locator("a.leaderboards").click()
    page.wait_for_selector(".leaderboard[data-pool='anno1503-base']")  # the first pool
    page.get_by_role("link", name="Anno 1452 (basic)").click()
    page.wait_for_selector(f".leaderboard[data-pool='{POOL}'] tr[data-name='{ada}']")
    rows = page.locator(".board-table tbody tr")
    shown = [rows.nth(i).get_attribute("data-name") for i in range(rows.count())]
    assert shown.index(ada) < shown.index(names[-1])  # the strongest above the weakest
    assert "ai-random" in shown
    ratings = [
        float(t.split("?")[0]) for t in page.locator(".board-table tbody td:nth-child(3)").all_inner_texts()
    ]
    assert ratings == sorted(ratings, reverse=True)
    assert page.locator("tr[data-name='ai-random'].provisional .provisional-mark").count() == 1
    screenshot(page, "ratings-leaderboard")

    page.locator(".chip[data-kind='bot']").click()
    page.wait_for_selector(".chip.on[data-kind='bot']")
    bots = page.locator(".board-table tbody tr").evaluate_all("rows => rows.map(r => r.dataset.name)")
    assert set(bots) >= {f"{prefix}Bo", f"{prefix}Di", "ai-random"} and ada not in bots
    page.locator(".chip[data-filter='established']").click()
    page.wait_for_selector(".chip.on[data-filter='established']")
    assert "ai-random" not in page.locator(".board-table").inner_text()  # one match: provisional

    page.goto(f"{stack}/play/#/leaderboard/{POOL}")
    page.locator(f"tr[data-name='{ada}'] a").click()
    page.wait_for_selector(f".profile[data-account='{ada}'] .rating[data-pool='{POOL}'] svg.rating-chart")
    history = requests.get(f"{stack}/v1/accounts/{ada}/ratings/{POOL}", timeout=10).json()
    chart = page.locator(".rating-chart")
    assert chart.locator("circle.point").count() == history["total"] == history["rating"]["matches"]
    assert chart.locator("polyline.rating-line").count() == 1
    caption = page.locator(f".rating[data-pool='{POOL}'] figcaption").inner_text()
    assert f"{history['rating']['rating']:.1f}" in caption
    screenshot(page, "ratings-profile-chart")
    assert watch.problems == [], "\n".join(watch.problems)
