"""Request and response schemas of the catalogue and of matches: they validate
and they generate openapi.yaml.

The per-game ``CreateMatch`` components are in ``create_match.py``; playing,
events and streams in ``play_schemas.py``; what only documents (the ``Error``
and ``ActionList`` unions, examples) in ``components.py``.

The documented request bodies say exactly what the server accepts: a seat
request is one of three objects by ``kind`` (only an ``ai`` seat has a
``level``); ``CreateMatch`` is one schema per game (its options, its seat
counts, and what each seat count allows, found by asking the engine: see
``create_match_components``); integers are JSON integers (``10.0`` is
refused), with their real minima and maxima.
"""

from collections.abc import Mapping
from typing import Any

import marshmallow as ma
from marshmallow import validate

import engine
from engine.ai import LEVELS
from service.spec.actions import component_name
from service.spec.components import (
    documented_as,
    ref,
)

MAX_SEED = (1 << 63) - 1
GAMES = tuple(engine.get_game(g) for g in engine.list_games())
# The most seats any game takes: a seat number is below it.
MAX_SEATS = max(game.max_players for game in GAMES)
MIN_SEATS = min(game.min_players for game in GAMES)
SEAT_KINDS = ("human", "ai", "open")
STRICT_INTEGER = " A JSON integer (`3`, never `3.0`)."
MIN_TURN_TIMEOUT_S = 10
MAX_TURN_TIMEOUT_S = 7 * 24 * 3600


def _turn_timeout(value: int) -> None:
    if value != 0 and not MIN_TURN_TIMEOUT_S <= value <= MAX_TURN_TIMEOUT_S:
        raise ma.ValidationError(f"0 (no timer) or from {MIN_TURN_TIMEOUT_S} to {MAX_TURN_TIMEOUT_S} seconds")


def turn_timeout_field(description: str) -> ma.fields.Integer:
    """A match's turn timer in a request (CreateMatch, CreateChallenge): 0 or
    ``MIN_TURN_TIMEOUT_S``..``MAX_TURN_TIMEOUT_S``, default 300."""
    return ma.fields.Integer(
        strict=True,
        load_default=300,
        validate=_turn_timeout,
        metadata={
            "description": description + STRICT_INTEGER,
            **{"minimum": 0, "maximum": MAX_TURN_TIMEOUT_S},  # the union's bounds, for the OWASP ruleset
            "anyOf": [
                {"type": "integer", "minimum": 0, "maximum": 0},
                {"type": "integer", "minimum": MIN_TURN_TIMEOUT_S, "maximum": MAX_TURN_TIMEOUT_S},
            ],
        },
    )


STATUS_VALUES = ("waiting", "active", "finished")
DICE_MODES = ("fair", "reproducible")


def describe(text: str) -> dict[str, str]:
    return {"description": text}


def action_field(game_id: str | None = None, **kwargs: Any) -> ma.fields.Dict:
    """An action object: documented as ``game_id``'s action union, or, without
    it, as one of every game's (their actions never overlap: `discard` of one
    game has other parameters than the other's, and extra keys are refused)."""
    games = [game_id] if game_id else engine.list_games()
    unions = [ref(component_name(g)) for g in games]
    schema = unions[0] if len(unions) == 1 else {"oneOf": unions}
    return ma.fields.Dict(
        metadata=documented_as(
            schema, '`{"type": <action type>, ...parameters}`; see the game\'s action union.'
        ),
        **kwargs,
    )


class ErrorSchema(ma.Schema):
    """Documented as ``Error``, one schema per code (spec_components.error_components)."""

    error = ma.fields.String(
        required=True,
        metadata=describe(
            "Machine-readable code: bad_request, validation_error, unauthorized, forbidden, "
            "not_found, method_not_allowed, illegal_action, not_your_turn, game_over, "
            "version_conflict, seat_taken, already_seated, name_taken, precondition_failed, payload_too_large, "
            "rate_limited, unavailable, internal_error; from the server before the app: "
            "uri_too_long (414), headers_too_large (431), not_implemented (501)."
        ),
    )
    message = ma.fields.String(required=True, metadata=describe("Human-readable reason."))
    details = ma.fields.Dict(
        required=True,
        metadata=describe(
            "validation_error: `fields` (field -> messages); illegal_action: `reason`; "
            "version_conflict / precondition_failed: `current_version`; rate_limited: `retry_after_s`."
        ),
    )


# --- catalogue -----------------------------------------------------------


class GameOptionSchema(ma.Schema):
    type = ma.fields.String(required=True)
    default = ma.fields.Raw(allow_none=True)
    choices = ma.fields.List(ma.fields.Raw())
    min = ma.fields.Raw(metadata=describe("Smallest value (numeric options)."))
    max = ma.fields.Raw(metadata=describe("Largest value (numeric options)."))
    description = ma.fields.String()


class GameSchema(ma.Schema):
    id = ma.fields.String(required=True)
    title = ma.fields.String(required=True)
    min_players = ma.fields.Integer(required=True)
    max_players = ma.fields.Integer(required=True)
    version = ma.fields.Integer(metadata=describe("Rules version of the engine."))
    options = ma.fields.Dict(
        keys=ma.fields.String(), values=ma.fields.Nested(GameOptionSchema), required=True
    )
    ai_levels = ma.fields.List(ma.fields.String(), required=True, metadata=describe("Weakest first."))
    action_schema = ma.fields.String(
        metadata=describe("Name of this game's action union in `components.schemas`.")
    )


# --- matches -------------------------------------------------------------


class _SeatRequest(ma.Schema):
    name = ma.fields.String(
        allow_none=True,
        validate=validate.Length(1, 64),
        metadata=describe("Optional display name (1 to 64 characters)."),
    )


class HumanSeatRequestSchema(_SeatRequest):
    """A seat for a person: the response's `tokens` holds its bearer token."""

    kind = ma.fields.String(
        required=True,
        validate=validate.OneOf(["human"]),
        metadata=documented_as({"type": "string", "const": "human"}),
    )


class AiSeatRequestSchema(_SeatRequest):
    """A seat played by the server's AI (background workers)."""

    kind = ma.fields.String(
        required=True,
        validate=validate.OneOf(["ai"]),
        metadata=documented_as({"type": "string", "const": "ai"}),
    )
    level = ma.fields.String(
        validate=validate.OneOf(LEVELS),
        metadata=documented_as(
            ref("AiLevel"), "AI level, weakest first in the catalogue's `ai_levels`; default `medium`."
        ),
    )


class OpenSeatRequestSchema(_SeatRequest):
    """A seat left open: `POST /v1/matches/{id}/join` fills it (no `level`)."""

    kind = ma.fields.String(
        required=True,
        validate=validate.OneOf(["open"]),
        metadata=documented_as({"type": "string", "const": "open"}),
    )


SEAT_REQUEST_SCHEMAS = {
    "human": HumanSeatRequestSchema,
    "ai": AiSeatRequestSchema,
    "open": OpenSeatRequestSchema,
}


class SeatRequestField(ma.fields.Field):
    """One seat request, loaded by the schema of its ``kind`` (documented as
    their ``oneOf``, discriminated by ``kind``). ``schemas``: each kind's
    schema, its component named ``<Kind><suffix>`` (default: CreateMatch's)."""

    def __init__(
        self,
        schemas: Mapping[str, type[ma.Schema]] = SEAT_REQUEST_SCHEMAS,
        suffix: str = "SeatRequest",
        **kwargs: Any,
    ) -> None:
        self._loaders = {kind: cls() for kind, cls in schemas.items()}
        refs = {kind: f"#/components/schemas/{kind.capitalize()}{suffix}" for kind in schemas}
        super().__init__(
            metadata={
                "type": "object",
                "oneOf": [{"$ref": target} for target in refs.values()],
                "discriminator": {"propertyName": "kind", "mapping": refs},
            },
            **kwargs,
        )

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if not isinstance(value, dict):
            raise ma.ValidationError("Invalid input type.")
        kind = value.get("kind")
        loader = self._loaders.get(kind) if isinstance(kind, str) else None
        if loader is None:
            raise ma.ValidationError({"kind": [f"Must be one of: {', '.join(self._loaders)}."]})
        return loader.load(value)


class StrictBoolean(ma.fields.Boolean):
    """JSON ``true`` or ``false`` only (marshmallow's Boolean also takes 0, 1, "yes"...)."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> bool:
        if not isinstance(value, bool):
            raise self.make_error("invalid")
        return value


class CreateMatchSchema(ma.Schema):
    game = ma.fields.String(required=True, metadata=describe("A game id of the catalogue (404 otherwise)."))
    options = ma.fields.Dict(
        keys=ma.fields.String(),
        load_default=dict,
        metadata=describe("Game options; missing ones take their default."),
    )
    seats = ma.fields.List(
        SeatRequestField(),
        required=True,
        validate=validate.Length(min=1, max=MAX_SEATS),
        metadata=describe("One per player, in seat order; the game's `min_players` to `max_players`."),
    )
    seed = ma.fields.Integer(
        strict=True,
        validate=validate.Range(0, MAX_SEED),
        metadata=describe(
            "Optional. With `dice: fair` it is mixed into the server's secret (it alone does not "
            "fix the dice); with `dice: reproducible` it is the engine's seed itself (required)."
            + STRICT_INTEGER
        ),
    )
    dice = ma.fields.String(
        load_default="fair",
        validate=validate.OneOf(DICE_MODES),
        metadata=documented_as(
            {**ref("DiceMode"), "default": "fair"},
            "`fair` (default): the dice come from a secret the server commits to before the first "
            "action and reveals in the replay, mixed with `seed` if given; nobody, the creator "
            "included, can know them in advance. `reproducible`: `seed` (required) alone fixes "
            "every die and deck order, so the creator knows them; every viewer sees `dice` in the "
            "Match. For tests, bots and research.",
        ),
    )
    rated = StrictBoolean(
        load_default=False,
        metadata=describe(
            "Rate the match in its pool (docs/ratings.md): `fair` dice and at most one `human` seat, "
            "the others `ai` or `open` (the schema's rule; 422 otherwise). A human seat needs an "
            "account token, whose account takes it: 401 without a token, 403 "
            "`account_token_required` with a seat token. An open seat of a rated match is joined "
            "with an account token only."
        ),
    )
    turn_timeout_s = turn_timeout_field(
        "Seconds a human seat may take for one decision before the `medium` AI decides for it; 0: no timer."
    )

    @ma.validates_schema
    def _rated(self, data: dict[str, Any], **kwargs: Any) -> None:
        """What create_match.RATED_RULE documents: a rated match's dice and human seats."""
        humans = sum(seat["kind"] == "human" for seat in data["seats"])
        if data["rated"] and (data["dice"] != "fair" or humans > 1):
            raise ma.ValidationError({"rated": ["a rated match has fair dice and at most one human seat"]})


class SeatAccountSchema(ma.Schema):
    name = ma.fields.String(required=True, metadata=describe("The account's name."))
    kind = ma.fields.String(required=True, validate=validate.OneOf(["human", "bot"]))


class SeatSchema(ma.Schema):
    account = ma.fields.Nested(
        SeatAccountSchema,
        allow_none=True,
        metadata=describe(
            "The account holding the seat (its name and kind when it was seated), "
            "or null for an anonymous seat (its seat token only)."
        ),
    )
    seat = ma.fields.Integer(required=True)
    kind = ma.fields.String(required=True, validate=validate.OneOf(["human", "ai", "open"]))
    name = ma.fields.String(allow_none=True, required=True)
    level = ma.fields.String(
        allow_none=True,
        required=True,
        metadata=documented_as(
            {"anyOf": [ref("AiLevel"), {"type": "null"}]}, "The AI level of an `ai` seat, else null."
        ),
    )
    resigned = ma.fields.Boolean(
        required=True,
        metadata=describe(
            "The human resigned; an AI of level `medium` plays the seat, which counts as a loss."
        ),
    )


class ResultSchema(ma.Schema):
    winners = ma.fields.List(
        ma.fields.Integer(), required=True, metadata=describe("Winning seats; a resigned seat never wins.")
    )
    reason = ma.fields.String(required=True)
    scores = ma.fields.Dict(keys=ma.fields.String(), values=ma.fields.Raw())
    resigned = ma.fields.List(ma.fields.Integer(), metadata=describe("Seats that resigned (losses)."))
    engine_winners = ma.fields.List(
        ma.fields.Integer(),
        metadata=describe("Winners as the rules decided them, before resignations count as losses."),
    )


class MatchSummarySchema(ma.Schema):
    id = ma.fields.String(required=True)
    game = ma.fields.String(required=True)
    options = ma.fields.Dict(required=True)
    status = ma.fields.String(
        required=True, validate=validate.OneOf(STATUS_VALUES), metadata=documented_as(ref("MatchStatus"))
    )
    version = ma.fields.Integer(
        required=True,
        metadata=describe("Grows by one with every accepted action, and with every join and resignation."),
    )
    seats = ma.fields.List(ma.fields.Nested(SeatSchema), required=True)
    to_act = ma.fields.List(ma.fields.Integer(), required=True)
    result = ma.fields.Nested(ResultSchema, allow_none=True, required=True)
    seed_commitment = ma.fields.String(
        required=True,
        metadata=describe(
            "`fair` dice: SHA-256 hex of the server's secret (64 hex digits, revealed by `replay`); "
            "`reproducible` dice: SHA-256 hex of the seed written as a decimal string."
        ),
    )
    dice = ma.fields.String(
        required=True,
        validate=validate.OneOf(DICE_MODES),
        metadata=documented_as(
            ref("DiceMode"),
            "`fair`: no one could know the dice in advance; `reproducible`: the creator chose the "
            "seed, so the creator knows every die and deck order.",
        ),
    )
    rated = ma.fields.Boolean(required=True, metadata=describe("The match changes its seats' ratings."))
    pool = ma.fields.String(
        allow_none=True,
        required=True,
        metadata=documented_as(
            {"anyOf": [ref("RatingPool"), {"type": "null"}]},
            "The rating pool of the game and options (null: a match stored before pools existed).",
        ),
    )
    turn_timeout_s = ma.fields.Integer(required=True, metadata=describe("0: no turn timer."))
    deadlines = ma.fields.Dict(
        keys=ma.fields.String(),
        values=ma.fields.String(metadata={"format": "date-time"}),
        required=True,
        metadata=describe(
            "With a turn timer: each pending human seat (as a string) -> when its decision times "
            "out (ISO 8601, UTC); then the `medium` AI decides for it (event `turn_timed_out`), "
            "and after `TURN_TIMEOUTS_TO_AI` time-outs in a row the AI keeps the seat."
        ),
    )
    rematch = ma.fields.String(
        allow_none=True,
        required=True,
        metadata=describe("The id of the rematch, once a seat asked for one (`POST .../rematch`)."),
    )
    created_at = ma.fields.String(
        required=True, metadata={"description": "ISO 8601, UTC.", "format": "date-time"}
    )
    updated_at = ma.fields.String(
        required=True, metadata={"description": "ISO 8601, UTC.", "format": "date-time"}
    )


class MatchSchema(MatchSummarySchema):
    you = ma.fields.Integer(
        allow_none=True, required=True, metadata=describe("The bearer's seat, or null for a spectator.")
    )
    view = ma.fields.Dict(
        required=True,
        metadata=describe("The game as this viewer may see it (the game's `view`); names filled in."),
    )


class CreatedMatchSchema(ma.Schema):
    match = ma.fields.Nested(MatchSchema, required=True)
    tokens = ma.fields.Dict(
        keys=ma.fields.String(),
        values=ma.fields.String(),
        required=True,
        metadata=describe("Seat (as a string) -> bearer token, one per human seat."),
    )


class LobbyQuerySchema(ma.Schema):
    status = ma.fields.String(
        validate=validate.OneOf(STATUS_VALUES), metadata=documented_as(ref("MatchStatus"))
    )
    game = ma.fields.String(validate=validate.Length(max=32), metadata=describe("A catalogue's game id."))
