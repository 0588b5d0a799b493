"""A person plays every game and variant to the end in a real browser.

For each variant the lobby's form creates a match against AI seats; the
person's moves are clicked on the board (places) and on buttons (the rest)
until the match is over; nothing may go wrong on the page on the way
(console errors, failed requests, error responses). Anno 1452 is played to
its earliest final year (1314) so a match takes a few dozen decisions; the
dice are reproducible from a fixed seed (the form's "Dice" fields), so each
run plays the same matches and takes the same time.
"""

import pytest

from .conftest import screenshot
from .play import create_match, play_to_end

# Left out by `make test-fast` (-m "not slow"): starts a browser.
pytestmark = pytest.mark.slow

# (game, options, seats, seed). Reproducible dice from a fixed seed: the
# same match every run, so the test's length does not vary with the dice.
VARIANTS = [
    ("anno1503", {"expansion": "none"}, ["you", "ai:medium"], 36),
    ("anno1503", {"expansion": "pirates_aristocrats"}, ["you", "ai:medium", "ai:medium", "ai:medium"], 36),
    (
        "anno1452",
        {"rules": "basic", "scenario": "standard", "end_year": 1314},
        ["you", "ai:easy", "ai:medium"],
        1,
    ),
    ("anno1452", {"rules": "basic", "scenario": "ottokar_a", "end_year": 1314}, ["you", "ai:medium"], 1),
    (
        "anno1452",
        {"rules": "basic", "scenario": "ottokar_b", "end_year": 1314},
        ["you", "ai:medium", "ai:easy"],
        1,
    ),
    (
        "anno1452",
        {"rules": "expert", "scenario": "standard", "end_year": 1314},
        ["you", "ai:medium", "ai:medium"],
        1,
    ),
    ("anno1452", {"rules": "expert", "scenario": "ottokar_a", "end_year": 1314}, ["you", "ai:medium"], 1),
    (
        "anno1452",
        {"rules": "expert", "scenario": "ottokar_b", "end_year": 1314},
        ["you", "ai:easy", "ai:medium"],
        1,
    ),
]


def _variant_id(variant):
    game, options, seats, _ = variant
    return "-".join([game, *(str(v) for k, v in options.items() if k != "end_year"), f"{len(seats)}p"])


@pytest.mark.parametrize("variant", VARIANTS, ids=[_variant_id(v) for v in VARIANTS])
def test_a_person_plays_a_whole_match(stack, new_page, variant):
    game, options, seats, seed = variant
    page, watch = new_page()
    create_match(page, f"{stack}/play/", game, options, seats, seed=seed)
    assert page.locator(".board svg").count() == 1
    clicked = play_to_end(page)
    assert clicked["board"] >= 1, "no move was played on the board"
    assert clicked["buttons"] >= 1, "no move was played with a button"
    page.wait_for_selector(".checks [data-ok]")  # the dice check ran
    checks = page.locator(".checks [data-ok]")
    assert checks.count() >= 1
    assert all(checks.nth(i).get_attribute("data-ok") == "true" for i in range(checks.count()))
    assert "The match is over" in page.locator(".status").inner_text()
    screenshot(page, f"finished-{_variant_id(variant)}")
    assert watch.problems == [], "\n".join(watch.problems)
