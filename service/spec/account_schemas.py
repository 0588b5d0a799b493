"""The schemas of the account routes (service/http/routes/accounts.py):
what they load and what they document, one definition for both."""

from typing import Any

import marshmallow as ma
from marshmallow import validate

from service.model.accounts import ACCOUNT_KINDS, ACCOUNT_STATUSES, NAME_INPUT_PATTERN, RECENT, SCOPES
from service.spec.components import documented_as, ref
from service.spec.play_schemas import ticket_query
from service.spec.rating_schemas import RatingSchema
from service.spec.schemas import describe

NAME_RULES = (
    "2 to 24 ASCII letters, digits, `_` or `-`, or their full-width forms (NFKC folds them into "
    "ASCII; look-alikes from other scripts are refused); unique ignoring case; reserved names "
    "(`admin`, `ai`, `ai-*`, `closed-*`...) refused. A refused name is 422 `validation_error`, "
    "a taken one 409 `name_taken`."
)
MAX_EXPIRES_IN_S = 366 * 24 * 3600


def register_account_components(spec: Any) -> None:
    """The enums the account schemas share, as named components."""
    spec.components.schema("AccountKind", component={"type": "string", "enum": list(ACCOUNT_KINDS)})
    spec.components.schema("AccountStatus", component={"type": "string", "enum": list(ACCOUNT_STATUSES)})
    spec.components.schema(
        "Scope",
        component={
            "type": "string",
            "enum": list(SCOPES),
            "description": "docs/accounts.md has each route's.",
        },
    )


def _kind(text: str | None = None) -> ma.fields.String:
    return ma.fields.String(
        required=True,
        validate=validate.OneOf(ACCOUNT_KINDS),
        metadata=documented_as(ref("AccountKind"), text),
    )


def _status() -> ma.fields.String:
    return ma.fields.String(
        required=True, validate=validate.OneOf(ACCOUNT_STATUSES), metadata=documented_as(ref("AccountStatus"))
    )


def _scope() -> ma.fields.String:
    return ma.fields.String(validate=validate.OneOf(SCOPES), metadata=documented_as(ref("Scope")))


def _scopes(**kwargs: Any) -> ma.fields.List:
    return ma.fields.List(
        _scope(),
        validate=validate.Length(1, len(SCOPES) * 2),
        **kwargs,
    )


class SignUpSchema(ma.Schema):
    name = ma.fields.String(
        required=True,
        validate=validate.Regexp(NAME_INPUT_PATTERN),
        metadata={**describe(NAME_RULES), "maxLength": 24},  # the pattern's {2,24}, enforced by it
    )
    kind = _kind()


class AppAccountSchema(SignUpSchema):
    scopes = _scopes(metadata=describe("The new token's scopes (default: all)."))
    label = ma.fields.String(validate=validate.Length(1, 64), metadata=describe("The new token's label."))


class AccountSchema(ma.Schema):
    id = ma.fields.String(required=True)
    name = ma.fields.String(required=True, metadata=describe("`closed-<id suffix>` once closed."))
    kind = _kind()
    status = _status()
    created_at = ma.fields.String(required=True, metadata=describe("ISO 8601 UTC."))
    app = ma.fields.String(
        required=True, allow_none=True, metadata=describe("The app that made it, or null.")
    )
    external_id = ma.fields.String(
        required=True, allow_none=True, metadata=describe("The app's own user id, or null.")
    )


class SignedUpSchema(ma.Schema):
    account = ma.fields.Nested(AccountSchema, required=True)
    token = ma.fields.String(
        required=True, metadata=describe("A personal access token (`tab_pat_...`), shown this once.")
    )
    token_id = ma.fields.String(required=True)


class GameFiguresSchema(ma.Schema):
    played = ma.fields.Integer(required=True, metadata=describe("Finished matches of this game."))
    won = ma.fields.Integer(required=True, metadata=describe("Of those, the ones the account won."))


class RecentResultSchema(ma.Schema):
    match_id = ma.fields.String(required=True)
    game = ma.fields.String(required=True)
    seat = ma.fields.Integer(required=True)
    won = ma.fields.Boolean(required=True, metadata=describe("The seat is among the match's winners."))
    finished_at = ma.fields.String(required=True, metadata=describe("ISO 8601 UTC."))


class ProfileSchema(ma.Schema):
    name = ma.fields.String(required=True)
    kind = _kind()
    since = ma.fields.String(required=True, metadata=describe("When the account was made (ISO 8601 UTC)."))
    status = _status()
    games = ma.fields.Dict(
        keys=ma.fields.String(),
        values=ma.fields.Nested(GameFiguresSchema),
        required=True,
        metadata=describe("Finished matches played and won, per game id (each match counted once)."),
    )
    recent = ma.fields.List(
        ma.fields.Nested(RecentResultSchema),
        required=True,
        metadata=describe(f"The last {RECENT} finished matches, newest first."),
    )
    ratings = ma.fields.Dict(
        keys=ma.fields.String(),
        values=ma.fields.Nested(RatingSchema),
        required=True,
        metadata=describe("The rating in each pool the account has rated matches in (docs/ratings.md)."),
    )


class NewTokenSchema(ma.Schema):
    label = ma.fields.String(required=True, validate=validate.Length(1, 64))
    scopes = _scopes(required=True, metadata=describe("Any of: " + ", ".join(f"`{s}`" for s in SCOPES) + "."))
    expires_in_s = ma.fields.Integer(
        strict=True,
        allow_none=True,
        validate=validate.Range(60, MAX_EXPIRES_IN_S),
        metadata=describe("Seconds until it expires (60 s to 366 days); null or absent: never."),
    )


class TokenSchema(ma.Schema):
    id = ma.fields.String(required=True)
    label = ma.fields.String(required=True)
    scopes = ma.fields.List(_scope(), required=True)
    created_at = ma.fields.String(required=True)
    expires_at = ma.fields.String(required=True, allow_none=True)
    last_used_at = ma.fields.String(
        required=True, allow_none=True, metadata=describe("Updated at most once a minute; null: never used.")
    )


class MintedTokenSchema(TokenSchema):
    token = ma.fields.String(required=True, metadata=describe("The token, shown this once."))
    token_id = ma.fields.String(required=True, metadata=describe("Same as `id`."))


ENTRY_ID = r"^[0-9]{1,20}(-[0-9]{1,20})?$"


def _entry_id(description: str, **kwargs: Any) -> ma.fields.String:
    return ma.fields.String(
        validate=validate.Regexp(ENTRY_ID),
        metadata={"description": description, "pattern": ENTRY_ID, "maxLength": 41},  # the pattern's
        **kwargs,
    )


class AccountStreamQuerySchema(ma.Schema):
    last_event_id = _entry_id(
        "Resume after this account event id (the `Last-Event-ID` header wins when both are given)."
    )
    ticket = ticket_query(
        "A ticket from `POST /v1/account/stream-ticket` (single use, short-lived), for clients "
        "that cannot set `Authorization` (browsers' EventSource). Never the token itself."
    )


class AccountStreamHeadersSchema(ma.Schema):
    last_event_id = _entry_id(
        "The last account event id seen (`id` of a message): resume right after it.", data_key="Last-Event-ID"
    )


class AccountMatchesQuerySchema(ma.Schema):
    status = ma.fields.String(validate=validate.OneOf(["waiting", "active", "finished"]))
    to_act = ma.fields.Boolean(
        load_default=False, metadata=describe("Only the matches where the account's seat is to act now.")
    )
