"""What the OWASP API Security ruleset (Spectral, issue 46) asks of the whole
document, applied once to the generated spec, so that a route added later is
covered by the same pass.

- ``servers`` say who they are for (``x-internal: false``);
- operations: a public one states so (the document's default ``security``,
  an optional bearer); every one declares what the server answers before or beside its
  route: ``400`` when nothing else refuses a malformed request, ``414`` and
  ``431`` (gunicorn, before the app), ``429`` on counted routes, ``500``;
- responses: the rate-limit fields (``RateLimit``, ``RateLimit-Policy``,
  service/http/rate_headers.py), CORS's ``Access-Control-Allow-Origin`` and
  the 429's ``Retry-After``, declared once as header components;
- schemas: every integer states its ``format``; what only the server emits
  (response-only schemas) states the bounds it keeps (``_RESPONSE_BOUNDS``).
  Inputs (request bodies and parameters) are left as their schemas declare
  them: every bound there is one the server enforces
  (tests/service/test_input_bounds.py sends one past each), so an unbounded
  input is a lint error to fix at its schema, never one to paper over here.

A route counts against the rate limit when its path is under ``/v1/``
(service/http/guards.py exempts the others: health, readiness, the spec).
"""

from collections.abc import Iterator
from typing import Any

INT32 = (-(1 << 31), (1 << 31) - 1)
INT64 = (-(1 << 63), (1 << 63) - 1)
MAX_SEAT = 3  # seats are numbered from 0; no game takes more than four (schemas.MAX_SEATS)

ERROR_CONTENT = {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
HEADERS = {
    "RateLimit": {
        "description": "What is left of each window this request counted against "
        '(draft-ietf-httpapi-ratelimit-headers): `"requests";r=<left>;t=<seconds to its end>`, '
        "one item per window. Sent on every response to a request that counted: every `/v1/` "
        "route, unless the limit is off or storage is unreachable (it then fails open).",
        "schema": {
            "type": "string",
            "maxLength": 256,
            "pattern": '^"[a-z]+";r=[0-9]+;t=[0-9]+(, "[a-z]+";r=[0-9]+;t=[0-9]+)*$',
        },
    },
    "RateLimit-Policy": {
        "description": 'The windows this request counted against: `"requests";q=<limit>;w=<seconds>` '
        '(and `"creations"` for `POST /v1/matches`). Sent with `RateLimit`.',
        "schema": {
            "type": "string",
            "maxLength": 256,
            "pattern": '^"[a-z]+";q=[0-9]+;w=[0-9]+(, "[a-z]+";q=[0-9]+;w=[0-9]+)*$',
        },
    },
    "Access-Control-Allow-Origin": {
        "description": "CORS: the request's `Origin`, when it is one of `CORS_ORIGINS` "
        "(docs/operations.md); absent otherwise (no cross-origin reads by default).",
        "schema": {"type": "string", "maxLength": 2048, "pattern": "^(https?://[^\\s/]+|null|\\*)$"},
    },
    "Retry-After": {
        "description": "Seconds until the window that refused the request ends.",
        "schema": {"type": "integer", "format": "int32", "minimum": 1, "maximum": INT32[1]},
    },
}
_NOT_COUNTED = {
    "414": "uri_too_long",
    "431": "headers_too_large",
}
_BEFORE_APP = {
    "400": "`bad_request`: malformed HTTP, refused by the server before the app.",
    "414": "`uri_too_long`: request line over 4094 bytes (an over-long query), refused before the app.",
    "431": "`headers_too_large`: a header line over 8190 bytes, or over 100 headers, refused before the app.",
}
_NO_ROUTE = "`not_found`: a path segment over its `maxLength` matches no route."
_INTERNAL = "`internal_error`: a bug (the body never carries a trace)."
_RATE_LIMITED = (
    "`rate_limited`: over the request window of the token (or of the client address, for "
    "requests without a live token); see `Retry-After`."
)


def _ref(name: str, description: str | None = None) -> dict[str, str]:
    ref = {"$ref": f"#/components/headers/{name}"}
    return {**ref, "description": description} if description else ref


def apply(spec: dict[str, Any]) -> None:
    for server in spec.get("servers", []):
        server.setdefault("x-internal", False)
        server.setdefault("description", "This server (production, or wherever it runs).")
    spec["security"] = [{}, {"bearer": []}]
    spec["components"].setdefault("headers", {}).update(HEADERS)
    for response in spec["components"].get("responses", {}).values():  # flask-smorest's 422, default
        response.setdefault("headers", {}).update(
            {name: _ref(name) for name in ("RateLimit", "RateLimit-Policy", "Access-Control-Allow-Origin")}
        )
    for path, method, operation in _operations(spec):
        _operation(path, method, operation)
    inputs = _input_components(spec)
    for name, schema in spec["components"]["schemas"].items():
        _bound(schema, name, name in inputs)
    for _path, _method, operation in _operations(spec):
        for parameter in operation.get("parameters", []):
            _bound(parameter.get("schema", {}), parameter["name"], True)
        for media in operation.get("requestBody", {}).get("content", {}).values():
            _bound(media.get("schema", {}), "body", True)
        for response in operation["responses"].values():
            for media in response.get("content", {}).values():
                _bound(media.get("schema", {}), "response", False)
            for header_name, header in response.get("headers", {}).items():
                _bound(header.get("schema", {}), header_name, False)
    for header in spec["components"]["headers"].values():
        _bound(header.get("schema", {}), "header", False)


def _operations(spec: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    for path, item in spec["paths"].items():
        for method, operation in item.items():
            if method in ("get", "post", "put", "patch", "delete"):
                yield path, method, operation


def _operation(path: str, method: str, operation: dict[str, Any]) -> None:
    counted = path.startswith("/v1/")
    if not operation.get("security"):
        # Public by design: the document's default, an optional bearer (a
        # `/v1/` route reads one if sent: the rate limit counts a live
        # token's window, not the address's). Left to the default rather
        # than stated here: openapi-python-client reads any operation-level
        # requirement, `{}` included, as "a token is required".
        operation.pop("security", None)
    if not operation.get("description"):
        operation["description"] = operation.get("summary", "")
    responses = operation["responses"]
    if not {"400", "422", "4XX"} & set(responses):
        responses["400"] = {"description": _BEFORE_APP["400"], "content": ERROR_CONTENT}
    responses.pop("4XX", None)
    for status in ("414", "431"):
        responses.setdefault(status, {"description": _BEFORE_APP[status], "content": ERROR_CONTENT})
    responses.setdefault("500", {"description": _INTERNAL, "content": ERROR_CONTENT})
    if "{" in path:  # a path segment past its maxLength matches no route
        responses.setdefault("404", {"description": _NO_ROUTE, "content": ERROR_CONTENT})
    if counted:
        responses.setdefault("429", {"description": _RATE_LIMITED, "content": ERROR_CONTENT})
    for status, response in responses.items():
        if "$ref" in response:
            continue
        headers = response.setdefault("headers", {}) if status[0] in "24" else response.get("headers")
        if headers is None:
            continue
        if status[0] in "24":
            if not counted:
                note = f"Never sent: `{path}` counts against no window."
            elif status in _NOT_COUNTED:
                note = "Never sent: refused before the app, before any count."
            else:
                note = None
            headers["RateLimit"] = _ref("RateLimit", note)
            headers["RateLimit-Policy"] = _ref("RateLimit-Policy", note)
        if status == "429":
            headers["Retry-After"] = _ref("Retry-After")
        headers["Access-Control-Allow-Origin"] = _ref("Access-Control-Allow-Origin")


def _refs(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        target = node.get("$ref")
        if isinstance(target, str) and target.startswith("#/components/schemas/"):
            yield target.rsplit("/", 1)[1]
        for value in node.values():
            yield from _refs(value)
    elif isinstance(node, list):
        for value in node:
            yield from _refs(value)


def _input_components(spec: dict[str, Any]) -> set[str]:
    """The schema components a request can carry (bodies and parameters), transitively."""
    todo: list[str] = []
    for _path, _method, operation in _operations(spec):
        todo.extend(_refs(operation.get("parameters", [])))
        todo.extend(_refs(operation.get("requestBody", {})))
    found: set[str] = set()
    schemas = spec["components"]["schemas"]
    while todo:
        name = todo.pop()
        if name not in found:
            found.add(name)
            todo.extend(_refs(schemas[name]))
    return found


# What the server emits, by property name: (minimum, maximum). Counts and
# versions fit int32 (a match at the rate limit would take millennia to reach
# 2**31 versions); seeds are int64 as the request's `seed`.
_SEATS = (0, MAX_SEAT)
_RESPONSE_BOUNDS: dict[str, tuple[int, int]] = {
    **dict.fromkeys(("seat", "you", "winners", "engine_winners", "to_act"), _SEATS),
    **dict.fromkeys(("seed", "client_seed"), (0, INT64[1])),
    **dict.fromkeys(("version", "seq", "last_seq", "current_version", "cursor"), (0, INT32[1])),
    "status_code": (100, 599),
    "retry_after_s": (1, INT32[1]),
}
# A whole document as a string (a board picture, an SSE message's JSON): at
# most 16 MiB (a finished match's Match is tens of kilobytes).
_DOCUMENT_LENGTH = 16 << 20
_STRING_LENGTHS = {
    "image/svg+xml": _DOCUMENT_LENGTH,
    "date-time": 40,
}
_DEFAULT_STRING_LENGTH = 4096
_ARRAY_ITEMS = {
    **dict.fromkeys(("winners", "engine_winners", "to_act", "seats", "resigned"), MAX_SEAT + 1),
}
_DEFAULT_ARRAY_ITEMS = 100_000


def _types(node: dict[str, Any]) -> list[Any]:
    kind = node.get("type")
    return kind if isinstance(kind, list) else [kind]


def _bound(node: Any, name: str, is_input: bool) -> None:
    """Formats everywhere; bounds on what only the server emits (not an input)."""
    if isinstance(node, list):
        for value in node:
            _bound(value, name, is_input)
        return
    if not isinstance(node, dict):
        return
    kinds = _types(node)
    if "integer" in kinds:
        _integer(node, name, is_input)
    if "string" in kinds and not is_input and not {"maxLength", "enum", "const"} & set(node):
        if "contentMediaType" in node:
            node["maxLength"] = _DOCUMENT_LENGTH
        else:
            node["maxLength"] = _STRING_LENGTHS.get(node.get("format", name), _DEFAULT_STRING_LENGTH)
    if "array" in kinds:
        if not is_input and "maxItems" not in node:
            node["maxItems"] = _ARRAY_ITEMS.get(name, _DEFAULT_ARRAY_ITEMS)
        if "items" not in node and "prefixItems" in node:
            node["items"] = _tuple_items(node["prefixItems"])
    for key, value in node.items():
        if key == "properties":
            for prop, schema in value.items():
                _bound(schema, prop, is_input)
        elif key in (
            "items",
            "additionalProperties",
            "prefixItems",
            "oneOf",
            "anyOf",
            "allOf",
            "then",
            "else",
        ):
            _bound(value, name, is_input)
        elif key == "content" and isinstance(value, dict):
            for media, schema in value.items():
                _bound(schema.get("schema", {}), media, is_input)


def _integer(node: dict[str, Any], name: str, is_input: bool) -> None:
    if not is_input:
        low, high = _RESPONSE_BOUNDS.get(name, (node.get("minimum", INT32[0]), INT32[1]))
        node.setdefault("minimum", low)
        node.setdefault("maximum", max(high, node["minimum"]))
    if "format" not in node:
        low, high = node.get("minimum", INT64[0]), node.get("maximum", INT64[1])
        node["format"] = "int32" if INT32[0] <= low and high <= INT32[1] else "int64"


def _tuple_items(prefix: list[dict[str, Any]]) -> dict[str, Any]:
    """``items`` of a tuple (``prefixItems`` and ``maxItems`` equal to their
    count): no element past the prefix, so any schema true of the prefix's
    elements states it; a generator that reads only ``items`` gets their union."""
    if all(_types(item) == ["integer"] and {"minimum", "maximum"} <= set(item) for item in prefix):
        low = min(item["minimum"] for item in prefix)
        high = max(item["maximum"] for item in prefix)
        return {"type": "integer", "minimum": low, "maximum": high}
    return {"anyOf": list(prefix)}
