"""The contract's error body, and the one place errors become HTTP.

Every error response is ``{"error", "message", "details"}``. Engine errors
are mapped here once (``from_engine``); flask-smorest's own format (webargs
422s, werkzeug's 404/405/413) is replaced in ``TabulaApi`` (see app.py).
"""

import logging
from typing import Any

import redis

import engine

log = logging.getLogger(__name__)

# Retry-After of a write the server refused with NOREPLICAS (its
# min-replicas-to-write): as storage/replicas.py's own refusals.
NOREPLICAS_RETRY_AFTER_S = 5


class ApiError(Exception):
    """An error the API answers on purpose."""

    def __init__(
        self, status: int, code: str, message: str, headers: dict[str, str] | None = None, **details: Any
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.details = details
        self.headers = headers or {}

    def body(self) -> dict[str, Any]:
        return {"error": self.code, "message": self.message, "details": self.details}


# Every `error` code a response can carry (the spec's ErrorCode enum):
# tests/service/test_openapi.py checks that the code raising errors uses no other.
ERROR_CODES = (
    "bad_request",
    "validation_error",
    "unauthorized",
    "forbidden",
    "account_token_required",
    "webhook_target_forbidden",
    "not_found",
    "method_not_allowed",
    "conflict",
    "illegal_action",
    "not_your_turn",
    "game_over",
    "version_conflict",
    "seat_taken",
    "already_seated",
    "name_taken",
    "precondition_failed",
    "archive_unreadable",
    "payload_too_large",
    "rate_limited",
    "unavailable",
    "not_enough_replicas",
    "internal_error",
    # answered by gunicorn's worker before the app (service/gunicorn_worker.py)
    "uri_too_long",
    "headers_too_large",
    "expectation_failed",
    "not_implemented",
)


def not_found(what: str, **details: Any) -> ApiError:
    return ApiError(404, "not_found", f"{what} not found", **details)


def unauthorized(message: str = "a bearer token for this match is required") -> ApiError:
    return ApiError(401, "unauthorized", message, headers={"WWW-Authenticate": "Bearer"})


def forbidden(message: str = "this token is for another match") -> ApiError:
    return ApiError(403, "forbidden", message)


def account_token_required(message: str) -> ApiError:
    """403: the bearer is a seat token where only an account's token may act
    (a rated match's human seat is an account's)."""
    return ApiError(403, "account_token_required", message)


def validation(message: str, **details: Any) -> ApiError:
    return ApiError(422, "validation_error", message, **details)


def version_conflict(current_version: int) -> ApiError:
    return ApiError(
        409, "version_conflict", "the match has moved on; reload it", current_version=current_version
    )


def precondition_failed(current_version: int) -> ApiError:
    return ApiError(
        412,
        "precondition_failed",
        "If-Match does not match the current version",
        current_version=current_version,
    )


def not_enough_replicas(replicas: int | None, required: int | None, retry_after_s: int) -> ApiError:
    """503: the match's storage shard has fewer in-sync replicas than
    ``REDIS_WAIT_REPLICAS`` asks for; refused before anything was written
    (storage/replicas.py). ``replicas``/``required`` None: refused by the
    server's own ``min-replicas-to-write``, counts unknown here."""
    details: dict[str, Any] = {"retry_after_s": retry_after_s}
    if replicas is not None:
        details.update(replicas=replicas, required_replicas=required)
    return ApiError(
        503,
        "not_enough_replicas",
        "the match's storage has fewer replicas than required; nothing was changed: "
        "retry after Retry-After (the same Idempotency-Key is applied once)",
        headers={"Retry-After": str(retry_after_s)},
        **details,
    )


_ENGINE_STATUS = {
    engine.InvalidActionError: (422, "validation_error"),
    engine.InvalidOptionsError: (422, "validation_error"),
    engine.IllegalActionError: (409, "illegal_action"),
    engine.NotYourTurnError: (409, "not_your_turn"),
    engine.GameOverError: (409, "game_over"),
    engine.UnknownGameError: (404, "not_found"),
}


def from_engine(error: engine.EngineError) -> ApiError:
    """The ApiError for an ``engine.EngineError``: the one mapping of the
    engine's errors, used by the app's error handler (http/app.py) and the
    worker's jobs (``api_error``); operations let engine errors rise."""
    for cls, (status, code) in _ENGINE_STATUS.items():
        if isinstance(error, cls):
            return ApiError(status, code, error.message, **error.details)
    return ApiError(409, "illegal_action", error.message, reason=error.code, **error.details)


def api_error(error: ApiError | engine.EngineError) -> ApiError:
    """``error`` (an ApiError or an ``engine.EngineError``) as an ApiError."""
    return from_engine(error) if isinstance(error, engine.EngineError) else error


# werkzeug HTTP status -> contract code, for errors raised by Flask itself.
_HTTP_CODES = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    409: "conflict",
    412: "precondition_failed",
    413: "payload_too_large",
    415: "bad_request",
    422: "validation_error",
    429: "rate_limited",
}


def code_for_status(status: int) -> str:
    """The contract's error code for an HTTP error ``status``."""
    return _HTTP_CODES.get(status, "internal_error" if status >= 500 else "bad_request")


def from_http_exception(error: Any) -> tuple[int, dict[str, Any], dict[str, str]]:
    """Map a werkzeug/webargs HTTPException to the contract's body."""
    status = error.code or 500
    code = code_for_status(status)
    data = getattr(error, "data", None) or {}
    details = {}
    if status == 422:
        details = {"fields": data.get("messages") or data.get("errors") or {}}
        message = "the request does not match its schema"
    elif status == 413:
        message = "the request body is over the size limit"
    else:
        message = data.get("message") or error.description or error.name
    headers = {k: v for k, v in error.get_headers() if k.lower() != "content-type"}
    headers.update(data.get("headers") or {})
    return status, {"error": code, "message": message, "details": details}, headers


def from_storage_refusal(error: BaseException) -> ApiError | None:
    """The 503 ``not_enough_replicas`` of a write the server refused with
    NOREPLICAS (its own ``min-replicas-to-write``; a script's at its first
    write, before it changed anything), else None."""
    if isinstance(error, redis.ResponseError) and str(error).startswith("NOREPLICAS"):
        log.warning("storage refused a write: %s", error)
        return not_enough_replicas(None, None, NOREPLICAS_RETRY_AFTER_S)
    return None


def unexpected_error_body(error: BaseException) -> tuple[int, dict[str, Any]]:
    """Generic 500 (a bug) or 503 (storage down); the trace goes to the log only."""
    # CLUSTERDOWN (a shard's primary failed, no replica promoted yet) and
    # TRYAGAIN (a slot mid-migration) pass within seconds: unavailable too.
    if isinstance(
        error,
        (
            redis.ConnectionError,
            redis.TimeoutError,
            redis.BusyLoadingError,
            redis.exceptions.ClusterDownError,
            redis.exceptions.TryAgainError,
        ),
    ):
        log.warning("storage unavailable: %s", error)
        return 503, {
            "error": "unavailable",
            "message": "storage is unreachable; nothing was changed",
            "details": {},
        }
    log.exception("unexpected error")
    return 500, {"error": "internal_error", "message": "internal error", "details": {}}
