"""The rate-limit fields of a response: how much of each window is left.

A client should see its allowance before it runs out, not learn it from a
429. Every response to a request that counted against a window carries the
IETF fields of draft-ietf-httpapi-ratelimit-headers (structured fields,
RFC 9651), from the very count the limit itself took:

    RateLimit-Policy: "requests";q=1200;w=60
    RateLimit: "requests";r=1133;t=42

``q`` requests per ``w`` seconds; ``r`` left in the window, which ends in
``t`` seconds. ``POST /v1/matches`` counts against two windows and names
both (``"requests"`` and ``"creations"``). Chosen over GitHub's
``X-RateLimit-*``: one field carries any number of windows, ``t`` is a
delta (no clock skew, where ``X-RateLimit-Reset`` is an epoch), and it is
the form the IETF is standardising. Exempt requests (health, the spec, the
web client's files) count against nothing and carry neither field.

Both lanes remember their charges in the WSGI environ (``remember``); the
outermost header middleware (service/http/security_headers.py) writes the
fields at ``start_response``. The names and numbers are tokens and integers
the server chose, so they are formatted here directly (no escaping to do),
which keeps the move's path cheap; the client parses them with ``http-sf``.
"""

from collections.abc import Iterable
from typing import Any

from service.storage.rate_limit import RateCharge

ENVIRON_KEY = "tabula.rate_charges"


def remember(environ: dict[str, Any], charges: Iterable[RateCharge | None]) -> None:
    """Note the charges of this request, counted or to be counted."""
    environ.setdefault(ENVIRON_KEY, []).extend(charge for charge in charges if charge is not None)


def fields(environ: dict[str, Any]) -> list[tuple[str, str]]:
    """``RateLimit-Policy`` and ``RateLimit`` of the charges counted, if any."""
    counted = [charge for charge in environ.get(ENVIRON_KEY, ()) if charge.count is not None]
    if not counted:
        return []
    policy = ", ".join(f'"{c.window.what}";q={c.window.limit};w={c.window.seconds}' for c in counted)
    state = ", ".join(
        f'"{c.window.what}";r={max(0, c.window.limit - (c.count or 0))};t={c.window.seconds_left(c.now)}'
        for c in counted
    )
    return [("RateLimit-Policy", policy), ("RateLimit", state)]
