"""GET /docs in a real browser: Swagger UI renders the served spec, offline.

Every file the page loads comes from the app itself (the browser's requests
are checked), nothing goes wrong on the page, and the operations are listed.
"""

from urllib.parse import urlsplit

import pytest

from .conftest import screenshot

# Left out by `make test-fast` (-m "not slow"): starts a browser.
pytestmark = pytest.mark.slow


def test_swagger_ui_lists_the_operations(stack, new_page):
    page, watch = new_page()
    requested = []
    page.on("request", lambda request: requested.append(request.url))

    page.goto(f"{stack}/docs")
    page.locator(".swagger-ui .opblock").first.wait_for()

    assert page.locator(".swagger-ui .information-container .title").inner_text().startswith("Tabula")
    assert page.locator(".opblock-summary-path", has_text="/v1/matches/{match_id}/board.svg").count() == 1
    assert page.locator(".opblock").count() >= 10
    assert page.locator(".swagger-ui .errors-wrapper").count() == 0
    screenshot(page, "docs")
    assert watch.problems == []
    own_host = urlsplit(stack).netloc
    assert {urlsplit(url).netloc for url in requested} == {own_host}, requested


def test_the_policy_stops_an_injected_script(stack, new_page):
    """What the web client's CSP is for: a script injected into the page (as
    an XSS would) does not run, and chromium reports the violation."""
    page, watch = new_page()
    page.goto(f"{stack}/play/")
    page.locator("form.create-form").wait_for()
    page.evaluate(
        """() => {
          const s = document.createElement("script");
          s.textContent = "window.stolen = Object.keys(localStorage).length";
          document.body.append(s);
        }"""
    )
    page.wait_for_timeout(200)
    assert page.evaluate("window.stolen") is None
    assert any("CSP violation: script-src" in problem for problem in watch.problems), watch.problems
