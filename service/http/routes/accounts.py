"""Accounts and personal access tokens (docs/accounts.md): thin routes over
service/accounts."""

from typing import Any

import orjson
from flask import Response, request
from flask.views import MethodView

from service.accounts import history, profiles, signup, stream_tickets, tokens
from service.accounts.auth import require
from service.http.routes.common import BEARER, SCOPED, Blueprint, documents_errors, scoped, services, token
from service.live.account_stream import AccountStreamBody
from service.model.documents import summary
from service.play.history import replay_body
from service.ratings import boards
from service.spec.account_schemas import (
    AccountMatchesQuerySchema,
    AccountSchema,
    AccountStreamHeadersSchema,
    AccountStreamQuerySchema,
    AppAccountSchema,
    MintedTokenSchema,
    NewTokenSchema,
    ProfileSchema,
    SignedUpSchema,
    SignUpSchema,
    TokenSchema,
)
from service.spec.play_schemas import HistoryLineSchema, StreamTicketSchema
from service.spec.schemas import MatchSummarySchema

SSE, NDJSON = "text/event-stream", "application/x-ndjson"
_MESSAGE = {
    "type": "object",
    "properties": {
        "id": {"type": ["string", "null"], "description": "The event's id (null: a first `your_turn`)."},
        "type": {"type": "string"},
        "match_id": {"type": ["string", "null"]},
        "data": {"type": "object"},
    },
    "required": ["id", "type", "match_id", "data"],
}
ACCOUNT_STREAM = {
    "description": (
        "First one `your_turn` (`id` null) per active match where the account is to act now; "
        "then every event after `Last-Event-ID` (or `?last_event_id=`; without: none); then "
        "each new event as it comes. Types: `match_started`, `your_turn`, `seat_handed_to_ai`, "
        "`match_finished` (`data`: `game`, `seat`, `version`; `your_turn`: `deadline`; "
        "`seat_handed_to_ai`: `reason`; `match_finished`: `result`), and `challenge` (`match_id` null; "
        "`data`: the Challenge, docs/matchmaking.md). Keep-alives as the match stream's."
    ),
    "headers": {"Cache-Control": {"schema": {"type": "string"}, "description": "`no-cache`"}},
    "content": {
        NDJSON: {"schema": {**_MESSAGE, "description": "One message per line; empty lines are keep-alives."}},
        SSE: {
            "schema": {
                "type": "object",
                "description": "`id: <event id>` (none for a first `your_turn`), `event: <type>`, "
                "`data:` the message's JSON; `: keep-alive` comments.",
            }
        },
    },
}

blp = Blueprint(
    "accounts",
    __name__,
    url_prefix="/v1",
    description="Player and bot accounts, and their personal access tokens with scopes.",
)


@blp.route("/accounts")
class Accounts(MethodView):
    @blp.doc(operationId="createAccount")
    @blp.arguments(SignUpSchema)
    @blp.response(201, SignedUpSchema)
    @documents_errors(
        blp,
        400,
        403,
        409,
        413,
        texts={
            403: "`forbidden`: sign-up is closed and the bearer is not the operator key.",
            409: "`name_taken`: an account has this name (ignoring case and width).",
        },
    )
    def post(self, body: dict[str, Any]) -> Any:
        """Sign up: the account and its first token (all scopes), shown once."""
        return signup.sign_up(services(), body, token(), request.remote_addr or "unknown"), 201


@blp.route("/apps/accounts/<string(minlength=1, maxlength=128):external_id>")
class AppAccount(MethodView):
    @blp.doc(operationId="putAppAccount", security=BEARER)
    @blp.arguments(AppAccountSchema)
    @blp.response(201, SignedUpSchema, description="The account was made by this call.")
    @blp.alt_response(200, schema=SignedUpSchema, description="The app user's account, found.")
    @documents_errors(
        blp,
        400,
        401,
        409,
        413,
        texts={
            401: "`unauthorized`: the bearer is not an app key of this server.",
            409: "`name_taken` (on creation), or `conflict`: the app user's account is closed.",
        },
    )
    def put(self, body: dict[str, Any], external_id: str) -> Any:
        """An app's own user: make (201) or find (200) its account; a new token each call."""
        return signup.app_account(services(), token(), external_id, body)


@blp.route("/account")
class OwnAccount(MethodView):
    @blp.doc(operationId="getOwnAccount", **scoped("account:read"))
    @blp.response(200, AccountSchema)
    @documents_errors(blp, 401, 403, texts=SCOPED)
    def get(self) -> dict[str, Any]:
        """The bearer's own account."""
        return profiles.own_account(services(), require(services(), token(), "account:read"))

    @blp.doc(operationId="closeAccount", **scoped("account:write"))
    @blp.response(204)
    @documents_errors(blp, 401, 403, texts=SCOPED)
    def delete(self) -> None:
        """Close the account: every token revoked; results kept under `closed-<id suffix>`."""
        profiles.close_account(services(), require(services(), token(), "account:write"))


@blp.route("/accounts/<name>")
class Profile(MethodView):
    @blp.doc(operationId="getProfile")
    @blp.response(200, ProfileSchema)
    @documents_errors(blp, 404)
    def get(self, name: str) -> dict[str, Any]:
        """An account's public profile, by name, with its rating in each pool."""
        boards.profile_account(services(), name)
        return boards.with_ratings(services(), profiles.profile(services(), name), name)


@blp.route("/account/tokens")
class Tokens(MethodView):
    @blp.doc(operationId="listTokens", **scoped("account:read"))
    @blp.response(200, TokenSchema(many=True))
    @documents_errors(blp, 401, 403, texts=SCOPED)
    def get(self) -> list[dict[str, Any]]:
        """The account's tokens (never the tokens themselves), oldest first."""
        return tokens.list_tokens(services(), require(services(), token(), "account:read"))

    @blp.doc(operationId="createToken", **scoped("account:write"))
    @blp.arguments(NewTokenSchema)
    @blp.response(201, MintedTokenSchema)
    @documents_errors(blp, 400, 401, 403, 413, texts=SCOPED)
    def post(self, body: dict[str, Any]) -> Any:
        """A new personal access token, shown once."""
        principal = require(services(), token(), "account:write")
        minted = tokens.mint_token(
            services(), principal.aid, body["label"], body["scopes"], body.get("expires_in_s")
        )
        return minted, 201


@blp.route("/account/tokens/<id>")
class OneToken(MethodView):
    @blp.doc(operationId="revokeToken", **scoped("account:write"))
    @blp.response(204)
    @documents_errors(blp, 401, 403, 404, texts=SCOPED)
    def delete(self, id: str) -> None:  # the path's `{id}` (a name with "token" reads as a credential)
        """Revoke a token, at once on every API process."""
        tokens.revoke_token(services(), require(services(), token(), "account:write"), id)


@blp.route("/account/matches")
class OwnMatches(MethodView):
    @blp.doc(operationId="listOwnMatches", **scoped("match:read"))
    @blp.arguments(AccountMatchesQuerySchema, location="query")
    @blp.response(200, MatchSummarySchema(many=True))
    @blp.paginate()
    @documents_errors(blp, 401, 403, texts=SCOPED)
    def get(self, query: dict[str, Any], pagination_parameters: Any) -> list[dict]:
        """The account's matches, newest first: `status` filter, `to_act=true` for those where it is to act."""
        principal = require(services(), token(), "match:read")
        items, total = history.own_matches(
            services(),
            principal.aid,
            query.get("status"),
            query["to_act"],
            pagination_parameters.page,
            pagination_parameters.page_size,
        )
        pagination_parameters.item_count = total
        return items


HISTORY_NDJSON = {
    "200": {
        "description": "A page of the finished matches, or with NDJSON the whole history.",
        "content": {
            "application/json": {
                "schema": {"type": "array", "items": {"$ref": "#/components/schemas/MatchSummary"}}
            },
            NDJSON: {
                "schema": {
                    "description": (
                        "The whole history (not paged): one `HistoryLine` per line, a `MatchSummary` "
                        "with its archive record's public form (`replay`)."
                    ),
                    "$ref": "#/components/schemas/HistoryLine",
                }
            },
        },
    }
}


@blp.route("/accounts/<name>/matches")
class PublicHistory(MethodView):
    @blp.doc(operationId="listAccountHistory", responses=HISTORY_NDJSON)
    @blp.response(200, MatchSummarySchema(many=True))
    @blp.paginate()
    @documents_errors(blp, 404)
    def get(self, name: str, pagination_parameters: Any) -> Any:
        """The account's finished matches, newest first (public); with `Accept:
        application/x-ndjson` the whole history, not paged: one `MatchSummary` per line, with its
        archive record's public form (`replay`, as `GET /v1/matches/{id}/replay` answers it)."""
        aid = profiles.public_account(services(), name)["id"]
        if request.accept_mimetypes.best_match(["application/json", NDJSON]) == NDJSON:
            pagination_parameters.item_count = history.finished_total(services(), aid)
            # Dumped by the schema, as the JSON answer: only public fields (never a seat's account id).
            dump = HistoryLineSchema().dump
            here = services()  # the generator runs outside the app context
            lines = (
                orjson.dumps(dump(_history_line(here, doc))) + b"\n"
                for doc in history.iter_finished_docs(here, aid)
            )
            return Response(lines, mimetype=NDJSON)
        items, total = history.finished_page(
            services(), aid, pagination_parameters.page, pagination_parameters.page_size
        )
        pagination_parameters.item_count = total
        return items


def _history_line(here: Any, doc: dict) -> dict[str, Any]:
    """A HistoryLine: the summary of finished match ``doc`` and its replay."""
    return {**summary(doc), "replay": replay_body(doc, here.store.read_actions(doc["id"]))}


@blp.route("/account/stream")
class AccountStream(MethodView):
    @blp.doc(operationId="streamAccount", responses={"200": ACCOUNT_STREAM}, **scoped("match:read"))
    @blp.arguments(AccountStreamQuerySchema, location="query")
    @blp.arguments(AccountStreamHeadersSchema, location="headers")
    @documents_errors(blp, 401, 403, texts=SCOPED)
    def get(self, query: dict[str, Any], headers: dict[str, Any]) -> Response:
        """Every event of the account, live: SSE with `Accept: text/event-stream`, else NDJSON."""
        if "ticket" in query:
            principal = stream_tickets.ticket_principal(services(), query["ticket"])
        else:
            principal = require(services(), token(), "match:read")
        sse = request.accept_mimetypes.best_match([NDJSON, SSE]) == SSE
        after = headers.get("last_event_id", query.get("last_event_id"))
        body = AccountStreamBody(services(), principal, sse, after)
        response = Response(body, mimetype=SSE if sse else NDJSON, direct_passthrough=True)
        response.headers["Cache-Control"] = "no-cache"
        response.headers["X-Accel-Buffering"] = "no"
        response.headers["Vary"] = "Accept, Authorization"
        return response


@blp.route("/account/stream-ticket")
class AccountStreamTicket(MethodView):
    @blp.doc(operationId="createAccountStreamTicket", **scoped("match:read"))
    @blp.response(201, StreamTicketSchema)
    @documents_errors(blp, 401, 403, texts=SCOPED)
    def post(self) -> tuple[dict[str, str], int]:
        """A short-lived (`STREAM_TICKET_TTL_S`, 60 s), single-use `?ticket=` for the account
        stream, for clients that cannot send `Authorization` (a browser's EventSource)."""
        return stream_tickets.new_stream_ticket(services(), token()), 201
