"""GET /docs: Swagger UI on /openapi.json, its files served by the app itself.

The page loads Swagger UI from /docs/assets/ (the installed flask-swagger-ui
package), never from another host, and neither it nor its files count
against the rate limit. tests/web/test_docs_in_browser.py checks it renders.
"""

import re

import pytest

from .conftest import make_app

ASSET = re.compile(r'(?:src|href)="(/docs/assets/[^"]+)"')
CONTENT_TYPES = {".js": "text/javascript", ".css": "text/css"}


def _assets(page):
    return ASSET.findall(page)


def test_the_page_is_swagger_ui_on_local_files_and_the_spec(client):
    response = client.get("/docs")
    assert response.status_code == 200
    assert response.mimetype == "text/html"
    page = response.get_data(as_text=True)
    assert not re.search(r"https?://", page), "the page must not name another host"
    assert sorted(_assets(page)) == sorted(
        {
            "/docs/assets/swagger-ui.css",
            "/docs/assets/swagger-ui-bundle.js",
            "/docs/assets/tabula-docs.css",
            "/docs/assets/tabula-docs.js",
        }
    )
    # Its own script (a file: the page's CSP allows no inline script).
    script = client.get("/docs/assets/tabula-docs.js").get_data(as_text=True)
    assert "SwaggerUIBundle(" in script and 'url: "/openapi.json"' in script


def test_each_asset_answers_with_its_content_type(client):
    for path in _assets(client.get("/docs").get_data(as_text=True)):
        response = client.get(path)
        assert response.status_code == 200, path
        assert response.mimetype == CONTENT_TYPES[path[path.rindex(".") :]], path
        assert len(response.get_data()) > (1000 if "swagger" in path else 10), path


@pytest.mark.parametrize(
    "path",
    [
        "/docs/assets/../../__init__.py",
        "/docs/assets/..%2F__init__.py",
        "/docs/assets/%2e%2e/__init__.py",
        "/docs/assets/index.css",
        "/docs/assets/swagger-ui.js",
        "/docs/assets/no-such-file.js",
    ],
)
def test_traversal_and_other_files_are_404(client, path):
    assert client.get(path).status_code == 404


def test_the_page_and_its_assets_are_not_rate_limited(redis_server):
    app = make_app(redis_server.url, RATE_LIMIT=3)
    try:
        client = app.test_client()
        paths = ["/docs", *_assets(client.get("/docs").get_data(as_text=True))]
        statuses = [client.get(path).status_code for _ in range(4) for path in paths]
        assert statuses == [200] * len(statuses)
        assert [client.get("/v1/games").status_code for _ in range(4)][-1] == 429
    finally:
        app.extensions["tabula"].close()
