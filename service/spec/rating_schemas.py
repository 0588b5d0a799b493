"""Schemas of the ratings (docs/ratings.md): a rating, the leaderboard's
entries and query, and an account's rating history."""

import marshmallow as ma
from marshmallow import validate

from service.model.accounts import ACCOUNT_KINDS
from service.spec.components import documented_as, ref
from service.spec.schemas import describe

PROVISIONAL_CHOICES = ("include", "exclude")
MAX_HISTORY = 1000


class RatingSchema(ma.Schema):
    mu = ma.fields.Float(required=True, metadata=describe("The skill estimate (starts at 25)."))
    sigma = ma.fields.Float(required=True, metadata=describe("Its uncertainty (starts at 25/3)."))
    rating = ma.fields.Float(
        required=True, metadata=describe("The conservative rating `mu - 3 sigma` the boards order by.")
    )
    matches = ma.fields.Integer(required=True, metadata=describe("Rated matches played in the pool."))
    provisional = ma.fields.Boolean(
        required=True,
        metadata=describe("Fewer than 10 rated matches in the pool, or `sigma` above 7.5."),
    )


class LeaderboardEntrySchema(RatingSchema):
    rank = ma.fields.Integer(required=True, metadata=describe("1 for the first of this listing."))
    name = ma.fields.String(required=True)
    kind = ma.fields.String(
        required=True, validate=validate.OneOf(ACCOUNT_KINDS), metadata=documented_as(ref("AccountKind"))
    )
    ai = ma.fields.Boolean(required=True, metadata=describe("A built-in AI level's account (`ai-<level>`)."))


class LeaderboardQuerySchema(ma.Schema):
    kind = ma.fields.String(
        validate=validate.OneOf(ACCOUNT_KINDS),
        metadata=documented_as(
            ref("AccountKind"), "Only `human` or only `bot` accounts (the built-in AIs are bots)."
        ),
    )
    provisional = ma.fields.String(
        load_default="include",
        validate=validate.OneOf(PROVISIONAL_CHOICES),
        metadata=describe("`include` (default; marked `provisional`) or `exclude` provisional accounts."),
    )


class RatingChangeSchema(ma.Schema):
    match_id = ma.fields.String(required=True)
    at = ma.fields.String(required=True, metadata={"format": "date-time", "description": "ISO 8601, UTC."})
    mu = ma.fields.Float(required=True)
    sigma = ma.fields.Float(required=True)
    rating = ma.fields.Float(required=True, metadata=describe("`mu - 3 sigma` after the match."))
    delta = ma.fields.Float(required=True, metadata=describe("The change of `rating` by this match."))
    place = ma.fields.Integer(required=True, metadata=describe("The account's place, 1 = first."))
    players = ma.fields.Integer(required=True)


class RatingHistoryQuerySchema(ma.Schema):
    limit = ma.fields.Integer(
        load_default=200,
        validate=validate.Range(1, MAX_HISTORY),
        metadata=describe(f"How many of the last changes (1 to {MAX_HISTORY}; default 200)."),
    )


class RatingHistorySchema(ma.Schema):
    name = ma.fields.String(required=True)
    kind = ma.fields.String(
        required=True, validate=validate.OneOf(ACCOUNT_KINDS), metadata=documented_as(ref("AccountKind"))
    )
    pool = ma.fields.String(required=True, metadata=documented_as(ref("RatingPool")))
    rating = ma.fields.Nested(
        RatingSchema, required=True, metadata=describe("Now (the initial rating when never rated).")
    )
    total = ma.fields.Integer(required=True, metadata=describe("Every change the account has in the pool."))
    history = ma.fields.List(
        ma.fields.Nested(RatingChangeSchema),
        required=True,
        metadata=describe("The last `limit` changes, oldest first."),
    )
