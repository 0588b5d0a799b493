"""The schemas of the challenge and seek routes: what they load and document.

Here rather than in service/spec: a seek names a rating pool, whose names
service/ratings/pools.py holds (a layer above spec)."""

from typing import Any

import marshmallow as ma
from marshmallow import validate

from engine.ai import LEVELS
from service.meet.rating import POOLS
from service.spec.components import documented_as, ref
from service.spec.schemas import (
    GAMES,
    MAX_SEATS,
    MAX_TURN_TIMEOUT_S,
    MIN_SEATS,
    MIN_TURN_TIMEOUT_S,
    describe,
)

CHALLENGE_SEAT_KINDS = ("account", "ai", "open")
CHALLENGE_STATUSES = ("pending", "started", "declined", "cancelled", "expired")
SEEK_STATUSES = ("waiting", "matched", "cancelled", "expired")
MAX_PLAYERS = max(game.max_players for game in GAMES)
MAX_CHALLENGE_TTL_S = 7 * 24 * 3600


def register_meet_components(spec: Any) -> None:
    """The enums of the challenge and seek schemas, as named components."""
    spec.components.schema(
        "ChallengeSeatKind", component={"type": "string", "enum": list(CHALLENGE_SEAT_KINDS)}
    )
    spec.components.schema("ChallengeStatus", component={"type": "string", "enum": list(CHALLENGE_STATUSES)})
    spec.components.schema("SeekStatus", component={"type": "string", "enum": list(SEEK_STATUSES)})


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


def _turn_timeout(value: int) -> None:
    if value != 0 and not MIN_TURN_TIMEOUT_S <= value <= MAX_TURN_TIMEOUT_S:
        raise ma.ValidationError(f"0 (no timer) or from {MIN_TURN_TIMEOUT_S} to {MAX_TURN_TIMEOUT_S} seconds")


class ChallengeSeatRequestSchema(ma.Schema):
    kind = _seat_kind("`account` (an invited account: `name`), `ai` (`level`) or `open`.", required=True)
    name = ma.fields.String(validate=validate.Length(1, 64), metadata=describe("The invited account's name."))
    level = _level("The AI's level (kind `ai`; default `medium`).")

    @ma.validates_schema
    def _by_kind(self, data: dict[str, Any], **kwargs: Any) -> None:
        if data["kind"] == "account" and not data.get("name"):
            raise ma.ValidationError({"name": ["required for an account's seat"]})
        if data["kind"] != "account" and "name" in data:
            raise ma.ValidationError({"name": ["only an account's seat has a name"]})
        if data["kind"] != "ai" and "level" in data:
            raise ma.ValidationError({"level": ["only an AI seat has a level"]})
        if data["kind"] == "ai":
            data.setdefault("level", "medium")


class CreateChallengeSchema(ma.Schema):
    game = ma.fields.String(required=True, metadata=describe("A game id of the catalogue (404 otherwise)."))
    options = ma.fields.Dict(
        keys=ma.fields.String(),
        load_default=dict,
        metadata=describe("Game options; missing ones take their default."),
    )
    seats = ma.fields.List(
        ma.fields.Nested(ChallengeSeatRequestSchema),
        required=True,
        validate=validate.Length(min=1, max=MAX_SEATS - 1),
        metadata=describe("The seats after the challenger's (seat 0), in seat order."),
    )
    rated = ma.fields.Boolean(load_default=False, metadata=describe("A rated match (no open seat then)."))
    turn_timeout_s = ma.fields.Integer(
        strict=True,
        load_default=300,
        validate=_turn_timeout,
        metadata=describe("The match's turn timer, as in CreateMatch; 0: none."),
    )
    expires_in_s = ma.fields.Integer(
        strict=True,
        validate=validate.Range(1, MAX_CHALLENGE_TTL_S),
        metadata=describe("Expire sooner than the server's `CHALLENGE_TTL_S` (never later)."),
    )


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
    created_at = ma.fields.String(required=True)
    expires_at = ma.fields.String(required=True)


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
    rated = ma.fields.Boolean(load_default=True, metadata=describe("Rated (default) or casual."))
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
    created_at = ma.fields.String(required=True)
