"""Configuration: defaults, overridden by the environment, then by the caller.

Every key can be set as an environment variable of the same name (``REDIS_URL``,
``RATE_LIMIT``...). ``create_app(config)`` applies ``config`` last, which is
what tests use.
"""

import os
from typing import Any

from service.storage.targets import ConfigError, check_roles

DEFAULTS = {
    # Match state, tokens, lobby, rate-limit counters and the live streams'
    # pub/sub (service/storage/redis_modes.py says the URL forms of each mode).
    "REDIS_URL": "redis://127.0.0.1:6380/0",
    # What REDIS_URL points at: standalone, sentinel (redis+sentinel://...)
    # or cluster (a Redis >= 7 Cluster).
    "REDIS_MODE": "standalone",
    # RQ's queues and the worker heartbeat (default: REDIS_URL): standalone or
    # redis+sentinel://, never a cluster (stack-notes §2), so it must be set
    # with REDIS_MODE=cluster.
    "RQ_REDIS_URL": None,
    # Acknowledged writes: every commit waits (WAIT) until this many replicas
    # have it before the API answers; 0: off. When they do not within
    # REDIS_WAIT_TIMEOUT_MS the client gets 503 `unavailable` (the move may
    # be applied: a retry with the same Idempotency-Key returns its result).
    "REDIS_WAIT_REPLICAS": 0,
    "REDIS_WAIT_TIMEOUT_MS": 500,
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
    # Other API servers the web client (/play/?server=...) may talk to: a
    # comma-separated list of origins, added to its pages' CSP connect-src
    # (service/http/security_headers.py); empty: only its own server.
    "WEB_CLIENT_SERVERS": "",
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
    # How long a finished match's hot keys (state, events, replay log,
    # idempotency records, its tokens' index entries) are kept after its
    # last change; then every read is served from its archive record
    # (docs/archive.md) and it can no longer change (a rematch is claimed
    # within this while). A little past STREAM_REMATCH_WAIT_S. 0: kept for ever.
    "FINISHED_MATCH_TTL_S": 900,
    # How long a finished match's archive record is kept after its last
    # change; then GET answers 404 and the lobby drops it. 0: for ever.
    "ARCHIVE_TTL_S": 0,
    # A finishing move's finish steps (service/play/finishing.py) that did
    # not complete this long after it are run by the workers' sweep.
    "FINISH_RECOVERY_S": 5,
    # 0: record no metrics (GET /metrics keeps its scrape-time gauges).
    "METRICS": 1,
    # The internal port that alone answers GET /metrics (gunicorn listens on
    # METRICS_HOST:METRICS_PORT too: deploy/gunicorn.conf.py); 0: no port does.
    # The public port answers 404 there (service/http/internal_port.py).
    "METRICS_PORT": 0,
    # 0: no request log line (one JSON line per request otherwise).
    "REQUEST_LOG": 1,
    # A human seat that times out this many decisions in a row is handed to
    # the `medium` AI for good, as on resign.
    "TURN_TIMEOUTS_TO_AI": 3,
    "REDIS_SOCKET_TIMEOUT_S": 5.0,
    # Event streams (service/live/hub.py): keep-alive interval, the life of a
    # stream ticket, and how many events a stream may fall behind before it
    # is told so (`too_far_behind`) and ended.
    "STREAM_KEEPALIVE_S": 15.0,
    "STREAM_TICKET_TTL_S": 60,
    "STREAM_QUEUE_MAX": 1000,
    # A stream that saw its match end stays open this long for a rematch
    # (it announces `rematch_created`, then ends); 0: it ends at once.
    "STREAM_REMATCH_WAIT_S": 30.0,
    # Under gevent, the Redis connections a process may open for requests
    # (a blocking pool: a greenlet waits for a free one).
    "REDIS_MAX_CONNECTIONS": 32,
    # Accounts (docs/accounts.md). Who may sign up (POST /v1/accounts):
    # "open" (anyone) or "closed" (only a request bearing TABULA_OPERATOR_KEY).
    "TABULA_SIGNUP": "open",
    "TABULA_OPERATOR_KEY": "",
    # Apps that make accounts for their own users (PUT /v1/apps/accounts/{id}):
    # "app1=secret1,app2=secret2"; empty: none.
    "TABULA_APP_KEYS": "",
    # Sign-ups per window per client address (0: off); the operator is not counted.
    "SIGNUP_RATE_LIMIT": 20,
    "SIGNUP_RATE_WINDOW_S": 3600,
    # Webhooks (docs/webhooks.md): their RQ queue, served by
    # `python -m service.worker.webhook_worker` (never by the AI workers).
    "WEBHOOK_QUEUE": "webhooks",
    # 1: http:// webhook URLs allowed (else https:// only).
    "WEBHOOK_ALLOW_HTTP": 0,
    # 1: private and loopback targets allowed (self-hosted; the tests);
    # cloud metadata addresses stay refused.
    "WEBHOOK_ALLOW_PRIVATE": 0,
    # Connect and read time-out of one delivery attempt.
    "WEBHOOK_TIMEOUT_S": 5.0,
    # The delays before each retry (seconds, comma-separated), each jittered
    # down by up to WEBHOOK_JITTER (a fraction).
    "WEBHOOK_RETRY_S": "30,120,600,1800,3600,7200,14400",
    "WEBHOOK_JITTER": 0.2,
    # Failed attempts in a row that switch the webhook off (3 events' retries).
    "WEBHOOK_DISABLE_AFTER": 24,
    # Challenges (docs/matchmaking.md): a challenge not accepted by every
    # invitee this long after it was made expires; it stays readable (and in
    # GET /v1/challenges) CHALLENGE_KEEP_S after that.
    "CHALLENGE_TTL_S": 600,
    "CHALLENGE_KEEP_S": 3600,
    # Challenges an account may make per window (0: off): each one notifies
    # other accounts, so it is the request to flood them with.
    "CHALLENGE_RATE_LIMIT": 30,
    "CHALLENGE_RATE_WINDOW_S": 600,
    # Seeks ("Play now"): a seek not renewed this long (by its account's open
    # stream, at each keep-alive, or by GET /v1/seeks) is dropped; keep it
    # above STREAM_KEEPALIVE_S.
    "SEEK_TTL_S": 45,
    # Seconds between two pairing waves of a pool (run by one worker at a time).
    "SEEK_WAVE_S": 1.5,
    # The rating difference (mu) two seekers accept: SEEK_SPREAD_BASE, plus
    # SEEK_SPREAD_PER_WAVE for each wave waited, at most SEEK_SPREAD_MAX.
    "SEEK_SPREAD_BASE": 2.0,
    "SEEK_SPREAD_PER_WAVE": 1.0,
    "SEEK_SPREAD_MAX": 25.0,
    # The turn timer of a match made by pairing seeks.
    "SEEK_TURN_TIMEOUT_S": 120,
}

_INTS = {
    "STREAM_TICKET_TTL_S",
    "STREAM_QUEUE_MAX",
    "REDIS_MAX_CONNECTIONS",
    "MAX_CONTENT_LENGTH",
    "RATE_LIMIT",
    "RATE_LIMIT_WINDOW_S",
    "CREATE_RATE_LIMIT",
    "AI_STALL_S",
    "WORKER_SEEN_S",
    "READY_MIN_WORKERS",
    "IDEMPOTENCY_TTL_S",
    "FINISHED_MATCH_TTL_S",
    "ARCHIVE_TTL_S",
    "FINISH_RECOVERY_S",
    "ALLOW_REPRODUCIBLE_DICE",
    "METRICS",
    "METRICS_PORT",
    "REQUEST_LOG",
    "TURN_TIMEOUTS_TO_AI",
    "REDIS_WAIT_REPLICAS",
    "REDIS_WAIT_TIMEOUT_MS",
    "SIGNUP_RATE_LIMIT",
    "SIGNUP_RATE_WINDOW_S",
    "WEBHOOK_ALLOW_HTTP",
    "WEBHOOK_ALLOW_PRIVATE",
    "WEBHOOK_DISABLE_AFTER",
    "CHALLENGE_TTL_S",
    "CHALLENGE_KEEP_S",
    "CHALLENGE_RATE_LIMIT",
    "CHALLENGE_RATE_WINDOW_S",
    "SEEK_TTL_S",
    "SEEK_TURN_TIMEOUT_S",
}
_FLOATS = {
    "STREAM_KEEPALIVE_S",
    "STREAM_REMATCH_WAIT_S",
    "REDIS_SOCKET_TIMEOUT_S",
    "AI_CHAIN_BUDGET_S",
    "WEBHOOK_TIMEOUT_S",
    "WEBHOOK_JITTER",
    "SEEK_WAVE_S",
    "SEEK_SPREAD_BASE",
    "SEEK_SPREAD_PER_WAVE",
    "SEEK_SPREAD_MAX",
}


def _convert(key: str, raw: str) -> Any:
    if key in _INTS:
        return int(raw)
    if key in _FLOATS:
        return float(raw)
    return raw


def load_config(overrides: dict[str, Any] | None = None) -> dict[str, Any]:
    """Defaults < environment < ``overrides``; returns a plain dict.

    Raises ``targets.ConfigError`` for Redis settings that cannot work
    (e.g. REDIS_MODE=cluster without an RQ_REDIS_URL)."""
    config = dict(DEFAULTS)
    for key in DEFAULTS:
        raw = os.environ.get(key)
        if raw not in (None, ""):
            config[key] = _convert(key, raw)
    config.update(overrides or {})
    if config["TABULA_SIGNUP"] not in ("open", "closed"):
        raise ConfigError(f"TABULA_SIGNUP must be open or closed, not {config['TABULA_SIGNUP']!r}")
    check_roles(config)
    if not config.get("RQ_REDIS_URL"):
        config["RQ_REDIS_URL"] = config["REDIS_URL"]
    return config
