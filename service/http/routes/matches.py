"""Matches: create, lobby, read (ETag), join, resign."""

from typing import Any

from flask import Response
from flask.views import MethodView

from service.http.routes.common import BEARER, OPTIONAL_BEARER, Blueprint, documents_errors, services, token
from service.model.etags import entity_tags, version_header
from service.play import boards, matches, rematch
from service.spec.play_schemas import (
    BoardHeadersSchema,
    BoardQuerySchema,
    JoinedSchema,
    JoinSchema,
    MatchHeadersSchema,
    RematchSchema,
    ResignHeadersSchema,
)
from service.spec.schemas import (
    CreatedMatchSchema,
    CreateMatchSchema,
    LobbyQuerySchema,
    MatchSchema,
    MatchSummarySchema,
)

blp = Blueprint(
    "matches",
    __name__,
    url_prefix="/v1/matches",
    description="Create matches, join open seats, read a match, resign.",
)

# A route for a seat's token on a finished match: its errors, and its 409's text.
SEAT_ERRORS = (401, 403, 404, 409)
NOT_FINISHED = "`illegal_action` with `details.reason` `match_not_finished`"
ETAG_HEADER = {"ETag": {"description": '`"<version>"`', "schema": {"type": "string"}}}
# A rated match's human seat is an account's (docs/ratings.md): refused without one.
RATED_SEAT_401 = "or a seat of a rated match taken without any token"
RATED_SEAT_403 = "`account_token_required`: a seat of a rated match taken with a seat token"
CREATE_TEXTS = {
    401: f"`unauthorized`: an account token unknown, revoked or expired, {RATED_SEAT_401}.",
    403: f"`forbidden`: the account token lacks `match:create` (`details.missing_scope`); {RATED_SEAT_403}.",
}


@blp.route("")
class Matches(MethodView):
    @blp.doc(operationId="listMatches")
    @blp.arguments(LobbyQuerySchema, location="query")
    @blp.response(200, MatchSummarySchema(many=True))
    @blp.paginate()
    @documents_errors(blp)
    def get(self, query: dict[str, Any], pagination_parameters: Any) -> list[dict]:
        """The lobby: matches newest first, filtered by status and game."""
        items, total = matches.lobby(
            services(),
            query.get("status"),
            query.get("game"),
            pagination_parameters.page,
            pagination_parameters.page_size,
        )
        pagination_parameters.item_count = total
        return items

    # The body is loaded by CreateMatchSchema and documented as CreateMatch,
    # one schema per game (schemas.create_match_components): what each game
    # accepts, options and seat counts included.
    @blp.doc(
        operationId="createMatch",
        security=OPTIONAL_BEARER,
        requestBody={
            "required": True,
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/CreateMatch"}}},
        },
    )
    @blp.arguments(CreateMatchSchema)
    @blp.response(
        201,
        CreatedMatchSchema,
        headers={"Location": {"description": "/v1/matches/{id}", "schema": {"type": "string"}}},
    )
    @documents_errors(blp, 400, 401, 403, 404, 413, texts=CREATE_TEXTS)
    def post(self, body: dict[str, Any]) -> Any:
        """Create a match; one bearer token per human seat. With an account token (scope
        `match:create`) the first human seat is the account's (422 without a human seat): the
        account token then acts for it, and its seat token is returned as well."""
        created = matches.create_match(services(), body, token())
        return created, 201, {"Location": f"/v1/matches/{created['match']['id']}"}


@blp.route("/<match_id>")
class MatchById(MethodView):
    @blp.doc(operationId="getMatch", security=OPTIONAL_BEARER)
    @blp.arguments(MatchHeadersSchema, location="headers")
    @blp.response(200, MatchSchema, headers=ETAG_HEADER)
    @blp.alt_response(304, description="Not modified (If-None-Match is the current version).")
    @documents_errors(blp, 410, 401, 403, 404)
    def get(self, headers: dict[str, Any], match_id: str) -> Any:
        """A match as the bearer's seat (or a spectator, without a token) sees it."""
        wanted = headers.get("if_none_match")
        cached = version_header(wanted) if wanted is not None else None
        version, body = matches.get_match(services(), match_id, token(), cached)
        headers = {"ETag": f'"{version}"', "Vary": "Authorization"}
        if body is None:
            return Response(status=304, headers=headers)
        return body, 200, headers


SVG = "image/svg+xml"


@blp.route("/<match_id>/board.svg")
class Board(MethodView):
    @blp.doc(
        operationId="getBoard",
        security=OPTIONAL_BEARER,
        responses={
            "200": {
                "description": (
                    "The board as an SVG document, drawn from the view of the bearer's seat (or a "
                    "spectator's) and redacted exactly as `Match.view`. Elements an action refers to "
                    'carry `data-` attributes (`data-space="r,c"`, `data-region`, `data-estate`, '
                    "`data-slot`, `data-ship`, `data-card`, `data-seat`, ...); the root's "
                    "`data-click-targets` maps each action type to the parameters that name them."
                ),
                "headers": ETAG_HEADER,
                "content": {SVG: {"schema": {"type": "string"}}},
            },
            "304": {"description": "Not modified (If-None-Match is the current ETag)."},
        },
    )
    @blp.arguments(BoardQuerySchema, location="query")
    @blp.arguments(BoardHeadersSchema, location="headers")
    @documents_errors(blp, 410, *SEAT_ERRORS, conflict=f"{NOT_FINISHED}: `step` is for finished matches.")
    def get(self, query: dict[str, Any], headers: dict[str, Any], match_id: str) -> Response:
        """The match as a picture (SVG) for the bearer (or a spectator); `ETag` by version."""
        wanted = headers.get("if_none_match")
        cached = entity_tags(wanted) if wanted is not None else set()
        etag, svg = boards.get_board(services(), match_id, token(), query.get("step"), cached)
        headers = {"ETag": etag, "Vary": "Authorization", "Cache-Control": "no-cache"}
        if svg is None:
            return Response(status=304, headers=headers)
        return Response(svg, mimetype=SVG, headers=headers)


JOIN_ERRORS = (400, 401, 403, 404, 409, 413)


@blp.route("/<match_id>/join")
class Join(MethodView):
    @blp.doc(operationId="joinMatch", security=OPTIONAL_BEARER)
    @blp.arguments(JoinSchema, required=False)
    @blp.response(201, JoinedSchema)
    @documents_errors(
        blp,
        410,
        *JOIN_ERRORS,
        422,
        conflict=(
            "`seat_taken`: no open seat, or that seat is taken; `already_seated`: the account "
            "holds a seat of this match."
        ),
        texts={
            401: f"`unauthorized`: an account token unknown, revoked or expired, {RATED_SEAT_401}.",
            403: f"`forbidden`: the account token lacks `match:play` (`details.missing_scope`); {RATED_SEAT_403}.",
            422: "`validation_error`: the body fails its schema, or names a seat the match does not "
            "have (no such seat: at or above its number of seats).",
        },
    )
    def post(self, body: dict[str, Any], match_id: str) -> tuple[Any, int]:
        """Take an open seat (409 `seat_taken` if none); the match starts when none is left.
        With an account token (scope `match:play`) the seat is bound to the account (at most one
        seat of a match per account: 409 `already_seated`)."""
        return matches.join_match(services(), match_id, body, token()), 201


@blp.route("/<match_id>/rematch")
class Rematch(MethodView):
    @blp.doc(operationId="rematch", security=BEARER)
    @blp.response(201, RematchSchema, description="The rematch was created by this call.")
    @blp.alt_response(200, schema=RematchSchema, description="The rematch existed already.")
    @documents_errors(
        blp,
        410,
        *SEAT_ERRORS,
        conflict=(
            f"{NOT_FINISHED}: the match is not over; `illegal_action` with `details.reason` "
            "`match_archived`: no rematch was claimed before its hot keys expired "
            "(`FINISHED_MATCH_TTL_S` after the finish)."
        ),
    )
    def post(self, match_id: str) -> tuple[dict[str, Any], int]:
        """Play again: the first call creates the new match (same game, options, seats, levels,
        timer; fresh dice), every call gets a token for its own seat in it; the old match
        shows `rematch` and logs `rematch_created`."""
        body, created = rematch.rematch(services(), match_id, token())
        return body, 201 if created else 200


@blp.route("/<match_id>/resign")
class Resign(MethodView):
    @blp.doc(operationId="resign", security=BEARER)
    @blp.arguments(ResignHeadersSchema(), location="headers")
    @blp.response(200, MatchSchema)
    @documents_errors(blp, 410, 401, 403, 404, 409, conflict="`game_over`: the match is finished.")
    def post(self, headers: dict[str, Any], match_id: str) -> Any:
        """Resign: an AI of level `medium` takes the seat; it counts as a loss; the token is revoked."""
        return matches.resign(services(), match_id, token(), headers.get("idempotency_key"))
