"""Checks every request passes before its route: rate limit, then body shape.

Rate limit: a fixed-window counter in Redis per bearer token (its hash) or,
without one, per client address; ``RATE_LIMIT`` requests per
``RATE_LIMIT_WINDOW_S`` (generous by default). Routes on the hot path count
in the same round trip as their first read of the match (``load_charged``).
Health, readiness and the spec are exempt. When Redis is down the limit
fails open: the route then answers 503 itself if it needs storage.

Body: a POST with a body must be a JSON object (400 ``bad_request``
otherwise); over ``MAX_CONTENT_LENGTH`` is 413 (raised by werkzeug when the
body is read).
"""

import codecs
import json
import time

import redis
from flask import current_app, g, request

from .errors import ApiError
from .tokens import bearer_token, hash_token

EXEMPT_PATHS = frozenset({"/healthz", "/readyz", "/openapi.yaml", "/openapi.json", "/docs"})


def token_identity(token_hash):
    """The rate-limit identity of a bearer token (by its hash)."""
    return "t:" + token_hash


def _identity():
    token = bearer_token(request.headers)
    if token:
        return token_identity(hash_token(token))
    return "a:" + (request.remote_addr or "unknown")


class RateCharge:
    """One request to count against its identity's window.

    A route that reads its match first (its class sets ``defers_rate_limit``)
    sends the count in the same Redis round trip as that read
    (``load_charged``); every other request is counted before its route runs.
    """

    def __init__(self, limit, window, identity):
        now = time.time()
        self.limit = limit
        self.window = window
        self.index = int(now // window)
        self.now = now
        self.key = f"ratelimit:{identity}:{self.index}"
        self.ttl = window + 1

    @classmethod
    def configured(cls, config, identity):
        """The charge of one request under ``config``, or None when the limit is off."""
        limit = config["RATE_LIMIT"]
        return cls(limit, config["RATE_LIMIT_WINDOW_S"], identity) if limit > 0 else None

    def count_now(self, client):
        pipe = client.pipeline(transaction=False)
        pipe.incr(self.key)
        pipe.expire(self.key, self.ttl, nx=True)
        return pipe.execute()[0]

    def error_if_over(self, count):
        """The 429 for ``count`` requests in this window, or None."""
        if count <= self.limit:
            return None
        retry_after = max(1, int((self.index + 1) * self.window - self.now + 0.999))
        return ApiError(429, "rate_limited", f"more than {self.limit} requests in {self.window} s",
                        headers={"Retry-After": str(retry_after)}, retry_after_s=retry_after)

    def enforce(self, count):
        error = self.error_if_over(count)
        if error is not None:
            raise error


def _route_defers_rate_limit():
    view = current_app.view_functions.get(request.endpoint)
    return getattr(getattr(view, "view_class", None), "defers_rate_limit", False)


def check_rate_limit():
    if request.path in EXEMPT_PATHS:
        return
    services = current_app.extensions["tabula"]
    charge = RateCharge.configured(services.config, _identity())
    if charge is None:
        return
    if _route_defers_rate_limit():
        g.rate_charge = charge
        return
    try:
        count = charge.count_now(services.redis)
    except redis.RedisError:
        return  # fail open: the route answers 503 itself if it needs storage
    charge.enforce(count)


def load_charged(store, match_id, token_hash, charge):
    """``store.load`` plus the rate-limit count ``charge`` (None: none), one round trip.

    The 429 comes before anything the read tells (404, 401...), as when the
    count is taken before the route.
    """
    if charge is None:
        return store.load(match_id, token_hash)
    stored, count = store.load_counted(match_id, token_hash, charge.key, charge.ttl)
    charge.enforce(count)
    return stored


def pending_rate_limit_error():
    """For error handlers: count a deferred request its route never read for
    (it failed first, e.g. a malformed body) and return its 429, if over."""
    charge = g.pop("rate_charge", None)
    if charge is None:
        return None
    try:
        count = charge.count_now(current_app.extensions["tabula"].redis)
    except redis.RedisError:
        return None
    return charge.error_if_over(count)


def count_unread_charge(response):
    """after_request safety net: a deferred count its route never sent (a
    route that answers without reading its match) is still counted."""
    pending_rate_limit_error()
    return response


def check_json_body():
    if request.method not in ("POST", "PUT", "PATCH"):
        return
    raw = request.get_data(cache=True)
    if not raw:
        return
    if not request.is_json:
        raise ApiError(400, "bad_request", "the body must be JSON (Content-Type: application/json)")
    try:
        body = json.loads(raw)
    except ValueError as error:
        raise ApiError(400, "bad_request", f"the body is not valid JSON: {error}") from None
    except RecursionError:
        raise ApiError(400, "bad_request", "the body's JSON is nested too deeply") from None
    if not isinstance(body, dict):
        raise ApiError(400, "bad_request", "the body must be a JSON object")


def decoded_as_webargs_does(raw):
    """True when ``json.loads(raw)`` read the same text as webargs' strict
    ``raw.decode("utf-8")``: json.loads guesses the encoding from a BOM or
    from NUL bytes in the first four, and decodes with ``surrogatepass``;
    valid strict UTF-8 without a BOM or those NULs leaves it nothing to guess.
    """
    if raw.startswith(codecs.BOM_UTF8) or b"\0" in raw[:4]:
        return False
    if raw.isascii():
        return True
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True
