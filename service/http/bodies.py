"""Request bodies: read, parsed and checked in one place for both request paths.

Both the Flask path (``check_json_body``, a ``before_request`` hook) and the
move lane (service/http/move_lane.py, which answers plain moves in front of Flask)
read a body through this module, so they accept and refuse exactly the same
bodies:

- ``size_unsized_body``: a body sent without ``Content-Length`` (``Transfer-
  Encoding: chunked``) is read here, at most ``MAX_CONTENT_LENGTH + 1`` bytes,
  and handed on with the length it has. werkzeug would otherwise cut such a
  body silently at the limit (a move followed by 80 KB of spaces was applied);
  now one over the limit carries a length over the limit, and both paths
  answer it as any other: 413 ``payload_too_large``, nothing changed.
- ``json_object``: the body as every route reads it. It must be UTF-8 JSON
  (decoded as webargs decodes it; ``NaN`` and ``Infinity`` are not JSON), an
  object (400 ``bad_request`` otherwise), and no string in it, key or value,
  may hold a lone surrogate (422 ``validation_error``, ``details.fields``
  names where: JSON lets ``"\\ud800"`` through, but such a string is not
  Unicode text, cannot be stored or sent back as UTF-8, and used to end in a
  500). A number with a zero fractional part (``10.0``, ``1e1``) is read as
  the integer it is: JSON Schema 2020-12, which openapi.yaml is written in,
  counts it as an ``integer``, so every ``type: integer`` of the spec takes it.
- ``BodyParser``: webargs' FlaskParser reading the body through
  ``json_object`` (the routes' Blueprint uses it, routes/common.py), so
  webargs sees exactly what the checks saw, parsed once.
"""

import codecs
import io
import json
import re
from decimal import Decimal
from typing import Any

from flask import request
from webargs import core
from webargs.flaskparser import FlaskParser, is_json_request

from service.model.errors import ApiError

# Where check_json_body leaves the parsed body for BodyParser.
PARSED_BODY = "tabula.json_body"
# A whole number below 10**20 in magnitude (every integer the API takes is
# below 2**63) is read as an int; a larger one stays a float (and is refused
# as out of range), so "1e999999999" never becomes a billion-digit int.
_WHOLE_DIGITS = 20

# Where ``json_object`` stops listing lone surrogates (the 422 stays small).
MAX_REPORTED = 20

# After a strict UTF-8 decode a lone surrogate can only come from a \uD800 to
# \uDFFF escape: a body without one needs no walk.
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89abcdefABCDEF]")
_SURROGATES = re.compile("[\ud800-\udfff]")


def size_unsized_body(environ: dict[str, Any], max_length: int | None) -> None:
    """Give a chunked body (no ``Content-Length``) a length: read it here, up to
    ``max_length + 1`` bytes, into a fresh stream, set ``CONTENT_LENGTH`` to
    what was read and drop ``Transfer-Encoding`` from the environ. A body over
    the limit then has a length over it, and werkzeug raises its 413 when the
    body is read (the rest is never read; the server drains or closes)."""
    if environ.get("CONTENT_LENGTH"):  # some servers set "" when there is none
        return
    coding = environ.get("HTTP_TRANSFER_ENCODING")
    if coding is None or "chunked" not in coding.lower():
        return
    stream = environ["wsgi.input"]
    wanted = None if max_length is None else max_length + 1
    chunks, size = [], 0
    while wanted is None or size < wanted:
        chunk = stream.read(65536 if wanted is None else min(65536, wanted - size))
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    environ["wsgi.input"] = io.BytesIO(b"".join(chunks))
    environ["CONTENT_LENGTH"] = str(size)
    del environ["HTTP_TRANSFER_ENCODING"]


def decoded_as_webargs_does(raw: bytes) -> bool:
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


def _escaped(text: str) -> str:
    """``text`` as a JSON string's content, ASCII only (a lone surrogate as \\udXXX)."""
    return json.dumps(text)[1:-1]


def _lone_surrogates(body: Any) -> dict[tuple[str, ...], str]:
    """``{path: message}`` for each string of ``body`` (keys included) holding a
    lone surrogate, at most ``MAX_REPORTED``; a path is a tuple of keys (list
    indices as strings). Iterative: json.loads nests deeper than the stack."""
    found: dict = {}
    pending: list[tuple[tuple[str, ...], Any]] = [((), body)]
    while pending and len(found) < MAX_REPORTED:
        path, value = pending.pop()
        if isinstance(value, str):
            bad = _SURROGATES.search(value)
            if bad:
                found[path] = f"not valid Unicode: lone surrogate {_escaped(bad.group())}"
        elif isinstance(value, dict):
            for key, item in value.items():
                bad = _SURROGATES.search(key)
                if bad:
                    found[(*path, _escaped(key))] = (
                        f"the key is not valid Unicode: lone surrogate {_escaped(bad.group())}"
                    )
                else:
                    pending.append(((*path, key), item))
        elif isinstance(value, list):
            pending.extend(((*path, str(i)), item) for i, item in enumerate(value))
    return found


def _nested(found: dict[tuple[str, ...], str]) -> dict[str, Any]:
    """``{path: message}`` as webargs nests its field errors: {"a": {"0": {"b": [...]}}}."""
    fields: dict = {}
    for path, message in sorted(found.items()):
        node = fields
        for key in path[:-1]:
            node = node.setdefault(key, {})
        node[path[-1]] = [message]
    return fields


def _number(text: str) -> int | float:
    """json.loads' ``parse_float``: a whole number as an int, else a float."""
    value = Decimal(text)
    if value.is_finite() and value.adjusted() < _WHOLE_DIGITS and value == value.to_integral_value():
        return int(value)
    return float(text)


def _not_json(name: str) -> Any:
    """json.loads' ``parse_constant``: NaN, Infinity and -Infinity are not JSON."""
    raise ValueError(f"{name} is not a JSON value")


def parse_json(raw: bytes | str) -> Any:
    """``json.loads`` as the API reads JSON (whole numbers as ints, no NaN)."""
    return json.loads(raw, parse_float=_number, parse_constant=_not_json)


def json_object(raw: bytes) -> dict[str, Any]:
    """The request body ``raw`` (bytes, not empty) as a dict, read as webargs
    reads it; raises ApiError: 400 when it is not a UTF-8 JSON object, 422
    when a string in it holds a lone surrogate."""
    if not decoded_as_webargs_does(raw):
        raise ApiError(400, "bad_request", "the body must be UTF-8 JSON (without a byte order mark)")
    try:
        body = parse_json(raw)
    except ValueError as error:
        raise ApiError(400, "bad_request", f"the body is not valid JSON: {error}") from None
    except RecursionError:
        raise ApiError(400, "bad_request", "the body's JSON is nested too deeply") from None
    if not isinstance(body, dict):
        raise ApiError(400, "bad_request", "the body must be a JSON object")
    if _SURROGATE_ESCAPE.search(raw):
        found = _lone_surrogates(body)
        if found:
            raise ApiError(
                422,
                "validation_error",
                "the body holds text that is not valid Unicode",
                fields={"json": _nested(found)},
            )
    return body


def check_json_body() -> None:
    """before_request: a POST, PUT or PATCH body, if any, must pass ``json_object``."""
    if request.method not in ("POST", "PUT", "PATCH"):
        return
    raw = request.get_data(cache=True)
    if not raw:
        return
    if not request.is_json:
        raise ApiError(400, "bad_request", "the body must be JSON (Content-Type: application/json)")
    request.environ[PARSED_BODY] = json_object(raw)


class BodyParser(FlaskParser):
    """webargs' Flask parser, with the JSON body read by ``json_object`` (the
    one check_json_body already parsed, when it ran)."""

    def _raw_load_json(self, req: Any) -> Any:
        if not is_json_request(req):
            return core.missing
        body = req.environ.get(PARSED_BODY)
        if body is not None:
            return body
        raw = req.get_data(cache=True)
        return json_object(raw) if raw else core.missing
