"""The schemas of the challenge and seek routes: what they load and document.

Here rather than in service/spec: a seek names a rating pool, whose names
service/ratings/pools.py holds (a layer above spec)."""

from typing import Any

import marshmallow as ma
from marshmallow import validate

from engine.ai import LEVELS
from service.meet.rating import POOLS
from service.spec.components import document_schema_as, documented_as, ref
from service.spec.create_match import PerGameRequest, per_game_components
from service.spec.schemas import (
    GAMES,
    MAX_SEATS,
    MIN_SEATS,
    SeatRequestField,
    StrictBoolean,
    describe,
    turn_timeout_field,
)

CHALLENGE_SEAT_KINDS = ("account", "ai", "open")
CHALLENGE_STATUSES = ("pending", "started", "declined", "cancelled", "expired")
SEEK_STATUSES = ("waiting", "matched", "cancelled", "expired")
MAX_PLAYERS = max(game.max_players for game in GAMES)
MAX_CHALLENGE_TTL_S = 7 * 24 * 3600


def register_meet_components(api: Any) -> None:
    """The enums and seat requests of the challenge and seek schemas, as named
    components, and ``CreateChallenge`` with its rule for rated challenges
    (``api``: the app's flask_smorest.Api, its converter set up)."""
    spec = api.spec
    spec.components.schema(
        "ChallengeSeatKind", component={"type": "string", "enum": list(CHALLENGE_SEAT_KINDS)}
    )
    spec.components.schema("ChallengeStatus", component={"type": "string", "enum": list(CHALLENGE_STATUSES)})
    spec.components.schema("SeekStatus", component={"type": "string", "enum": list(SEEK_STATUSES)})
    for kind, cls in CHALLENGE_SEAT_SCHEMAS.items():
        spec.components.schema(f"{kind.capitalize()}ChallengeSeatRequest", schema=cls)
    base = api.ma_plugin.converter.schema2jsonschema(CreateChallengeSchema)
    components = per_game_components(base, CHALLENGE_REQUEST)
    document_schema_as(api, CreateChallengeSchema, "CreateChallenge", components.pop("CreateChallenge"))
    for name, component in components.items():
        if name not in spec.components.schemas:  # options and their choices: CreateMatch's
            spec.components.schema(name, component=component)


def _seat_kind(text: str | None = None, **kwargs: Any) -> ma.fields.String:
    return ma.fields.String(
        validate=validate.OneOf(CHALLENGE_SEAT_KINDS),
        metadata=documented_as(ref("ChallengeSeatKind"), text),
        **kwargs,
    )


def _pool(text: str | None = None, **kwargs: Any) -> ma.fields.String:
    return ma.fields.String(
        validate=validate.OneOf(POOLS), metadata=documented_as(ref("RatingPool"), text), **kwargs
    )


def _level(text: str | None = None, **kwargs: Any) -> ma.fields.String:
    return ma.fields.String(
        validate=validate.OneOf(LEVELS), metadata=documented_as(ref("AiLevel"), text), **kwargs
    )


def _kind(kind: str) -> ma.fields.String:
    return ma.fields.String(
        required=True,
        validate=validate.OneOf([kind]),
        metadata=documented_as({"type": "string", "const": kind}),
    )


class AccountChallengeSeatRequestSchema(ma.Schema):
    """An account invited by name: it accepts or declines."""

    kind = _kind("account")
    name = ma.fields.String(
        required=True,
        validate=validate.Length(1, 64),
        metadata=describe("The invited account's name (404 `not_found` when no account has it)."),
    )


class AiChallengeSeatRequestSchema(ma.Schema):
    """A seat played by a built-in AI."""

    kind = _kind("ai")
    level = _level("The AI's level (default `medium`).", load_default="medium")


class OpenChallengeSeatRequestSchema(ma.Schema):
    """A seat left open, joined once the match exists (never in a rated challenge)."""

    kind = _kind("open")


CHALLENGE_SEAT_SCHEMAS: dict[str, type[ma.Schema]] = {
    "account": AccountChallengeSeatRequestSchema,
    "ai": AiChallengeSeatRequestSchema,
    "open": OpenChallengeSeatRequestSchema,
}
# `rated: true`: no open seat (every seat of a rated match is an account's or
# an AI's), as CreateChallengeSchema checks (422 otherwise).
RATED_CHALLENGE_RULE = {
    "if": {"properties": {"rated": {"const": True}}, "required": ["rated"]},
    "then": {"properties": {"seats": {"items": {"properties": {"kind": {"not": {"const": "open"}}}}}}},
}
# Documented per game, as CreateMatch: its options and seat counts (seat 0,
# the challenger's, is not in `seats`).
CHALLENGE_REQUEST = PerGameRequest(
    "CreateChallenge",
    "A challenge to a match of one game of the catalogue (`game`): its options and seat counts, "
    "the challenger's seat 0 and `seats` (an unknown `game` is 404 `not_found`).",
    (RATED_CHALLENGE_RULE,),
    seats_before=1,
)


class CreateChallengeSchema(ma.Schema):
    game = ma.fields.String(
        required=True,
        validate=validate.Length(max=32),
        metadata=describe("A game id of the catalogue (404 otherwise)."),
    )
    options = ma.fields.Dict(
        keys=ma.fields.String(),
        load_default=dict,
        metadata=describe("Game options; missing ones take their default."),
    )
    seats = ma.fields.List(
        SeatRequestField(CHALLENGE_SEAT_SCHEMAS, "ChallengeSeatRequest"),
        required=True,
        validate=validate.Length(min=1, max=MAX_SEATS - 1),
        metadata=describe("The seats after the challenger's (seat 0), in seat order."),
    )
    rated = StrictBoolean(
        load_default=False,
        metadata=describe("A rated match: every seat an account or an AI (no `open` seat; 422 otherwise)."),
    )
    turn_timeout_s = turn_timeout_field("The match's turn timer, as in CreateMatch; 0: none.")
    expires_in_s = ma.fields.Integer(
        strict=True,
        validate=validate.Range(1, MAX_CHALLENGE_TTL_S),
        metadata=describe("Expire sooner than the server's `CHALLENGE_TTL_S` (never later)."),
    )

    @ma.validates_schema
    def _rated(self, data: dict[str, Any], **kwargs: Any) -> None:
        """What RATED_CHALLENGE_RULE documents."""
        if data["rated"] and any(seat["kind"] == "open" for seat in data["seats"]):
            raise ma.ValidationError({"rated": ["a rated challenge has no open seat: name every seat"]})


class ChallengeSeatSchema(ma.Schema):
    seat = ma.fields.Integer(required=True)
    kind = _seat_kind(required=True)
    name = ma.fields.String(metadata=describe("The account's name (kind `account`)."))
    accepted = ma.fields.Boolean(metadata=describe("Whether the account accepted (the challenger's: true)."))
    level = _level()


class ChallengerSchema(ma.Schema):
    name = ma.fields.String(required=True)
    kind = ma.fields.String(required=True, metadata=documented_as(ref("AccountKind")))


class ChallengeSchema(ma.Schema):
    id = ma.fields.String(required=True)
    challenger = ma.fields.Nested(ChallengerSchema, required=True)
    game = ma.fields.String(required=True)
    options = ma.fields.Dict(required=True, metadata=describe("The match's complete options."))
    seats = ma.fields.List(ma.fields.Nested(ChallengeSeatSchema), required=True)
    rated = ma.fields.Boolean(required=True)
    turn_timeout_s = ma.fields.Integer(required=True)
    status = ma.fields.String(
        required=True,
        validate=validate.OneOf(CHALLENGE_STATUSES),
        metadata=documented_as(
            ref("ChallengeStatus"), "`started` once every invitee accepted: the match `match_id` exists."
        ),
    )
    match_id = ma.fields.String(
        allow_none=True, required=True, metadata=describe("The match (status `started`).")
    )
    created_at = ma.fields.String(
        required=True, metadata={"format": "date-time", "description": "ISO 8601, UTC."}
    )
    expires_at = ma.fields.String(
        required=True, metadata={"format": "date-time", "description": "ISO 8601, UTC."}
    )


class AiFillSchema(ma.Schema):
    level = _level(required=True)
    after_s = ma.fields.Integer(strict=True, required=True, validate=validate.Range(0, 3600))


class CreateSeekSchema(ma.Schema):
    pool = _pool(required=True)
    counts = ma.fields.List(
        ma.fields.Integer(strict=True, validate=validate.Range(MIN_SEATS, MAX_PLAYERS)),
        load_default=lambda: [2],
        validate=validate.Length(1, MAX_PLAYERS),
        metadata=describe("The player counts the seeker accepts (default `[2]`)."),
    )
    rated = StrictBoolean(load_default=True, metadata=describe("Rated (default) or casual."))
    rating_min = ma.fields.Float(
        allow_none=True,
        validate=validate.Range(-1000, 1000),
        metadata=describe("Opponents' lowest rating (mu)."),
    )
    rating_max = ma.fields.Float(
        allow_none=True,
        validate=validate.Range(-1000, 1000),
        metadata=describe("Opponents' highest rating (mu)."),
    )
    ai_fill = ma.fields.Nested(
        AiFillSchema,
        allow_none=True,
        metadata=describe("Unpaired after `after_s` seconds: play the smallest count with AI of `level`."),
    )


class SeekRatingSchema(ma.Schema):
    mu = ma.fields.Float(required=True)
    sigma = ma.fields.Float(required=True)


class SeekSchema(ma.Schema):
    id = ma.fields.String(required=True)
    pool = _pool(required=True)
    counts = ma.fields.List(ma.fields.Integer(), required=True)
    rated = ma.fields.Boolean(required=True)
    rating_min = ma.fields.Float(allow_none=True, required=True)
    rating_max = ma.fields.Float(allow_none=True, required=True)
    ai_fill = ma.fields.Nested(AiFillSchema, allow_none=True, required=True)
    rating = ma.fields.Nested(
        SeekRatingSchema, required=True, metadata=describe("The seeker's rating in the pool.")
    )
    status = ma.fields.String(
        required=True, validate=validate.OneOf(SEEK_STATUSES), metadata=documented_as(ref("SeekStatus"))
    )
    match_id = ma.fields.String(
        allow_none=True, required=True, metadata=describe("The match (status `matched`).")
    )
    seat = ma.fields.Integer(allow_none=True, required=True, metadata=describe("The account's seat in it."))
    created_at = ma.fields.String(
        required=True, metadata={"format": "date-time", "description": "ISO 8601, UTC."}
    )
