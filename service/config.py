"""Configuration: defaults, overridden by the environment, then by the caller.

Every key can be set as an environment variable of the same name (``REDIS_URL``,
``RATE_LIMIT``...). ``create_app(config)`` applies ``config`` last, which is
what tests use.
"""

import os

DEFAULTS = {
    # Match state, tokens, lobby and rate-limit counters.
    "REDIS_URL": "redis://127.0.0.1:6380/0",
    # RQ's queues and the worker heartbeat; a separate instance is allowed
    # because RQ does not support Redis Cluster (stack-notes §2).
    "RQ_REDIS_URL": None,
    "MAX_CONTENT_LENGTH": 64 * 1024,
    # Requests per window per bearer token (or client address without one).
    "RATE_LIMIT": 1200,
    "RATE_LIMIT_WINDOW_S": 60,
    # Match creations per window per client address, on top of RATE_LIMIT:
    # each creation stores a match, so it is the costly request to flood.
    "CREATE_RATE_LIMIT": 60,
    # Origins whose browser pages may call the API (CORS): "*" or a
    # comma-separated list of origins; empty: no CORS headers at all.
    "CORS_ORIGINS": "",
    # 0: refuse `dice: reproducible` (creator-known dice) on this server;
    # every match then has fair dice.
    "ALLOW_REPRODUCIBLE_DICE": 1,
    "AI_QUEUE": "ai",
    # An AI decision pending this long without progress is re-enqueued.
    "AI_STALL_S": 10,
    # One AI job plays consecutive AI decisions for up to this long.
    "AI_CHAIN_BUDGET_S": 1.0,
    # /readyz wants a worker heartbeat younger than this.
    "WORKER_SEEN_S": 60,
    # /readyz wants at least this many workers with a fresh heartbeat.
    "READY_MIN_WORKERS": 1,
    "IDEMPOTENCY_TTL_S": 24 * 3600,
    "REDIS_SOCKET_TIMEOUT_S": 5.0,
}

_INTS = {"MAX_CONTENT_LENGTH", "RATE_LIMIT", "RATE_LIMIT_WINDOW_S", "CREATE_RATE_LIMIT",
         "AI_STALL_S", "WORKER_SEEN_S", "READY_MIN_WORKERS", "IDEMPOTENCY_TTL_S",
         "ALLOW_REPRODUCIBLE_DICE"}
_FLOATS = {"REDIS_SOCKET_TIMEOUT_S", "AI_CHAIN_BUDGET_S"}


def _convert(key, raw):
    if key in _INTS:
        return int(raw)
    if key in _FLOATS:
        return float(raw)
    return raw


def load_config(overrides=None):
    """Defaults < environment < ``overrides``; returns a plain dict."""
    config = dict(DEFAULTS)
    for key in DEFAULTS:
        raw = os.environ.get(key)
        if raw not in (None, ""):
            config[key] = _convert(key, raw)
    config.update(overrides or {})
    if not config.get("RQ_REDIS_URL"):
        config["RQ_REDIS_URL"] = config["REDIS_URL"]
    return config
