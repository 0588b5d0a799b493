"""Accounts in the web client (issue 42, docs/accounts.md): sign in by
choosing a name, play while signed in (the seat is bound), My matches with
its your-turn badge fed by the account stream, the profile page, and the
token carried to another browser."""

import uuid

import pytest

from .conftest import screenshot
from .play import create_match

# Left out by `make test-fast` (-m "not slow"): starts a browser.
pytestmark = pytest.mark.slow


def _sign_in(page, client_url, name):
    page.goto(client_url)
    page.locator("input[name=account-name]").fill(name)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_selector(f".account-bar .account-name:text-is('{name}')")
    # Signing in draws the lobby again; its lists are read before the test
    # goes on, or a navigation that follows would abort those reads.
    page.wait_for_selector(".signed-in-as")
    page.wait_for_selector(".lobby-lists section[data-status='finished']")


def test_signed_in_play_my_matches_profile_and_carried_token(stack, new_page):
    client = f"{stack}/play/"
    name = f"Ada_{uuid.uuid4().hex[:8]}"
    page, watch = new_page()
    _sign_in(page, client, name)
    assert page.locator(".signed-in-as").inner_text() == name  # the lobby plays under it
    screenshot(page, "account-signed-in")

    match_id = create_match(page, client, "anno1503", {"expansion": "none"}, ["you", "ai:easy"], seed=36)
    assert f"You play {name}." in page.locator(".status").inner_text()  # the seat is the account's

    # The badge counts the matches where it is the account's turn, live from the account stream.
    page.wait_for_selector(".my-matches .badge[data-to-act='1']:not([hidden])", timeout=60_000)
    page.locator(".my-matches").click()
    row = page.locator(f".my-list li[data-match='{match_id}']")
    row.locator(".your-turn").wait_for(timeout=30_000)
    assert name in row.inner_text()
    screenshot(page, "account-my-matches")

    page.locator(".account-bar .account-name").click()
    page.wait_for_selector(f".profile[data-account='{name}']")
    assert "Human · since" in page.locator(".profile").inner_text()
    screenshot(page, "account-profile")

    page.goto(client)
    assert name in page.locator(f"li[data-match='{match_id}']").inner_text()  # the lobby names the account

    page.locator(".carry summary").click()
    screenshot(page, "account-token-to-copy")
    token = page.locator("input[name=account-token]").input_value()
    assert token.startswith("tab_pat_")
    other, other_watch = new_page()
    other.goto(client)
    other.locator("input[name=token]").fill(token)
    screenshot(other, "account-use-a-token")
    other.get_by_role("button", name="Use").click()
    other.wait_for_selector(f".account-bar .account-name:text-is('{name}')")
    other.locator(".my-matches").click()
    other.locator(f".my-list li[data-match='{match_id}']").wait_for()
    screenshot(other, "account-carried-token")

    other.get_by_role("button", name="Sign out").click()
    other.locator("input[name=account-name]").wait_for()
    assert other.evaluate("Object.keys(localStorage).filter(k => k.endsWith(':account'))") == []
    for w in (watch, other_watch):
        assert w.problems == [], "\n".join(w.problems)
