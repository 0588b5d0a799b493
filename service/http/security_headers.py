"""The security headers of every response, by kind: the web client's and the
docs' pages, and the API's own answers (JSON, SVG, streams); and the
rate-limit fields of those that counted (service/http/rate_headers.py).

The web client keeps bearer tokens in ``localStorage``: one script injected
into its origin reads them all. So its pages (``/play/`` and ``/docs``) carry
a strict Content-Security-Policy: scripts and styles only from this origin's
files (no inline script; the one inline style a board picture carries is
allowed by its hash), connections only to this origin and the API servers
the operator names (``WEB_CLIENT_SERVERS``, for ``/play/?server=``), no
framing, no plugins, no ``<base>``. Everything else is data, not a page: its
policy forbids everything (``default-src 'none'``), so even a response a
browser were tricked into rendering runs nothing.

Applied as WSGI middleware so both lanes (Flask and the move's own,
service/http/move_lane.py) answer with the same headers, in one place.
"""

from __future__ import annotations

import base64
import hashlib
import re
from collections.abc import Iterable
from functools import cache
from typing import Any

import engine
from engine.render import board_svg
from service.http import rate_headers

# Every response: no MIME sniffing (a JSON body is never run as a script),
# no referrer leaves for another origin, and no page of ours in a frame.
COMMON = (
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "no-referrer"),
    ("X-Frame-Options", "DENY"),
)
# The API's answers are data: nothing in them may load or run.
API_POLICY = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
PAGE_PREFIXES = ("/play/", "/docs")
_STYLE = re.compile(r"<style>(.*?)</style>", re.DOTALL)


def style_hashes() -> tuple[str, ...]:
    """CSP hash sources of every ``<style>`` a board picture carries (one
    sheet serves every variant of a game: engine/render): the web client puts
    the pictures inline, so their sheets must be allowed, and only they."""
    return _style_hashes()


@cache
def _style_hashes() -> tuple[str, ...]:
    sheets = set()
    for game_id in engine.list_games():
        game = engine.get_game(game_id)
        state = game.setup(2, {}, seed=1)
        sheets.update(_STYLE.findall(board_svg(game.view(state, None))))
    return tuple(sorted(f"'sha256-{_digest(sheet)}'" for sheet in sheets))


def _digest(text: str) -> str:
    return base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii")


def page_policy(servers: Iterable[str]) -> str:
    """The CSP of the web client's and the docs' pages."""
    connect = " ".join(("'self'", *servers))
    return "; ".join(
        (
            "default-src 'none'",
            "script-src 'self'",
            " ".join(("style-src 'self'", *style_hashes())),
            "img-src 'self' data:",
            "font-src 'self'",
            f"connect-src {connect}",
            "manifest-src 'self'",
            "base-uri 'none'",
            "form-action 'self'",
            "frame-ancestors 'none'",
        )
    )


def configured_servers(setting: str) -> tuple[str, ...]:
    """``WEB_CLIENT_SERVERS``: comma-separated origins the web client may use."""
    return tuple(origin.strip() for origin in setting.split(",") if origin.strip())


class SecurityHeaders:
    """WSGI: adds the headers above to every response of ``app``."""

    def __init__(self, app: Any, servers: Iterable[str]) -> None:
        self.app = app
        self.page = (*COMMON, ("Content-Security-Policy", page_policy(servers)))
        self.api = (*COMMON, ("Content-Security-Policy", API_POLICY))

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Any:
        path = environ.get("PATH_INFO", "")
        extra = self.page if path.startswith(PAGE_PREFIXES) else self.api

        def with_headers(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            return start_response(status, [*headers, *extra, *rate_headers.fields(environ)], exc_info)

        return self.app(environ, with_headers)
