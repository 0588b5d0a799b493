"""Helpers shared by the route modules."""

from collections.abc import Callable
from typing import Any, TypeVar

import flask_smorest
from flask import current_app, request

from service.http.bodies import BodyParser
from service.model.tokens import bearer_token
from service.runtime.services import Services
from service.spec.schemas import ErrorSchema

# A view function, as a decorator passes it through.
F = TypeVar("F", bound=Callable[..., Any])

BEARER: list[dict] = [{"bearer": []}]
OPTIONAL_BEARER: list[dict] = [{"bearer": []}, {}]

ERROR_TEXT = {
    400: "`bad_request`: the body is not JSON, or not an object.",
    401: "`unauthorized`: token (a seat's, or an account's) missing, unknown, revoked or expired.",
    403: (
        "`forbidden`: the token is for another match, its account holds no seat of this match, "
        "or it lacks the route's scope (`details.missing_scope`)."
    ),
    404: "`not_found`: unknown game or match.",
    409: "`illegal_action`, `not_your_turn`, `game_over`, `version_conflict` or `seat_taken`.",
    410: (
        "`archive_unreadable`: the finished match's archive record cannot be read (corrupt, or a "
        "format this server does not know); reported to the operator, never served as another match."
    ),
    412: "`precondition_failed`: If-Match differs from the current version.",
    413: "`payload_too_large`: the body is over the limit.",
    429: (
        "`rate_limited`: over the request window of the token (or of the client address, for "
        "requests without a live token), or over the creations window; see `Retry-After`."
    ),
    503: "`unavailable`: storage unreachable; nothing was changed.",
}


class Blueprint(flask_smorest.Blueprint):
    """flask-smorest's Blueprint reading JSON bodies as service/http/bodies.py does
    (the move lane reads them alike): routes with a JSON body use it."""

    ARGUMENTS_PARSER = BodyParser()


def services() -> Services:
    return current_app.extensions["tabula"]


def token() -> str | None:
    return bearer_token(request.headers)


def documents_errors(
    blp: Blueprint, *statuses: int, conflict: str | None = None, texts: dict[int, str] | None = None
) -> Callable[[F], F]:
    """Decorator adding the listed error responses (schema Error) to the spec.

    ``conflict`` describes this route's 409 codes (default: all of them);
    ``texts`` replaces the description of any status.
    """
    described = {**ERROR_TEXT, **({409: conflict} if conflict else {}), **(texts or {})}

    def decorate(func: F) -> F:
        for status in sorted(set(statuses) | {429, 503}, reverse=True):
            text = described[status]
            headers = RETRY_AFTER if status == 429 else None
            func = blp.alt_response(status, schema=ErrorSchema, description=text, headers=headers)(func)
        return func

    return decorate


RETRY_AFTER = {
    "Retry-After": {
        "description": "Seconds until the window that refused the request ends.",
        "schema": {"type": "integer", "minimum": 1},
    }
}
