"""Checks every request passes before its route: rate limit, then body shape.

Rate limit: a fixed-window counter in Redis per bearer token (its hash) or,
without one, per client address; ``RATE_LIMIT`` requests per
``RATE_LIMIT_WINDOW_S`` (generous by default). Health, readiness and the
spec are exempt. When Redis is down the limit fails open: the route then
answers 503 itself if it needs storage.

Body: a POST with a body must be a JSON object (400 ``bad_request``
otherwise); over ``MAX_CONTENT_LENGTH`` is 413 (raised by werkzeug when the
body is read).
"""

import hashlib
import json
import time

import redis
from flask import current_app, request

from .errors import ApiError
from .tokens import bearer_token

EXEMPT_PATHS = frozenset({"/healthz", "/readyz", "/openapi.yaml", "/openapi.json", "/docs"})


def _identity():
    token = bearer_token(request.headers)
    if token:
        return "t:" + hashlib.sha256(token.encode("utf-8")).hexdigest()
    return "a:" + (request.remote_addr or "unknown")


def check_rate_limit():
    if request.path in EXEMPT_PATHS:
        return
    services = current_app.extensions["tabula"]
    limit = services.config["RATE_LIMIT"]
    window = services.config["RATE_LIMIT_WINDOW_S"]
    if limit <= 0:
        return
    now = time.time()
    index = int(now // window)
    key = f"ratelimit:{_identity()}:{index}"
    try:
        pipe = services.redis.pipeline(transaction=False)
        pipe.incr(key)
        pipe.expire(key, window + 1, nx=True)
        count = pipe.execute()[0]
    except redis.RedisError:
        return
    if count > limit:
        retry_after = max(1, int((index + 1) * window - now + 0.999))
        raise ApiError(429, "rate_limited", f"more than {limit} requests in {window} s",
                       headers={"Retry-After": str(retry_after)}, retry_after_s=retry_after)


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
    if not isinstance(body, dict):
        raise ApiError(400, "bad_request", "the body must be a JSON object")
