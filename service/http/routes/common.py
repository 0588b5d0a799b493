"""Helpers shared by the route modules."""

from collections.abc import Callable
from typing import Any, TypeVar

import flask_smorest
import flask_smorest.pagination
import marshmallow as ma
from flask import current_app, request
from werkzeug.routing import Map, UnicodeConverter

from service.http.bodies import BodyParser
from service.model.tokens import bearer_token
from service.runtime.services import Services
from service.spec.schemas import ErrorSchema

# A view function, as a decorator passes it through.
F = TypeVar("F", bound=Callable[..., Any])

# A path parameter (`<match_id>`, `<name>`, ...) is at most this long: a
# longer one matches no route, so the server answers 404 `not_found` as for
# an unknown id, and the spec states the bound (maxLength) it keeps. Match
# ids are 16 hex digits, token ids 17 characters, account names 2 to 24.
PATH_SEGMENT_MAX = 64


class BoundedSegment(UnicodeConverter):
    """The app's default URL converter: werkzeug's ``string`` with ``maxlength``
    PATH_SEGMENT_MAX (flask-smorest documents it from the converter's regex)."""

    def __init__(self, url_map: Map, minlength: int = 1, maxlength: int = PATH_SEGMENT_MAX) -> None:
        super().__init__(url_map, minlength=minlength, maxlength=maxlength)


BEARER: list[dict] = [{"bearer": []}]

# The 401 and 403 of the routes an account token opens (accounts, webhooks,
# challenges, seeks), and their operations' security and scope line.
UNAUTHORIZED = "`unauthorized`: account token missing, unknown, revoked or expired."
FORBIDDEN = "`forbidden`: the token lacks the route's scope (`details.missing_scope` names it)."
SCOPED = {401: UNAUTHORIZED, 403: FORBIDDEN}


def scoped(scope: str) -> dict[str, Any]:
    """An operation's security (a bearer) and its description naming ``scope``."""
    return {"security": BEARER, "description": f"Scope: `{scope}`."}


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


# The highest `page` of a paged list (at most 100 items a page): a bound the
# query declares and the server enforces (422 past it), as every input's.
MAX_PAGE = 10_000
_smorest_pagination_schema = flask_smorest.pagination._pagination_parameters_schema_factory


def _bounded_pagination_schema(def_page: int, def_page_size: int, def_max_page_size: int) -> type:
    """flask-smorest's pagination query, its ``page`` bounded by MAX_PAGE."""
    base = _smorest_pagination_schema(def_page, def_page_size, def_max_page_size)
    page = ma.fields.Integer(load_default=def_page, validate=ma.validate.Range(min=1, max=MAX_PAGE))
    return type(base.__name__, (base,), {"page": page})


# flask-smorest builds the schema from this module function when a route is
# decorated (Blueprint.paginate); it offers no other way to bound `page`.
flask_smorest.pagination._pagination_parameters_schema_factory = _bounded_pagination_schema


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
