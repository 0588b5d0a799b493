"""CORS for third-party browser frontends, with flask-cors.

Allowed origins come from ``CORS_ORIGINS``: ``*`` (what ``make run`` sets,
for local frontends), a comma-separated list of origins (containers and
Kubernetes name theirs), or empty (no CORS headers: browsers on other
origins are refused). Bearer tokens, never cookies: no credentials.

flask-cors answers preflights for every route and adds the headers to every
Flask response; ``cors_headers`` gives the move lane (service/http/move_lane.py),
which answers without Flask, the very same headers from the same options.
"""

from typing import Any

from flask import Flask
from flask_cors import CORS
from flask_cors.core import get_cors_headers, get_cors_options
from werkzeug.datastructures import EnvironHeaders

OPTIONS = {
    "methods": ["GET", "HEAD", "POST", "OPTIONS"],
    "allow_headers": [
        "Authorization",
        "Content-Type",
        "If-Match",
        "If-None-Match",
        "Idempotency-Key",
        "Last-Event-ID",
        "X-Request-ID",
    ],
    # Without these a page's script cannot read them.
    # RateLimit(-Policy): a browser frontend sees its allowance (service/http/rate_headers.py).
    "expose_headers": [
        "ETag",
        "Location",
        "X-Pagination",
        "Retry-After",
        "WWW-Authenticate",
        "X-Request-ID",
        "RateLimit",
        "RateLimit-Policy",
    ],
    "supports_credentials": False,
    "max_age": 600,
}


def allowed_origins(setting: str | None) -> str | list[str] | None:
    """``"*"``, a list of origins, or None (CORS off) from ``CORS_ORIGINS``."""
    setting = (setting or "").strip()
    if setting == "*":
        return "*"
    origins = [origin.strip() for origin in setting.split(",") if origin.strip()]
    return origins or None


def install(app: Flask, setting: str | None) -> Any:
    """Enable CORS on ``app``; returns the computed options (None: off)."""
    origins = allowed_origins(setting)
    if origins is None:
        return None
    # "*" is sent as "*" (no credentials are involved), not echoed per origin.
    options = {**OPTIONS, "origins": origins, "send_wildcard": origins == "*"}
    CORS(app, resources={r"/*": options})
    return get_cors_options(app, options)


def cors_headers(options: Any, environ: dict[str, Any]) -> list[tuple[str, str]]:
    """The CORS headers flask-cors adds to a response to this request."""
    if options is None:
        return []
    headers = get_cors_headers(options, EnvironHeaders(environ), environ.get("REQUEST_METHOD", "GET"))
    return [(name, str(value)) for name, value in headers.items(multi=True)]
