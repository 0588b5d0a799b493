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
