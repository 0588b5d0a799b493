"""The rate limit every request passes before its route.

Rate limit (service/rate_limit.py): ``RATE_LIMIT`` requests per
``RATE_LIMIT_WINDOW_S`` per known bearer token, else per client address,
and ``CREATE_RATE_LIMIT`` match creations per address. Routes on the hot
path count in the same round trip as their first read of the match
(``load_charged``). Health, readiness, the spec, /docs (and its assets) and
/metrics are exempt. When Redis is down the limit fails open: the route then
answers 503 itself if it needs storage.

The body checks that follow it are in service/bodies.py.
"""

import redis
from flask import current_app, g, request

from .rate_limit import RateCharge, create_window, request_window
from .routes.ops import DOCS_ASSETS_PREFIX
from .routes.web import CLIENT_PREFIX
from .tokens import bearer_token, hash_token

EXEMPT_PATHS = frozenset({"/", "/play", "/healthz", "/readyz", "/openapi.yaml", "/openapi.json",
                          "/docs", "/metrics"})
CREATE_ENDPOINT = "matches.Matches"


def _address():
    return request.remote_addr or "unknown"


def request_charge(config, bearer, address):
    """The RateCharge of a request with ``bearer`` (None: none) from ``address``."""
    return RateCharge.configured(request_window(config), address,
                                 hash_token(bearer) if bearer else None)


def _route_defers_rate_limit():
    view = current_app.view_functions.get(request.endpoint)
    return getattr(getattr(view, "view_class", None), "defers_rate_limit", False)


def _charges(config):
    charges = [request_charge(config, bearer_token(request.headers), _address())]
    if request.endpoint == CREATE_ENDPOINT and request.method == "POST":
        charges.append(RateCharge.configured(create_window(config), _address()))
    return [charge for charge in charges if charge is not None]


def check_rate_limit():
    if request.path in EXEMPT_PATHS or request.path.startswith((CLIENT_PREFIX, DOCS_ASSETS_PREFIX)):
        return
    services = current_app.extensions["tabula"]
    charges = _charges(services.config)
    if charges and _route_defers_rate_limit():
        g.rate_charge = charges.pop(0)
    for charge in charges:
        try:
            count = charge.count_with(services.store)
        except redis.RedisError:
            return  # fail open: the route answers 503 itself if it needs storage
        charge.enforce(count)


def pending_rate_limit_error():
    """For error handlers: count a deferred request its route never read for
    (it failed first, e.g. a malformed body) and return its 429, if over."""
    charge = g.pop("rate_charge", None)
    if charge is None:
        return None
    try:
        count = charge.count_with(current_app.extensions["tabula"].store)
    except redis.RedisError:
        return None
    return charge.error_if_over(count)


def count_unread_charge(response):
    """after_request safety net: a deferred count its route never sent (a
    route that answers without reading its match) is still counted."""
    pending_rate_limit_error()
    return response
