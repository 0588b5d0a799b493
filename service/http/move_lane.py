"""The move's own WSGI lane: a plain ``POST /v1/matches/{id}/actions`` is
answered without Flask's request machinery.

A move is the API's hot path. Through Flask it paid for a request context,
URL routing, the request hooks, webargs' argument parsing, the view layers
and a Response object: about 250 µs of a move's 650 µs in process, two
thirds of what the operation itself (read, rules, commit) costs. This
middleware sits in front of ``app.wsgi_app`` and answers the requests it can
answer exactly as the Flask route would, with the same operation
(``play.moves.play_move``, which the route calls too), the same rate-limit count, the same
response bytes and, for every error, the app's own error response.

It takes only plain requests, those for which webargs' result is certain:
an ASCII path of that route; ``Content-Type: application/json``; a
``Content-Length`` within the app's limit; a bearer token; a JSON object,
as service/http/bodies.py reads a body for both lanes (decoded as webargs decodes
it; no lone surrogate in any string), and headers that the route's own
argument schemas (``PostActionSchema``, ``ActionHeadersSchema``) load, field
by field, with no key they do not know (a chunked body is given its length
first, bodies.size_unsized_body, for both lanes); and whose only rate-limit
count is the route's own (guards.request_charges). Everything else
goes on to Flask untouched (a body already read is handed on in a fresh
stream), where the documented path answers it, its errors included.
``tests/service/test_move_lane.py`` compares both lanes byte for byte.
"""

import io
import re
from collections.abc import Callable, Iterable
from typing import Any, cast

import marshmallow as ma
from flask import Flask, Response
from marshmallow import ValidationError

from service.http import rate_headers
from service.http.bodies import json_object, size_unsized_body
from service.http.cors import cors_headers
from service.http.guards import request_charges, route_defers_rate_limit
from service.http.json_provider import OrjsonProvider
from service.model.errors import ApiError
from service.model.tokens import bearer_token
from service.play.moves import play_move
from service.spec.fast_dump import compile_dump
from service.spec.play_schemas import ActionHeadersSchema, ActionResultSchema, PostActionSchema
from service.storage.rate_limit import RateCharge

# WSGI's own types (PEP 3333): the environ, start_response and an application.
Environ = dict[str, Any]
StartResponse = Callable[..., Any]
WSGIApp = Callable[[Environ, StartResponse], Iterable[bytes]]

# A longer id falls through to Flask's route, which answers 404 (routes/common.PATH_SEGMENT_MAX).
_ROUTE = re.compile(r"/v1/matches/([^/]{1,64})/actions")
# The Flask URL rule of the route: the lane's requests are measured and
# logged under it, like Flask's (service/runtime/metrics.py).
ROUTE_RULE = "/v1/matches/<match_id>/actions"
_dump_action_result = compile_dump(ActionResultSchema())


class PlainMove:
    """A plain move request, read off the WSGI environ."""

    def __init__(
        self, match_id: str, bearer: str, headers: dict[str, Any], body: dict[str, Any], address: str
    ) -> None:
        self.match_id = match_id
        self.bearer = bearer
        self.headers = headers  # as ActionHeadersSchema loads them
        self.body = body  # as PostActionSchema loads it
        self.address = address  # the client's, as Flask's request.remote_addr


def _header(environ: Environ, name: str) -> str | None:
    return environ.get("HTTP_" + name.upper().replace("-", "_"))


def _field_keys(schema: ma.Schema) -> dict[str, ma.fields.Field]:
    """``{request key: field}`` of a marshmallow schema instance."""
    return {field.data_key or name: field for name, field in schema.fields.items()}


# The route's own argument schemas: the lane checks each value with the field
# that would load it, so a rule added to a schema holds on both lanes.
_BODY_FIELDS = _field_keys(PostActionSchema())
_HEADER_FIELDS = _field_keys(ActionHeadersSchema())


def _loads(field: ma.fields.Field, value: Any) -> Any:
    """``field``'s value for ``value``, or _INVALID where it would refuse it."""
    try:
        return field.deserialize(value)
    except ValidationError:
        return _INVALID


_INVALID = object()


def _load_fields(fields: dict[str, ma.fields.Field], values: dict[str, Any]) -> dict[str, Any] | None:
    """``{attribute: value}`` as the schema loads ``values`` (the keys present
    in the request), or None where one is refused or a required one missing:
    left to Flask's documented answer."""
    loaded: dict[str, Any] = {}
    for key, field in fields.items():
        if key not in values:
            if field.required:
                return None
            continue
        value = _loads(field, values[key])
        if value is _INVALID:
            return None
        loaded[cast(str, field.attribute or field.name)] = value  # a bound field has a name
    return loaded


def plain_arguments(
    body: dict[str, Any], header: Callable[[str], str | None]
) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """``(headers, body)`` as the two ``@blp.arguments`` of ``Actions.post``
    would load them, when they certainly accept the request; else None.
    ``body``: the parsed JSON object; ``header(name)``: a header's value or None."""
    if not body.keys() <= _BODY_FIELDS.keys():
        return None  # unknown keys: the schema's 422
    present = {key: value for key in _HEADER_FIELDS if (value := header(key)) is not None}
    loaded_body = _load_fields(_BODY_FIELDS, body)
    headers = _load_fields(_HEADER_FIELDS, present)
    return None if loaded_body is None or headers is None else (headers, loaded_body)


def _is_json(content_type: str) -> bool:
    return content_type.partition(";")[0].strip().lower() == "application/json"


def _read_body(environ: Environ, max_length: int | None) -> bytes | None:
    """The request body, or None when it is not one to read here (no length,
    over the limit, cut short). What is read is put back for Flask."""
    length = environ.get("CONTENT_LENGTH", "")
    size = int(length) if length.isascii() and length.isdigit() else 0
    if size == 0 or (max_length is not None and size > max_length):
        return None  # over the limit: Flask answers its 413
    raw = environ["wsgi.input"].read(size)
    environ["wsgi.input"] = io.BytesIO(raw)
    return raw if len(raw) == size else None


def _json_object(raw: bytes) -> dict[str, Any] | None:
    """``raw`` as bodies.json_object reads it (as check_json_body does, for
    Flask), when it accepts it; else None: Flask answers its 400 or 422, after
    the rate-limit count, as for any other route."""
    try:
        return json_object(raw)
    except ApiError:
        return None


def plain_move(environ: Environ, max_length: int | None) -> PlainMove | None:
    """The environ's request as a PlainMove, or None when it is not plain."""
    if environ.get("REQUEST_METHOD") != "POST":
        return None
    path = environ.get("PATH_INFO", "")
    route = _ROUTE.fullmatch(path)
    if route is None or not path.isascii() or not _is_json(environ.get("CONTENT_TYPE", "")):
        return None
    bearer = bearer_token({"Authorization": _header(environ, "Authorization") or ""})
    if bearer is None:
        return None
    raw = _read_body(environ, max_length)
    body = None if raw is None else _json_object(raw)
    arguments = None if body is None else plain_arguments(body, lambda name: _header(environ, name))
    if arguments is None:
        return None
    return PlainMove(route.group(1), bearer, *arguments, environ.get("REMOTE_ADDR") or "unknown")


class MoveLane:
    """WSGI middleware: plain moves here, every other request to ``flask_wsgi``."""

    def __init__(
        self, app: Flask, flask_wsgi: WSGIApp, error_response: Callable[[BaseException], Response]
    ) -> None:
        self.app = app
        self.json = cast(OrjsonProvider, app.json)
        self.flask_wsgi = flask_wsgi
        self.error_response = error_response  # exception -> Response, in an app context
        self.services = app.extensions["tabula"]
        self.endpoint = next(rule.endpoint for rule in app.url_map.iter_rules() if rule.rule == ROUTE_RULE)
        self.defers = route_defers_rate_limit(app.view_functions, self.endpoint)

    def __call__(self, environ: Environ, start_response: StartResponse) -> Iterable[bytes]:
        # Every request enters here: a chunked body gets its length (or one
        # over the limit, for both lanes' 413) before either lane reads it.
        size_unsized_body(environ, self.app.config["MAX_CONTENT_LENGTH"])
        move = plain_move(environ, self.app.config["MAX_CONTENT_LENGTH"])
        # The lane takes a request whose only rate-limit count is the one its
        # route makes itself (guards.request_charges); others go the
        # documented way, which counts them first.
        charge, immediate = (None, True) if move is None else self._charges(move)
        if move is None or immediate:
            return self.flask_wsgi(environ, start_response)
        environ["tabula.route"] = ROUTE_RULE
        environ["tabula.match_id"] = move.match_id
        rate_headers.remember(environ, [charge])
        cors = cors_headers(self.app.extensions.get("tabula_cors"), environ)
        try:
            data = self._answer(move, charge)
        except Exception as error:  # noqa: BLE001  (the app's handlers decide, as in Flask)
            with self.app.app_context():
                response = self.error_response(error)
            response.headers.extend(cors)
            return response(environ, start_response)
        # What Flask sends for the route's return value: app.json.response(),
        # and flask-cors' headers.
        start_response(
            "200 OK", [("Content-Type", self.json.mimetype), ("Content-Length", str(len(data))), *cors]
        )
        return [data]

    def _charges(self, move: PlainMove) -> tuple[RateCharge | None, list[RateCharge]]:
        return request_charges(
            self.services.config, self.endpoint, "POST", move.bearer, move.address, self.defers, move.match_id
        )

    def _answer(self, move: PlainMove, charge: RateCharge | None) -> bytes:
        """The 200 response body of ``move``; raises what the route would raise."""
        result = play_move(self.services, move.bearer, charge, move.headers, move.body, move.match_id)
        return self.json.response_bytes(_dump_action_result(result))
