"""One exception class per error code of the API contract.

Every error answer is ``{"error": code, "message", "details"}``; ``raise_for``
turns it into the class of its code (``TabulaError`` for a code this client
does not know, so a newer server never breaks an older client).
"""

from typing import Any

import httpx


class TabulaError(Exception):
    """An error answer of the API: HTTP ``status``, contract ``code``,
    human-readable ``message`` and the ``details`` object."""

    code: str = ""

    def __init__(self, status: int, code: str, message: str, details: dict[str, Any] | None = None):
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.details: dict[str, Any] = details or {}


class BadRequest(TabulaError):
    """400: the body is not JSON or not an object (or a token in a query string)."""

    code = "bad_request"


class Unauthorized(TabulaError):
    """401: a token is required and missing, unknown or revoked."""

    code = "unauthorized"


class Forbidden(TabulaError):
    """403: the token is valid but not for this match or seat."""

    code = "forbidden"


class NotFound(TabulaError):
    """404: unknown game, match or route."""

    code = "not_found"


class MethodNotAllowed(TabulaError):
    """405: the route exists but not with this method."""

    code = "method_not_allowed"


class Conflict(TabulaError):
    """409 without a more precise code."""

    code = "conflict"


class IllegalAction(Conflict):
    """409: well-formed but not legal now; ``reason`` names the rule."""

    code = "illegal_action"

    @property
    def reason(self) -> str | None:
        return self.details.get("reason")


class NotYourTurn(Conflict):
    """409: the seat has nothing to decide now."""

    code = "not_your_turn"


class GameOver(Conflict):
    """409: the match is finished."""

    code = "game_over"


class _NamesCurrentVersion(TabulaError):
    """A refusal that tells the match's version now, to read and retry from."""

    @property
    def current_version(self) -> int | None:
        return self.details.get("current_version")


class VersionConflict(_NamesCurrentVersion, Conflict):
    """409: the posted ``version`` is stale; nothing changed."""

    code = "version_conflict"


class SeatTaken(Conflict):
    """409: join on a full match or a taken seat."""

    code = "seat_taken"


class PreconditionFailed(_NamesCurrentVersion):
    """412: ``If-Match`` is not the current version."""

    code = "precondition_failed"


class PayloadTooLarge(TabulaError):
    """413: the body is over the server's limit."""

    code = "payload_too_large"


class ValidationError(TabulaError):
    """422: the body or query fails its schema; ``fields`` says which and why."""

    code = "validation_error"

    @property
    def fields(self) -> dict[str, Any]:
        return self.details.get("fields") or {}


class RateLimited(TabulaError):
    """429: too many requests; ``retry_after`` is the seconds to wait."""

    code = "rate_limited"

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        details: dict[str, Any] | None = None,
        retry_after: float | None = None,
    ):
        super().__init__(status, code, message, details)
        self.retry_after = retry_after if retry_after is not None else self.details.get("retry_after_s")


class Unavailable(TabulaError):
    """503: storage unreachable; nothing was changed."""

    code = "unavailable"


class ServerError(TabulaError):
    """Any other 5xx (``internal_error``): a bug on the server."""

    code = "internal_error"


class StreamBehind(TabulaError):
    """``too_far_behind`` on the event stream; ``Client.events`` handles it by
    reconnecting, so callers see it only from their own stream code."""

    code = "too_far_behind"


ERROR_CLASSES: dict[str, type[TabulaError]] = {
    cls.code: cls
    for cls in (
        BadRequest,
        Unauthorized,
        Forbidden,
        NotFound,
        MethodNotAllowed,
        Conflict,
        IllegalAction,
        NotYourTurn,
        GameOver,
        VersionConflict,
        SeatTaken,
        PreconditionFailed,
        PayloadTooLarge,
        ValidationError,
        RateLimited,
        Unavailable,
        ServerError,
        StreamBehind,
    )
}


def retry_after_seconds(response: httpx.Response) -> float | None:
    """``Retry-After`` in seconds (the server sends whole seconds), or None."""
    value = response.headers.get("Retry-After")
    try:
        return max(0.0, float(value)) if value is not None else None
    except ValueError:  # an HTTP date: not sent by Tabula; wait the default instead
        return None


def error_from_response(response: httpx.Response) -> TabulaError:
    """The exception for an error ``response`` (status >= 400)."""
    status = response.status_code
    try:
        body = response.json()
    except ValueError:
        body = None
    if not isinstance(body, dict) or "error" not in body:
        # A proxy's or a crashed worker's answer: keep the status, invent the code.
        body = {
            "error": "internal_error" if status >= 500 else f"http_{status}",
            "message": response.text[:200] or response.reason_phrase,
            "details": {},
        }
    code = str(body["error"])
    cls = ERROR_CLASSES.get(code) or (ServerError if status >= 500 and status != 503 else TabulaError)
    details = body.get("details") if isinstance(body.get("details"), dict) else {}
    args = (status, code, str(body.get("message", "")), details)
    if cls is RateLimited:
        return RateLimited(*args, retry_after=retry_after_seconds(response))
    return cls(*args)
