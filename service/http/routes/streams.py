"""Live play: the match's event stream (SSE or NDJSON) and stream tickets."""

from typing import Any

from flask import Response, request
from flask.views import MethodView

from service.http.routes.common import BEARER, OPTIONAL_BEARER, Blueprint, documents_errors, services, token
from service.live import streams as live
from service.model.errors import ApiError
from service.spec.play_schemas import StreamHeadersSchema, StreamQuerySchema, StreamTicketSchema
from service.spec.schemas import ErrorSchema

blp = Blueprint(
    "streams",
    __name__,
    url_prefix="/v1/matches",
    description="Live play: the match's events as they happen (SSE or NDJSON).",
)

SSE = "text/event-stream"
NDJSON = "application/x-ndjson"
# Query parameters a bearer token is commonly smuggled in: refused, never read.
TOKEN_PARAMETERS = ("access_token", "token", "bearer", "authorization", "auth")

_SSE_MESSAGE = {
    "type": "object",
    "description": (
        "One Server-Sent Event. `event: match` (no `id`): `data` is the `Match` for this "
        "viewer, first and once more when the stream ends; `event: <type>` with `id: <seq>`: "
        "`data` is the `Event` (as `GET .../events` shows it to this viewer); "
        "`event: error`: `data` is an `Error` (`too_far_behind`), then the stream ends. "
        "Comment lines `: keep-alive` come every `STREAM_KEEPALIVE_S` (15 s) of silence."
    ),
    "properties": {
        "event": {"type": "string"},
        "id": {"type": "string", "pattern": "^[0-9]+$"},
        "data": {"type": "string", "contentMediaType": "application/json"},
        "retry": {"type": "integer"},
    },
    "required": ["event", "data"],
}

STREAM_RESPONSE = {
    "description": (
        "The stream. First the current `Match` for this viewer; then every `Event` with "
        "`seq` greater than `Last-Event-ID` (or `after`; default: the `Match`'s last "
        "event), in order, without gap or duplicate, then each new one as it is "
        "committed. A keep-alive at least every 15 s (SSE: the comment `: keep-alive`; "
        "NDJSON: an empty line). The stream ends after the match ends (its last events; "
        "a `rematch_created` if one comes within `STREAM_REMATCH_WAIT_S`, 30 s; then the "
        "final `Match`), and after the viewer's own `player_resigned` event "
        "(the token is revoked: the final `Match` is the spectator's). A client more "
        "than `STREAM_QUEUE_MAX` (1000) events behind gets `too_far_behind` and the "
        "stream ends: reconnect with the last seq seen, nothing is lost."
    ),
    "headers": {"Cache-Control": {"schema": {"type": "string"}, "description": "`no-cache`"}},
    "content": {
        SSE: {"schema": _SSE_MESSAGE},
        NDJSON: {
            "schema": {
                "description": (
                    "One JSON value per line: the `Match` (it has no `seq`), then `Event`s "
                    "(each has `seq`), an `Error` (`too_far_behind`) before an early end; "
                    "empty lines are keep-alives."
                ),
                "oneOf": [
                    {"$ref": "#/components/schemas/Match"},
                    {"$ref": "#/components/schemas/Event"},
                    {"$ref": "#/components/schemas/Error"},
                ],
            }
        },
    },
}


@blp.route("/<match_id>/stream")
class Stream(MethodView):
    @blp.doc(operationId="streamMatch", security=OPTIONAL_BEARER, responses={"200": STREAM_RESPONSE})
    @blp.arguments(StreamQuerySchema, location="query")
    @blp.arguments(StreamHeadersSchema, location="headers")
    @blp.alt_response(
        400,
        schema=ErrorSchema,
        description=(
            "`bad_request`: a bearer token in the query string (`access_token`, `token`...): "
            "use `Authorization`, or a stream ticket."
        ),
    )
    @documents_errors(blp, 410, 401, 403, 404)
    def get(self, query: dict[str, Any], headers: dict[str, Any], match_id: str) -> Response:
        """Live events of a match: SSE with `Accept: text/event-stream`, else NDJSON.

        Bearer token optional (a spectator without); `?ticket=` from
        `POST .../stream-ticket` instead where headers cannot be set.
        """
        smuggled = [name for name in TOKEN_PARAMETERS if name in request.args]
        if smuggled:
            raise ApiError(
                400,
                "bad_request",
                "a bearer token is never accepted in the query string: send it in "
                "Authorization, or get a stream ticket (POST .../stream-ticket)",
                parameters=smuggled,
            )
        sse = request.accept_mimetypes.best_match([NDJSON, SSE]) == SSE
        after = headers.get("last_event_id", query.get("after"))
        body = live.open_stream(
            services(), match_id, token() if "ticket" not in query else None, query.get("ticket"), after, sse
        )
        response = Response(body, mimetype=SSE if sse else NDJSON, direct_passthrough=True)
        response.headers["Cache-Control"] = "no-cache"
        response.headers["X-Accel-Buffering"] = "no"  # nginx: do not buffer the stream
        response.headers["Vary"] = "Accept, Authorization"
        return response


@blp.route("/<match_id>/stream-ticket")
class StreamTicket(MethodView):
    @blp.doc(operationId="createStreamTicket", security=BEARER)
    @blp.response(201, StreamTicketSchema)
    @documents_errors(blp, 410, 401, 403, 404)
    def post(self, match_id: str) -> tuple[dict[str, str], int]:
        """A short-lived (`STREAM_TICKET_TTL_S`, 60 s), single-use `?ticket=` for the stream.

        For clients that cannot send `Authorization` (a browser's EventSource):
        the stream it opens is the bearer's seat's.
        """
        return live.new_ticket(services(), match_id, token()), 201
