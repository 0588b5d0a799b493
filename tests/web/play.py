"""Driving the web client as a person would: the lobby form, clicks on the
board and on move buttons. Used by the browser tests."""

import json
import time

from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

# Moves that end a player's part of a turn: chosen first, so the AI seats
# finish the match in a few dozen of the person's decisions.
QUICK_MOVES = ("end_turn", "pass", "keep_hand", "end_trading", "decline_offer", "return_tile", "cancel_draft")


# What the page offers now, read in one call (each locator query is a round
# trip to the browser; a whole match makes a few hundred decisions):
# "finished", null while it is busy or not the person's turn, else the version
# shown, the move buttons' types and how many board places are highlighted.
NEXT_DECISION = """() => {
  const main = document.querySelector('main');
  if (main.dataset.status === 'finished') return 'finished';
  if (main.dataset.busy) return null;
  const types = [...document.querySelectorAll('.actions button.move')].map(b => b.dataset.type);
  const targets = document.querySelectorAll('.board .target').length;
  return types.length || targets ? {version: main.dataset.version, types, targets} : null;
}"""


# What the page shows when a move seems lost: its alert, version, busy flag,
# status line and whether its live stream is connected.
SHOWN = """() => {
  const main = document.querySelector('main');
  const text = (selector) => document.querySelector(selector)?.textContent ?? null;
  return {alert: text('[role=alert]'), version: main.dataset.version, busy: main.dataset.busy ?? null,
          status: text('.status'), live: text('.live-state')};
}"""


def create_match(page, client_url, game, options, seats, name="Ada", seed=None):
    """Fill the lobby's form at ``client_url`` (the client's address); ``seats``
    like ``["you", "ai:easy", "open"]``; ``seed``: reproducible dice from it.
    Returns the match id."""
    page.goto(client_url)
    form = page.locator("form.create-form")
    form.locator("select[name=game]").select_option(game)
    for option, value in options.items():
        select = form.locator(f"select[name='option:{option}']")
        wanted = json.dumps(value)
        # The game's default is the first entry ("Basic (default)"), whose value is empty.
        chosen = select.select_option(wanted if select.locator(f"option[value='{wanted}']").count() else "")
        assert chosen, option
    if page.locator("input[name=player-name]").count():  # signed in: the account's name
        page.locator("input[name=player-name]").fill(name)
    while form.locator(".seat-row").count() < len(seats):
        form.get_by_role("button", name="Add a seat").click()
    while form.locator(".seat-row").count() > len(seats):
        form.get_by_role("button", name="Remove a seat").click()
    for index, seat in enumerate(seats):
        kind, _, level = seat.partition(":")
        row = form.locator(f".seat-row[data-seat='{index}']")
        row.locator("select[name=kind]").select_option(kind)
        if level:
            row.locator("select[name=level]").select_option(level)
    if seed is not None:
        form.locator("details.advanced summary").click()
        form.locator("input[name=seed]").fill(str(seed))
        form.locator("input[name=reproducible]").check()
    form.get_by_role("button", name="Create the match").click()
    page.wait_for_url("**#/match/*")
    page.wait_for_selector("main[data-status]")
    return page.url.rsplit("/", 1)[-1]


def press(button):
    """Click a move button, opening its group first when it is folded away."""
    if not button.is_visible():
        button.locator("xpath=ancestor::details[1]/summary").click()
    button.click()


def click_board(page):
    """Click the first highlighted place on the board (and the menu's first move, if it opens)."""
    page.locator(".board .target").first.click()
    menu = page.locator(".move-menu [role=menuitem]")
    if menu.count():
        menu.first.click()


def click_button(page, types=None):
    """Click the quickest move button there is (else the first); ``types``:
    the buttons' move types when already read (``NEXT_DECISION``)."""
    if types is None:
        types = page.locator(".actions button.move").evaluate_all("bs => bs.map(b => b.dataset.type)")
    quick = next((t for t in QUICK_MOVES if t in types), None)
    if quick is None:
        press(page.locator(".actions button.move").first)
    else:
        press(page.locator(f".actions button.move[data-type='{quick}']").first)


def play_to_end(page, timeout_s=300):
    """Play the page's seat until the match is over. Returns how many moves
    were clicked on the board and as buttons."""
    clicked = {"board": 0, "buttons": 0}
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        offer = page.wait_for_function(NEXT_DECISION, timeout=120_000).json_value()
        if offer == "finished":
            return clicked
        # The board at least once a match (and whenever it is the only way).
        if offer["targets"] and (not offer["types"] or clicked["board"] == 0):
            click_board(page)
            clicked["board"] += 1
        else:
            click_button(page, offer["types"])
            clicked["buttons"] += 1
        wait_for_the_move(page, offer)
    raise AssertionError(f"the match did not end within {timeout_s} s ({clicked})")


def wait_for_the_move(page, offer, timeout_ms=60_000):
    """Wait until the page shows a version after the offer's (or the end);
    if it never does, fail with what the page says (its alert, its state)."""
    try:
        page.wait_for_function(
            "v => document.querySelector('main').dataset.version !== v && !document.querySelector('main').dataset.busy"
            " || document.querySelector('main').dataset.status === 'finished'",
            arg=offer["version"],
            timeout=timeout_ms,
        )
    except PlaywrightTimeoutError:
        shown = page.evaluate(SHOWN)
        raise AssertionError(f"no new version after the move at {offer}: the page shows {shown}") from None
