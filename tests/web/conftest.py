"""Browser tests: Playwright drives Debian's chromium against a real stack.

One stack per xdist worker (session scope): a private redis-server, a real
gunicorn (deploy/gunicorn.conf.py, gevent: the event streams stay open) and
two RQ workers for the AI seats. Playwright's own browser download cannot
reach its host here, so it launches the system's /usr/bin/chromium (`make
test` installs it).

Screenshots go to ``$TABULA_TEST_OUTPUT/web`` (default ``var/test-output``);
with ``TABULA_UPDATE_SCREENSHOTS=1`` the README's pictures in
``docs/screenshots/`` are replaced too.
"""

import contextlib
import os
import shutil
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import sync_playwright

from launcher.redis_process import free_port
from tests.service.live import LiveServer, RqWorker

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
# Quiet, offline chromium: no background connections to hosts this machine cannot reach.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
OUTPUT = Path(os.environ.get("TABULA_TEST_OUTPUT", ROOT / "var" / "test-output")) / "web"
README_SCREENSHOTS = ROOT / "docs" / "screenshots"


# Open event streams would hold a gunicorn's stop for the default 20 s.
QUICK_STOP = {"GUNICORN_GRACEFUL_TIMEOUT": "2"}


# The port of `other_server`, chosen before `stack` starts: the stack's pages
# name it in their CSP connect-src (WEB_CLIENT_SERVERS), as an operator would.
OTHER_SERVER_PORT = free_port()


@pytest.fixture(scope="session")
def stack(redis_url, tmp_path_factory):
    """The base URL of a running Tabula (gunicorn + 2 AI workers on a private Redis)."""
    logs = tmp_path_factory.mktemp("web-stack")
    env = {**QUICK_STOP, "WEB_CLIENT_SERVERS": f"http://127.0.0.1:{OTHER_SERVER_PORT}"}
    with (
        RqWorker(redis_url, log=logs / "worker-1.log"),
        RqWorker(redis_url, log=logs / "worker-2.log"),
        LiveServer(redis_url, workers=2, log=logs / "gunicorn.log", env=env) as server,
    ):
        yield server.url


@pytest.fixture
def other_server(redis_url):
    """A second API server on the same storage that allows any origin (CORS)."""
    env = {**QUICK_STOP, "CORS_ORIGINS": "*"}
    with LiveServer(redis_url, workers=1, env=env, port=OTHER_SERVER_PORT) as server:
        yield server.url


@pytest.fixture(scope="session")
def browser():
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


class PageWatch:
    """Collects what must not happen on a page: console errors, page errors,
    failed requests and error responses."""

    def __init__(self, page):
        self.problems = []
        self.not_modified = set()
        self.leaving = False
        page.on("console", lambda m: m.type == "error" and self.problems.append(f"console: {m.text}"))
        page.on("pageerror", lambda e: self.problems.append(f"page error: {e}"))
        page.on("response", self._response)
        page.on("requestfailed", self._failed)

    def _response(self, response):
        page_document = response.request.resource_type == "document" and urlsplit(
            response.url
        ).path.startswith(("/play/", "/docs"))
        if page_document and "script-src 'self'" not in (
            response.headers.get("content-security-policy") or ""
        ):
            self.problems.append(f"page without its Content-Security-Policy: {response.url}")
        if response.status == 304:
            self.not_modified.add(response.request)
        elif response.status >= 400:
            self.problems.append(f"HTTP {response.status} {response.request.method} {response.url}")

    def _failed(self, request):
        # Chromium reports a 304 answer to fetch() (no body) as aborted after
        # the response arrived; leaving a page aborts its open event stream.
        # Neither is a failure.
        aborted = "ERR_ABORTED" in (request.failure or "")
        if aborted and (self.leaving or request in self.not_modified or "/stream" in request.url):
            return
        self.problems.append(f"request failed: {request.method} {request.url} {request.failure}")

    @contextlib.contextmanager
    def left_by_the_test(self):
        """While the test itself reloads or leaves the page, the reads the page
        had in flight are aborted by the browser: not the page's failure."""
        self.leaving = True
        try:
            yield
        finally:
            self.leaving = False


REPORT_CSP_VIOLATIONS = """
document.addEventListener("securitypolicyviolation", (e) =>
  console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`));
"""


@pytest.fixture
def new_page(browser):
    """``new_page()`` -> ``(page, watch)`` in a fresh context (its own localStorage)."""
    contexts = []

    def make(width=1400, height=1000):
        # Reduced motion: the highlights' endless animation kept chromium's
        # software rasterizer busy (~12% of a playthrough's CPU); the motion
        # itself is checked in test_live_and_secrecy.py.
        context = browser.new_context(viewport={"width": width, "height": height}, reduced_motion="reduce")
        contexts.append(context)
        # Every CSP violation (service/http/security_headers.py) is a page's
        # failure: reported as a console error, which PageWatch collects.
        context.add_init_script(REPORT_CSP_VIOLATIONS)
        page = context.new_page()
        page.set_default_timeout(30_000)
        return page, PageWatch(page)

    yield make
    for context in contexts:
        context.close()


def screenshot(page, name):
    """Write ``name``.png into the output folder (and the README's, when asked)."""
    OUTPUT.mkdir(parents=True, exist_ok=True)
    path = OUTPUT / f"{name}.png"
    page.screenshot(path=path, full_page=True)
    if os.environ.get("TABULA_UPDATE_SCREENSHOTS") == "1":
        README_SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        shutil.copy(path, README_SCREENSHOTS / path.name)
    return path
