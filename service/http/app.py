"""The Flask app factory: ``create_app(config=None)``.

    gunicorn 'service:create_app()'

Routes live in ``service/http/routes/`` (thin: parse, call one operation,
return); errors of every kind leave through the handlers registered here in
the contract's shape ``{"error", "message", "details"}``.
"""

import logging
from typing import Any

import flask_smorest
from flask import Flask, jsonify
from werkzeug.exceptions import HTTPException

import engine
from service.http import bodies, cors, guards, internal_port, security_headers
from service.http.json_provider import OrjsonProvider
from service.http.move_lane import MoveLane
from service.http.routes import (
    accounts,
    catalogue,
    history,
    matches,
    meet,
    ops,
    playing,
    ratings,
    streams,
    web,
    webhooks,
)
from service.http.routes.common import BoundedSegment
from service.meet.schemas import register_meet_components
from service.model.errors import (
    ApiError,
    api_error,
    from_http_exception,
    from_storage_refusal,
    unexpected_error_body,
)
from service.ratings.pools import register_pool_component
from service.runtime import metrics
from service.runtime.config import load_config
from service.runtime.services import Services
from service.spec.actions import register_in_spec
from service.spec.create_match import register_request_schemas
from service.spec.schemas import ErrorSchema

log = logging.getLogger(__name__)

API_DESCRIPTION = """\
Tabula hosts board games (Anno 1503, Anno 1452) as a REST API for
frontends and bots. All bodies are JSON. Errors are
`{"error", "message", "details"}` (see the `Error` schema).

Decisions where the contract is silent:

- `version` also grows on a join and on a resignation (each logs an event,
  `player_joined` / `player_resigned`), so `ETag` changes whenever the match does.
- A match with open seats is `waiting`: posting an action answers 409
  `not_your_turn`; its action list is empty.
- `POST /v1/matches` with an unknown `game` answers 404 `not_found`; the
  returned `match` is the spectator's view (`you` null).
- Resigning revokes the token (401 afterwards); the seat is played by the
  `medium` AI; `result.winners` never lists a resigned seat
  (`result.engine_winners` keeps the rules' verdict).
- `GET .../replay` before the end: 409 `illegal_action`, `details.reason =
  "match_not_finished"`.
- Idempotency records are kept per seat and key for 24 h; only accepted
  actions are recorded (a refused request changed nothing, so retrying it
  simply re-runs the checks).
- An unknown or revoked bearer token is 401 even on routes that allow
  spectators (it is never silently downgraded to a spectator).
- Rate limits (fixed windows of `RATE_LIMIT_WINDOW_S`, default 60 s): every
  request counts against its bearer token's window (`RATE_LIMIT`, default
  1200) when the token is a live token of some match or a live account
  token, else against its client address's: a made-up, unknown or revoked token counts against the
  address (its 401 too). `POST /v1/matches` also counts against a tighter
  window per address (`CREATE_RATE_LIMIT`, default 60), whatever its token.
  429 `rate_limited` carries `Retry-After` (seconds) and
  `details.retry_after_s`. Health, readiness, `/metrics` and the spec are
  exempt.
- Dice: `fair` by default (the server commits to a secret, revealed with the
  replay's `proof`); `dice: reproducible` with a `seed` makes the seed the
  engine's and is shown in every `Match` (the creator knows the dice).
- CORS: origins allowed by the server's `CORS_ORIGINS`; preflights on every
  route; `Authorization`, `If-Match`, `If-None-Match`, `Idempotency-Key`,
  `Last-Event-ID` allowed; no credentials.
- Turn timers: with `turn_timeout_s` > 0 each pending human seat has a
  `deadline` (`Match.deadlines`); past it the `medium` AI decides for the
  seat (event `turn_timed_out`); a person's action that loses that race is
  409 `illegal_action` (`details.reason` `turn_timed_out`); after
  `TURN_TIMEOUTS_TO_AI` in a row the AI keeps the seat (`seat_handed_to_ai`).
- Rematch: each call by a seat of a finished match returns the same new
  match (201 when this call created it, else 200) with a new token for the
  caller's seat; several calls by one seat each get a valid token.
- While storage is unreachable or hangs, a request that needs it answers
  503 `unavailable` within `REDIS_SOCKET_TIMEOUT_S` (plus a small margin).
- 503 `unavailable` means the change was not made, except when storage
  timed out in the middle of the write: retry with the same
  `Idempotency-Key` to be safe.
- `GET .../events` pages with `after` and `limit`; `last_seq` is the last
  seq returned and `more` says whether to ask again.
- A lobby page past the end is an empty list (200; `X-Pagination` still
  gives `total`).
- Bodies: UTF-8 JSON objects of at most 64 KiB (`Content-Length` or
  chunked; 413 above). A string holding a lone surrogate (`"\\ud800"`) is
  422 `validation_error` with `details.fields` naming where. A number with a
  zero fractional part (`3.0`) is the integer it spells (JSON Schema 2020-12).
- A malformed action is 422 before `If-Match` (412) or `version` (409) are
  looked at; a well-formed action of another game is 409 `illegal_action`,
  `details.reason = "other_game_action"`. `join` with a seat the match does
  not have is 422.
- Accounts (docs/accounts.md): personal access tokens (`tab_pat_...`) carry
  scopes; a token without the route's scope is 403 `forbidden` with
  `details.missing_scope`; an unknown, revoked or expired one is 401. Names
  are NFKC-normalized ASCII, unique ignoring case (409 `name_taken`).
- Refused before the app, in this same JSON shape: a request line over 4094
  bytes, 414 `uri_too_long`; a header over 8190 bytes or more than 100
  headers, 431 `headers_too_large`; malformed HTTP (e.g. `Content-Length:
  -1`), 400 `bad_request`; an unknown transfer coding, 501 `not_implemented`.
"""


class TabulaApi(flask_smorest.Api):
    """flask-smorest's Api with the contract's error body (and 405's Allow kept)."""

    ERROR_SCHEMA = ErrorSchema

    def handle_http_exception(self, error: Any) -> Any:
        return error_response(error)


class TabulaFlask(Flask):
    """Flask without the per-call coroutine check: no view or hook here is async.

    ``ensure_sync`` runs for every hook, view and decorator layer of every
    request (about twenty ``inspect.iscoroutinefunction`` calls per move).
    """

    def ensure_sync(self, func: Any) -> Any:
        return func


def error_response(error: BaseException) -> Any:
    """The one way every error leaves the app: Flask's handlers (an ApiError,
    an engine error, an HTTPException of Flask's own, anything else) and the
    move lane (service/http/move_lane.py, in an app context). The request's
    deferred rate-limit count, when its route failed before the read that
    counts it (storage.rate_limit.load_charged), is counted first: its 429
    wins, as it would have. Engine errors are mapped here, once
    (errors.from_engine)."""
    error = guards.pending_rate_limit_error() or error
    error = from_storage_refusal(error) or error
    if isinstance(error, HTTPException):
        # flask-smorest's handler: the body as a (body, status, headers) answer.
        status, body, headers = from_http_exception(error)
        metrics.note_error(body["error"])
        return body, status, headers
    if isinstance(error, ApiError | engine.EngineError):
        error = api_error(error)
        status, body, headers = error.status, error.body(), error.headers
    else:
        status, body = unexpected_error_body(error)
        headers = {}
    metrics.note_error(body["error"])
    response = jsonify(body)
    response.status_code = status
    response.headers.update(headers)
    return response


def _spec_kwargs() -> dict[str, Any]:
    return {
        "info": {"description": API_DESCRIPTION},
        "servers": [{"url": "/"}],
    }


def create_app(config: dict[str, Any] | None = None) -> Flask:
    """Build the app; ``config`` overrides environment and defaults (tests)."""
    settings = load_config(config)
    app = TabulaFlask("service")
    app.json = OrjsonProvider(app)
    app.config.update(
        API_TITLE="Tabula",
        API_VERSION="1",
        OPENAPI_VERSION="3.1.0",
        MAX_CONTENT_LENGTH=settings["MAX_CONTENT_LENGTH"],
        JSON_SORT_KEYS=False,
    )
    app.json.sort_keys = False
    app.extensions["tabula"] = Services(settings)
    app.url_map.converters["default"] = BoundedSegment  # every `<param>` bounded (routes/common.py)
    api = TabulaApi(app, spec_kwargs=_spec_kwargs())
    api.spec.components.security_scheme("bearer", {"type": "http", "scheme": "bearer"})
    register_in_spec(api.spec, [engine.get_game(g) for g in engine.list_games()])
    register_request_schemas(api)
    register_pool_component(api.spec)
    register_meet_components(api)
    for module in (catalogue, matches, playing, history, streams, accounts, ratings, webhooks, meet, ops):
        api.register_blueprint(module.blp)
    ops.register_plain_routes(app, api)
    web.register_web_client(app)
    app.before_request(internal_port.only_metrics_inside)
    app.before_request(guards.check_rate_limit)
    app.before_request(bodies.check_json_body)
    app.after_request(guards.count_unread_charge)
    for kind in (ApiError, engine.EngineError, Exception):
        app.register_error_handler(kind, error_response)
    app.extensions["tabula_cors"] = cors.install(app, settings["CORS_ORIGINS"])
    flask_wsgi = app.wsgi_app
    lane = MoveLane(app, flask_wsgi, error_response)
    ported = internal_port.InternalPort(lane, flask_wsgi, settings["METRICS_PORT"])
    servers = security_headers.configured_servers(settings["WEB_CLIENT_SERVERS"])
    app.wsgi_app = security_headers.SecurityHeaders(ported, servers)  # type: ignore[method-assign]
    # Outermost: the request id, metrics and request log of both lanes.
    metrics.configure(settings["METRICS"])
    app.after_request(metrics.flask_after_request)
    app.wsgi_app = metrics.RequestObserver(  # type: ignore[method-assign]
        app.wsgi_app, request_log=bool(settings["REQUEST_LOG"])
    )
    return app
