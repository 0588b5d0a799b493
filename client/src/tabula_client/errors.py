"""One exception class per error code of the API contract.

Every error answer is ``{"error": code, "message", "details"}``;
``error_from_response`` turns it into the class of its code (``TabulaError`` for a code this client
does not know, so a newer server never breaks an older client).
"""

from typing import Any

import httpx

# The API's error codes, one row per exception class below: the class name,
# its contract code and what it means (the class's docstring). A class is
# declared in one line for its place in the hierarchy (and for type
# checkers); its code and docstring come from here.
ERROR_TABLE: dict[str, tuple[str, str]] = {
    "BadRequest": (
        "bad_request",
        "400: the body is not JSON or not an object (or a token in a query string).",
    ),
    "Unauthorized": ("unauthorized", "401: a token is required and missing, unknown or revoked."),
    "Forbidden": (
        "forbidden",
        "403: the token is valid but not for this match or seat, or an account token "
        "lacks the route's scope (``missing_scope`` names it).",
    ),
    "AccountTokenRequired": (
        "account_token_required",
        "403 (a ``Forbidden``): a seat token where an account token is needed: a rated "
        "match's human seat is an account's (create or join it with an account token).",
    ),
    "WebhookTargetForbidden": (
        "webhook_target_forbidden",
        "403 (a ``Forbidden``): the server's policy refuses the webhook's target (http:// where "
        "it is off, a host resolving to no address or to one that is not public); ``reason`` says why.",
    ),
    "NotFound": ("not_found", "404: unknown game, match, account name or route."),
    "MethodNotAllowed": ("method_not_allowed", "405: the route exists but not with this method."),
    "Conflict": ("conflict", "409 without a more precise code."),
    "IllegalAction": ("illegal_action", "409: well-formed but not legal now; ``reason`` names the rule."),
    "NotYourTurn": ("not_your_turn", "409: the seat has nothing to decide now."),
    "GameOver": ("game_over", "409: the match is finished."),
    "VersionConflict": ("version_conflict", "409: the posted ``version`` is stale; nothing changed."),
    "SeatTaken": ("seat_taken", "409: join on a full match or a taken seat."),
    "NameTaken": ("name_taken", "409: sign-up with a name an account has (ignoring case and width)."),
    "AlreadySeated": ("already_seated", "409: the account already holds a seat of this match."),
    "PreconditionFailed": ("precondition_failed", "412: ``If-Match`` is not the current version."),
    "PayloadTooLarge": ("payload_too_large", "413: the body is over the server's limit."),
    "ValidationError": (
        "validation_error",
        "422: the body or query fails its schema; ``fields`` says which and why.",
    ),
    "RateLimited": ("rate_limited", "429: too many requests; ``retry_after`` is the seconds to wait."),
    "Unavailable": ("unavailable", "503: storage unreachable; nothing was changed."),
    "NotEnoughReplicas": (
        "not_enough_replicas",
        "503: the match's storage has fewer replicas than the server requires; nothing was "
        "changed. ``retry_after`` is the seconds to wait; the same Idempotency-Key is applied once.",
    ),
    "ServerError": ("internal_error", "Any other 5xx (``internal_error``): a bug on the server."),
    "StreamBehind": (
        "too_far_behind",
        "``too_far_behind`` on the event stream; ``Client.events`` handles it by "
        "reconnecting, so callers see it only from their own stream code.",
    ),
}

# code -> class, filled as the classes of ERROR_TABLE are declared.
ERROR_CLASSES: dict[str, type["TabulaError"]] = {}


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

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        row = ERROR_TABLE.get(cls.__name__) if cls.__module__ == __name__ else None
        if row is not None:  # one of this module's classes (a user's subclass inherits)
            cls.code, cls.__doc__ = row
            ERROR_CLASSES[cls.code] = cls


class _NamesCurrentVersion(TabulaError):
    """A refusal that tells the match's version now, to read and retry from."""

    @property
    def current_version(self) -> int | None:
        return self.details.get("current_version")


class BadRequest(TabulaError): ...


class Unauthorized(TabulaError): ...


class Forbidden(TabulaError):
    @property
    def missing_scope(self) -> str | None:
        """The scope an account token lacks for the route (None: another refusal)."""
        return self.details.get("missing_scope")


class AccountTokenRequired(Forbidden): ...


class WebhookTargetForbidden(Forbidden):
    @property
    def reason(self) -> str | None:
        """Why the target is refused (its host, the address it resolves to...)."""
        return self.details.get("reason")


class NotFound(TabulaError): ...


class MethodNotAllowed(TabulaError): ...


class Conflict(TabulaError): ...


class IllegalAction(Conflict):
    @property
    def reason(self) -> str | None:
        return self.details.get("reason")


class NotYourTurn(Conflict): ...


class GameOver(Conflict): ...


class VersionConflict(_NamesCurrentVersion, Conflict): ...


class SeatTaken(Conflict): ...


class NameTaken(Conflict): ...


class AlreadySeated(Conflict): ...


class PreconditionFailed(_NamesCurrentVersion): ...


class PayloadTooLarge(TabulaError): ...


class ValidationError(TabulaError):
    @property
    def fields(self) -> dict[str, Any]:
        return self.details.get("fields") or {}


class _SaysWhenToRetry(TabulaError):
    """An error that says how long to wait: ``retry_after`` seconds, from its
    ``Retry-After`` header, else its ``details.retry_after_s``."""

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


class RateLimited(_SaysWhenToRetry): ...


class Unavailable(TabulaError): ...


class NotEnoughReplicas(Unavailable, _SaysWhenToRetry): ...


class ServerError(TabulaError): ...


class StreamBehind(TabulaError): ...


assert len(ERROR_CLASSES) == len(ERROR_TABLE), "a row of ERROR_TABLE has no class"


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
    if issubclass(cls, _SaysWhenToRetry):
        return cls(*args, retry_after=retry_after_seconds(response))
    return cls(*args)
