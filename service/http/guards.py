"""The rate limit every request passes before its route.

Rate limit (service/storage/rate_limit.py): ``RATE_LIMIT`` requests per
``RATE_LIMIT_WINDOW_S`` per known bearer token, else per client address,
and ``CREATE_RATE_LIMIT`` match creations per address. Routes on the hot
path count in the same round trip as their first read of the match
(``load_charged``). Health, readiness, the spec, /docs (and its assets) and
/metrics are exempt. When Redis is down the limit fails open: the route then
answers 503 itself if it needs storage.

The body checks that follow it are in service/http/bodies.py.
"""

from typing import Any

import redis
from flask import Response, current_app, g, request

from service.http import rate_headers
from service.http.routes.ops import DOCS_ASSETS_PREFIX
from service.http.routes.web import CLIENT_PREFIX
from service.model.accounts import PAT_PREFIX
from service.model.errors import ApiError
from service.model.tokens import bearer_token, hash_token
from service.storage.rate_limit import RateCharge, create_window, request_window
from service.storage.store import Store

EXEMPT_PATHS = frozenset(
    {"/", "/play", "/healthz", "/readyz", "/openapi.yaml", "/openapi.json", "/docs", "/metrics"}
)
CREATE_ENDPOINT = "matches.Matches"


def _address() -> str:
    return request.remote_addr or "unknown"


def route_defers_rate_limit(view_functions: dict[Any, Any], endpoint: str | None) -> bool:
    """Whether ``endpoint``'s route counts its request itself (``load_charged``)."""
    view = view_functions.get(endpoint)
    return getattr(getattr(view, "view_class", None), "defers_rate_limit", False)


def request_charges(
    config: dict[str, Any],
    endpoint: str | None,
    method: str,
    bearer: str | None,
    address: str,
    defers: bool,
    match_id: str | None = None,
) -> tuple[RateCharge | None, list[RateCharge]]:
    """``(deferred, immediate)``: the count a route that ``defers`` makes itself
    (or None) and the RateCharges to count before it runs. ``match_id``: the
    route's match, where a token that is not an account token is counted
    first (a seat token's window is kept with its match: storage/counters.py).

    Both lanes take their charges here, Flask's before_request hook and the
    move lane (service/http/move_lane.py), so a limit added here applies to both."""
    seat_match = None if bearer is None or bearer.startswith(PAT_PREFIX) else match_id
    configured = [
        RateCharge.configured(
            request_window(config), address, hash_token(bearer) if bearer else None, seat_match
        )
    ]
    if endpoint == CREATE_ENDPOINT and method == "POST":
        configured.append(RateCharge.configured(create_window(config), address))
    charges = [charge for charge in configured if charge is not None]
    deferred = charges.pop(0) if charges and defers else None
    return deferred, charges


def enforce_charges(store: Store, charges: list[RateCharge]) -> None:
    """Count each charge; raise the first 429 over its limit."""
    for charge in charges:
        try:
            count = charge.count_with(store)
        except redis.RedisError:
            return  # fail open: the route answers 503 itself if it needs storage
        charge.enforce(count)


def check_rate_limit() -> None:
    if request.path in EXEMPT_PATHS or request.path.startswith((CLIENT_PREFIX, DOCS_ASSETS_PREFIX)):
        return
    services = current_app.extensions["tabula"]
    defers = route_defers_rate_limit(current_app.view_functions, request.endpoint)
    deferred, immediate = request_charges(
        services.config,
        request.endpoint,
        request.method,
        bearer_token(request.headers),
        _address(),
        defers,
        (request.view_args or {}).get("match_id"),
    )
    rate_headers.remember(request.environ, [deferred, *immediate])
    if deferred is not None:
        g.rate_charge = deferred  # taken once by deferred_charge()
    enforce_charges(services.store, immediate)


def deferred_charge() -> RateCharge | None:
    """The request's own rate-limit count that ``check_rate_limit`` deferred
    to its route's first read, taken once: by the route for its operation
    (which counts it with that read), else by the app's error response or
    the after_request net. None when there is none (or it was taken)."""
    return g.pop("rate_charge", None)


def pending_rate_limit_error() -> ApiError | None:
    """For the app's error response: count a deferred request its route never
    read for (it failed first, e.g. a malformed body) and return its 429, if over."""
    charge = deferred_charge()
    if charge is None:
        return None
    try:
        count = charge.count_with(current_app.extensions["tabula"].store)
    except redis.RedisError:
        return None
    return charge.error_if_over(count)


def count_unread_charge(response: Response) -> Response:
    """after_request safety net: a deferred count its route never sent (a
    route that answers without reading its match) is still counted."""
    pending_rate_limit_error()
    return response
