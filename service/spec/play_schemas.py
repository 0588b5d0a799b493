"""Schemas of playing and reading a match: the action list, a posted action
and its result, events, the replay, and the live streams' arguments.

A posted action is documented as one of every game's ``<Game>Action``
unions (``actions.py`` describes each game's actions once).
"""

from typing import Any

import marshmallow as ma
from marshmallow import validate

from service.spec.components import (
    documented_as,
    ref,
)
from service.spec.schemas import (
    DICE_MODES,
    MAX_SEATS,
    MAX_SEED,
    STRICT_INTEGER,
    MatchSchema,
    MatchSummarySchema,
    ResultSchema,
    SeatSchema,
    action_field,
    describe,
)

# --- playing -------------------------------------------------------------


class ActionListSchema(ma.Schema):
    """Documented as ``ActionList``: one schema per game (``action_list_components``)."""

    game = ma.fields.String(required=True)
    status = ma.fields.String(required=True)
    version = ma.fields.Integer(required=True)
    seat = ma.fields.Integer(required=True)
    actions = ma.fields.List(action_field(), required=True)


class PostActionSchema(ma.Schema):
    action = action_field(required=True)
    version = ma.fields.Integer(
        strict=True,
        validate=validate.Range(0, MAX_SEED),
        metadata=describe(
            "Optional: the version the action was chosen at; stale -> 409 version_conflict." + STRICT_INTEGER
        ),
    )


def position_field(description: str, **kwargs: Any) -> ma.fields.Integer:
    """An optional position in a match's log (a ``seq`` or a step): 0 or more."""
    return ma.fields.Integer(validate=validate.Range(0, MAX_SEED), metadata=describe(description), **kwargs)


def idempotency_key_field(description: str) -> ma.fields.String:
    """The ``Idempotency-Key`` header of a move or a resign."""
    return ma.fields.String(
        data_key="Idempotency-Key", validate=ma.validate.Length(1, 255), metadata={"description": description}
    )


class ActionHeadersSchema(ma.Schema):
    if_match = ma.fields.String(
        data_key="If-Match",
        metadata={"description": '`"<version>"`: refused with 412 unless the match is at that version.'},
    )
    idempotency_key = idempotency_key_field(
        "Same key and body within 24 h: the first response again, nothing applied twice; other body: 422."
    )


class ResignHeadersSchema(ma.Schema):
    idempotency_key = idempotency_key_field(
        "Same key and token within 24 h: the first response again "
        "(though the first resign revoked the token), nothing applied twice."
    )


class EventSchema(ma.Schema):
    """One logged event, redacted for the viewer.

    Types are the game's (see its rules document), plus two from the service:
    `player_joined` {name} and `player_resigned` {level}.
    """

    seq = ma.fields.Integer(required=True)
    version = ma.fields.Integer(required=True)
    type = ma.fields.String(required=True)
    seat = ma.fields.Integer(allow_none=True, required=True)
    data = ma.fields.Dict(required=True)


class ActionResultSchema(ma.Schema):
    version = ma.fields.Integer(required=True)
    events = ma.fields.List(ma.fields.Nested(EventSchema), required=True)
    match = ma.fields.Nested(MatchSchema, required=True)


# --- events --------------------------------------------------------------


class EventsQuerySchema(ma.Schema):
    after = ma.fields.Integer(load_default=0, validate=validate.Range(0, MAX_SEED))
    limit = ma.fields.Integer(load_default=500, validate=validate.Range(1, 1000))


class BoardQuerySchema(ma.Schema):
    step = position_field(
        "Finished matches only: the board after the first `step` actions of the replay "
        "(0: as set up), for stepping through a match. Default: the board now."
    )


class BoardHeadersSchema(ma.Schema):
    if_none_match = ma.fields.String(
        data_key="If-None-Match",
        metadata=describe(
            'An `ETag` of this picture (`"<version>"`, or `"<version>.<step>"` with `step`): '
            "304 when it is still current."
        ),
    )


class EventListSchema(ma.Schema):
    events = ma.fields.List(ma.fields.Nested(EventSchema), required=True)
    last_seq = ma.fields.Integer(
        required=True,
        metadata=describe("Seq of the last event returned (or `after` when none): pass it as `after` next."),
    )
    more = ma.fields.Boolean(required=True, metadata=describe("More events follow (`limit` cut the list)."))


class ReplayActionSchema(ma.Schema):
    seat = ma.fields.Integer(required=True)
    action = action_field(required=True)


class DiceProofSchema(ma.Schema):
    """What a fair match reveals at its end, to check its dice (see the README)."""

    server_secret = ma.fields.String(
        required=True, metadata=describe("The secret committed to by `seed_commitment` (64 hex digits).")
    )
    client_seed = ma.fields.Integer(
        required=True, allow_none=True, metadata=describe("The `seed` the creator sent, or null.")
    )


class ReplaySchema(ma.Schema):
    seed = ma.fields.Integer(
        required=True,
        metadata=describe(
            "The engine's seed: `engine.runner.replay` with it and `actions` reaches `result`."
        ),
    )
    dice = ma.fields.String(
        required=True, validate=validate.OneOf(DICE_MODES), metadata=documented_as(ref("DiceMode"))
    )
    seed_commitment = ma.fields.String(required=True)
    proof = ma.fields.Nested(
        DiceProofSchema,
        allow_none=True,
        required=True,
        metadata=describe(
            "`fair` dice: the secret and client seed the engine seed was derived from; "
            "null for `reproducible` dice (the seed itself was committed to)."
        ),
    )
    game = ma.fields.String(required=True)
    options = ma.fields.Dict(required=True)
    seats = ma.fields.List(ma.fields.Nested(SeatSchema), required=True)
    actions = ma.fields.List(ma.fields.Nested(ReplayActionSchema), required=True)
    result = ma.fields.Nested(ResultSchema, allow_none=True)


class HistoryLineSchema(MatchSummarySchema):
    """One line of an account's history as NDJSON: the finished match, and its record."""

    replay = ma.fields.Nested(
        ReplaySchema,
        required=True,
        metadata=describe(
            "The match's archive record in its public form, as `GET /v1/matches/{id}/replay` "
            "answers it: seed, dice proof, options, seats, every action and the result (enough "
            "to re-run the match with the engine and check its dice)."
        ),
    )


# --- live event streams (service/live/hub.py, service/http/routes/streams.py) ---------


def ticket_query(description: str) -> ma.fields.String:
    """The ``?ticket=`` of a stream opened without headers (a match's or an account's)."""
    return ma.fields.String(validate=validate.Length(1, 200), metadata=describe(description))


class StreamQuerySchema(ma.Schema):
    after = position_field(
        "Send the events with `seq` > `after` first (default: only events after the "
        "first `Match`). `Last-Event-ID` wins when both are given."
    )
    ticket = ticket_query(
        "A stream ticket from `POST .../stream-ticket` (single use, short-lived), for "
        "clients that cannot set `Authorization` (browsers' EventSource). Never the "
        "bearer token itself."
    )


class StreamHeadersSchema(ma.Schema):
    last_event_id = position_field(
        "The last `seq` seen (EventSource sends it when it reconnects): resume right after it.",
        data_key="Last-Event-ID",
    )


class StreamTicketSchema(ma.Schema):
    ticket = ma.fields.String(
        required=True,
        metadata=describe("Pass as `?ticket=` to `GET .../stream`; valid once, until `expires_at`."),
    )
    expires_at = ma.fields.String(
        required=True, metadata={"description": "ISO 8601, UTC.", "format": "date-time"}
    )


class JoinSchema(ma.Schema):
    name = ma.fields.String(
        allow_none=True,
        validate=validate.Length(1, 64),
        metadata=describe("Optional display name (1 to 64 characters)."),
    )
    seat = ma.fields.Integer(
        strict=True,
        validate=validate.Range(0, MAX_SEATS - 1),
        metadata=describe(
            "Optional: the lowest open seat otherwise. A seat the match does not have (at or "
            "above its number of seats) is 422 `validation_error`." + STRICT_INTEGER
        ),
    )


class RematchSchema(ma.Schema):
    match = ma.fields.Nested(
        MatchSchema, required=True, metadata=describe("The new match, as the caller's seat sees it.")
    )
    seat = ma.fields.Integer(required=True, metadata=describe("The caller's seat (the same as before)."))
    token = ma.fields.String(
        required=True,
        metadata=describe("A bearer token for that seat in the new match (each call issues a new one)."),
    )


class JoinedSchema(ma.Schema):
    seat = ma.fields.Integer(required=True)
    token = ma.fields.String(required=True)
