"""Request and response schemas: they validate and they generate openapi.yaml.

Per-game action schemas are built from the engine in ``action_schemas.py``;
here an action is a ``oneOf`` over every game's ``<Game>Action`` union.
"""

import marshmallow as ma
from marshmallow import validate

import engine
from engine.ai import LEVELS

from .action_schemas import component_name

MAX_SEED = (1 << 63) - 1
STATUS_VALUES = ("waiting", "active", "finished")


def _desc(text):
    return {"description": text}


def action_field(**kwargs):
    """An action object: documented as the union of every game's actions."""
    refs = [{"$ref": f"#/components/schemas/{component_name(g)}"} for g in engine.list_games()]
    return ma.fields.Dict(metadata={
        "description": "`{\"type\": <action type>, ...parameters}`; see the game's action union.",
        "oneOf": refs,
    }, **kwargs)


class ErrorSchema(ma.Schema):
    error = ma.fields.String(required=True, metadata=_desc(
        "Machine-readable code: bad_request, validation_error, unauthorized, forbidden, "
        "not_found, method_not_allowed, illegal_action, not_your_turn, game_over, "
        "version_conflict, seat_taken, precondition_failed, payload_too_large, "
        "rate_limited, unavailable, internal_error."))
    message = ma.fields.String(required=True, metadata=_desc("Human-readable reason."))
    details = ma.fields.Dict(required=True, metadata=_desc(
        "validation_error: `fields` (field -> messages); illegal_action: `reason`; "
        "version_conflict / precondition_failed: `current_version`; rate_limited: `retry_after_s`."))


# --- catalogue -----------------------------------------------------------

class GameOptionSchema(ma.Schema):
    type = ma.fields.String(required=True)
    default = ma.fields.Raw(allow_none=True)
    choices = ma.fields.List(ma.fields.Raw())
    min = ma.fields.Raw(metadata=_desc("Smallest value (numeric options)."))
    max = ma.fields.Raw(metadata=_desc("Largest value (numeric options)."))
    description = ma.fields.String()


class GameSchema(ma.Schema):
    id = ma.fields.String(required=True)
    title = ma.fields.String(required=True)
    min_players = ma.fields.Integer(required=True)
    max_players = ma.fields.Integer(required=True)
    version = ma.fields.Integer(metadata=_desc("Rules version of the engine."))
    options = ma.fields.Dict(keys=ma.fields.String(), values=ma.fields.Nested(GameOptionSchema),
                             required=True)
    ai_levels = ma.fields.List(ma.fields.String(), required=True,
                               metadata=_desc("Weakest first."))
    action_schema = ma.fields.String(metadata=_desc(
        "Name of this game's action union in `components.schemas`."))


# --- matches -------------------------------------------------------------

class SeatRequestSchema(ma.Schema):
    kind = ma.fields.String(required=True, validate=validate.OneOf(["human", "ai", "open"]))
    name = ma.fields.String(allow_none=True, validate=validate.Length(1, 64))
    level = ma.fields.String(validate=validate.OneOf(LEVELS), metadata=_desc(
        "AI level (kind `ai` only); default `medium`."))

    @ma.validates_schema
    def _level_only_for_ai(self, data, **kwargs):
        if "level" in data and data["kind"] != "ai":
            raise ma.ValidationError("only ai seats have a level", "level")


class CreateMatchSchema(ma.Schema):
    game = ma.fields.String(required=True, metadata=_desc("A game id of the catalogue (404 otherwise)."))
    options = ma.fields.Dict(keys=ma.fields.String(), load_default=dict, metadata=_desc(
        "Game options; missing ones take their default."))
    seats = ma.fields.List(ma.fields.Nested(SeatRequestSchema), required=True,
                           validate=validate.Length(min=1, max=16))
    seed = ma.fields.Integer(strict=True, validate=validate.Range(0, MAX_SEED), metadata=_desc(
        "Optional; the server draws one otherwise. Revealed by `replay` when the match ends."))
    turn_timeout_s = ma.fields.Integer(strict=True, load_default=300,
                                       validate=validate.Range(10, 7 * 24 * 3600))


class SeatSchema(ma.Schema):
    seat = ma.fields.Integer(required=True)
    kind = ma.fields.String(required=True, validate=validate.OneOf(["human", "ai", "open"]))
    name = ma.fields.String(allow_none=True, required=True)
    level = ma.fields.String(allow_none=True, required=True)
    resigned = ma.fields.Boolean(required=True, metadata=_desc(
        "The human resigned; an AI of level `medium` plays the seat, which counts as a loss."))


class ResultSchema(ma.Schema):
    winners = ma.fields.List(ma.fields.Integer(), required=True, metadata=_desc(
        "Winning seats; a resigned seat never wins."))
    reason = ma.fields.String(required=True)
    scores = ma.fields.Dict(keys=ma.fields.String(), values=ma.fields.Raw())
    resigned = ma.fields.List(ma.fields.Integer(), metadata=_desc("Seats that resigned (losses)."))
    engine_winners = ma.fields.List(ma.fields.Integer(), metadata=_desc(
        "Winners as the rules decided them, before resignations count as losses."))


class MatchSummarySchema(ma.Schema):
    id = ma.fields.String(required=True)
    game = ma.fields.String(required=True)
    options = ma.fields.Dict(required=True)
    status = ma.fields.String(required=True, validate=validate.OneOf(STATUS_VALUES))
    version = ma.fields.Integer(required=True, metadata=_desc(
        "Grows by one with every accepted action, and with every join and resignation."))
    seats = ma.fields.List(ma.fields.Nested(SeatSchema), required=True)
    to_act = ma.fields.List(ma.fields.Integer(), required=True)
    result = ma.fields.Nested(ResultSchema, allow_none=True, required=True)
    seed_commitment = ma.fields.String(required=True, metadata=_desc(
        "SHA-256 hex of the seed written as a decimal string."))
    turn_timeout_s = ma.fields.Integer(required=True)
    created_at = ma.fields.String(required=True, metadata=_desc("ISO 8601, UTC."))
    updated_at = ma.fields.String(required=True)


class MatchSchema(MatchSummarySchema):
    you = ma.fields.Integer(allow_none=True, required=True, metadata=_desc(
        "The bearer's seat, or null for a spectator."))
    view = ma.fields.Dict(required=True, metadata=_desc(
        "The game as this viewer may see it (the game's `view`); names filled in."))


class CreatedMatchSchema(ma.Schema):
    match = ma.fields.Nested(MatchSchema, required=True)
    tokens = ma.fields.Dict(keys=ma.fields.String(), values=ma.fields.String(), required=True,
                            metadata=_desc("Seat (as a string) -> bearer token, one per human seat."))


class JoinSchema(ma.Schema):
    name = ma.fields.String(allow_none=True, validate=validate.Length(1, 64))
    seat = ma.fields.Integer(strict=True, validate=validate.Range(0, 15), metadata=_desc(
        "Optional: the lowest open seat otherwise."))


class JoinedSchema(ma.Schema):
    seat = ma.fields.Integer(required=True)
    token = ma.fields.String(required=True)


class LobbyQuerySchema(ma.Schema):
    status = ma.fields.String(validate=validate.OneOf(STATUS_VALUES))
    game = ma.fields.String()


# --- playing -------------------------------------------------------------

class ActionListSchema(ma.Schema):
    version = ma.fields.Integer(required=True)
    seat = ma.fields.Integer(required=True)
    actions = ma.fields.List(action_field(), required=True)


class PostActionSchema(ma.Schema):
    action = action_field(required=True)
    version = ma.fields.Integer(strict=True, validate=validate.Range(0, MAX_SEED), metadata=_desc(
        "Optional: the version the action was chosen at; stale -> 409 version_conflict."))


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


class EventListSchema(ma.Schema):
    events = ma.fields.List(ma.fields.Nested(EventSchema), required=True)
    last_seq = ma.fields.Integer(required=True, metadata=_desc(
        "Seq of the last event returned (or `after` when none): pass it as `after` next."))
    more = ma.fields.Boolean(required=True, metadata=_desc("More events follow (`limit` cut the list)."))


class ReplayActionSchema(ma.Schema):
    seat = ma.fields.Integer(required=True)
    action = action_field(required=True)


class ReplaySchema(ma.Schema):
    seed = ma.fields.Integer(required=True)
    game = ma.fields.String(required=True)
    options = ma.fields.Dict(required=True)
    seats = ma.fields.List(ma.fields.Nested(SeatSchema), required=True)
    actions = ma.fields.List(ma.fields.Nested(ReplayActionSchema), required=True)
    result = ma.fields.Nested(ResultSchema, allow_none=True)


class HealthSchema(ma.Schema):
    status = ma.fields.String(required=True)
    checks = ma.fields.Dict()
