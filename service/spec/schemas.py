"""Request and response schemas: they validate and they generate openapi.yaml.

Per-game action schemas are built from the engine in ``action_schemas.py``;
here a posted action is documented as one of every game's ``<Game>Action``
unions (closed schemas: no action fits two games), and what only documents
(the ``Error`` and ``ActionList`` unions, examples) is in ``spec_components.py``.

The documented request bodies say exactly what the server accepts: a seat
request is one of three objects by ``kind`` (only an ``ai`` seat has a
``level``); ``CreateMatch`` is one schema per game (its options, its seat
counts, and what each seat count allows, found by asking the engine: see
``create_match_components``); integers are JSON integers (``10.0`` is
refused), with their real minima and maxima.
"""

import copy
import itertools
from functools import cache
from typing import ClassVar

import marshmallow as ma
from marshmallow import validate

import engine
from engine.ai import LEVELS
from service.spec.actions import component_name
from service.spec.components import (
    action_list_components,
    document_schema_as,
    documented_as,
    error_components,
    exact_json_schema,
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


def _turn_timeout(value):
    if value != 0 and not MIN_TURN_TIMEOUT_S <= value <= MAX_TURN_TIMEOUT_S:
        raise ma.ValidationError(f"0 (no timer) or from {MIN_TURN_TIMEOUT_S} to {MAX_TURN_TIMEOUT_S} seconds")


STATUS_VALUES = ("waiting", "active", "finished")
DICE_MODES = ("fair", "reproducible")


def _desc(text):
    return {"description": text}


def action_field(game_id=None, **kwargs):
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
        metadata=_desc(
            "Machine-readable code: bad_request, validation_error, unauthorized, forbidden, "
            "not_found, method_not_allowed, illegal_action, not_your_turn, game_over, "
            "version_conflict, seat_taken, precondition_failed, payload_too_large, "
            "rate_limited, unavailable, internal_error; from the server before the app: "
            "uri_too_long (414), headers_too_large (431), not_implemented (501)."
        ),
    )
    message = ma.fields.String(required=True, metadata=_desc("Human-readable reason."))
    details = ma.fields.Dict(
        required=True,
        metadata=_desc(
            "validation_error: `fields` (field -> messages); illegal_action: `reason`; "
            "version_conflict / precondition_failed: `current_version`; rate_limited: `retry_after_s`."
        ),
    )


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
    options = ma.fields.Dict(
        keys=ma.fields.String(), values=ma.fields.Nested(GameOptionSchema), required=True
    )
    ai_levels = ma.fields.List(ma.fields.String(), required=True, metadata=_desc("Weakest first."))
    action_schema = ma.fields.String(
        metadata=_desc("Name of this game's action union in `components.schemas`.")
    )


# --- matches -------------------------------------------------------------


class _SeatRequest(ma.Schema):
    name = ma.fields.String(
        allow_none=True,
        validate=validate.Length(1, 64),
        metadata=_desc("Optional display name (1 to 64 characters)."),
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


def _seat_request_ref(kind):
    return f"#/components/schemas/{kind.capitalize()}SeatRequest"


class SeatRequestField(ma.fields.Field):
    """One seat request, loaded by the schema of its ``kind`` (documented as
    their ``oneOf``, discriminated by ``kind``)."""

    _loaders: ClassVar[dict[str, ma.Schema]] = {kind: cls() for kind, cls in SEAT_REQUEST_SCHEMAS.items()}

    def __init__(self, **kwargs):
        super().__init__(
            metadata={
                "type": "object",
                "oneOf": [{"$ref": _seat_request_ref(kind)} for kind in SEAT_KINDS],
                "discriminator": {
                    "propertyName": "kind",
                    "mapping": {kind: _seat_request_ref(kind) for kind in SEAT_KINDS},
                },
            },
            **kwargs,
        )

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, dict):
            raise ma.ValidationError("Invalid input type.")
        kind = value.get("kind")
        loader = self._loaders.get(kind) if isinstance(kind, str) else None
        if loader is None:
            raise ma.ValidationError({"kind": [f"Must be one of: {', '.join(SEAT_KINDS)}."]})
        return loader.load(value)


class CreateMatchSchema(ma.Schema):
    game = ma.fields.String(required=True, metadata=_desc("A game id of the catalogue (404 otherwise)."))
    options = ma.fields.Dict(
        keys=ma.fields.String(),
        load_default=dict,
        metadata=_desc("Game options; missing ones take their default."),
    )
    seats = ma.fields.List(
        SeatRequestField(),
        required=True,
        validate=validate.Length(min=1, max=MAX_SEATS),
        metadata=_desc("One per player, in seat order; the game's `min_players` to `max_players`."),
    )
    seed = ma.fields.Integer(
        strict=True,
        validate=validate.Range(0, MAX_SEED),
        metadata=_desc(
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
    turn_timeout_s = ma.fields.Integer(
        strict=True,
        load_default=300,
        validate=_turn_timeout,
        metadata={
            "description": (
                "Seconds a human seat may take for one decision "
                "before the `medium` AI decides for it; 0: no timer." + STRICT_INTEGER
            ),
            "anyOf": [
                {"type": "integer", "const": 0},
                {"type": "integer", "minimum": MIN_TURN_TIMEOUT_S, "maximum": MAX_TURN_TIMEOUT_S},
            ],
        },
    )


class SeatSchema(ma.Schema):
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
        metadata=_desc("The human resigned; an AI of level `medium` plays the seat, which counts as a loss."),
    )


class ResultSchema(ma.Schema):
    winners = ma.fields.List(
        ma.fields.Integer(), required=True, metadata=_desc("Winning seats; a resigned seat never wins.")
    )
    reason = ma.fields.String(required=True)
    scores = ma.fields.Dict(keys=ma.fields.String(), values=ma.fields.Raw())
    resigned = ma.fields.List(ma.fields.Integer(), metadata=_desc("Seats that resigned (losses)."))
    engine_winners = ma.fields.List(
        ma.fields.Integer(),
        metadata=_desc("Winners as the rules decided them, before resignations count as losses."),
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
        metadata=_desc("Grows by one with every accepted action, and with every join and resignation."),
    )
    seats = ma.fields.List(ma.fields.Nested(SeatSchema), required=True)
    to_act = ma.fields.List(ma.fields.Integer(), required=True)
    result = ma.fields.Nested(ResultSchema, allow_none=True, required=True)
    seed_commitment = ma.fields.String(
        required=True,
        metadata=_desc(
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
    turn_timeout_s = ma.fields.Integer(required=True, metadata=_desc("0: no turn timer."))
    deadlines = ma.fields.Dict(
        keys=ma.fields.String(),
        values=ma.fields.String(metadata={"format": "date-time"}),
        required=True,
        metadata=_desc(
            "With a turn timer: each pending human seat (as a string) -> when its decision times "
            "out (ISO 8601, UTC); then the `medium` AI decides for it (event `turn_timed_out`), "
            "and after `TURN_TIMEOUTS_TO_AI` time-outs in a row the AI keeps the seat."
        ),
    )
    rematch = ma.fields.String(
        allow_none=True,
        required=True,
        metadata=_desc("The id of the rematch, once a seat asked for one (`POST .../rematch`)."),
    )
    created_at = ma.fields.String(
        required=True, metadata={"description": "ISO 8601, UTC.", "format": "date-time"}
    )
    updated_at = ma.fields.String(
        required=True, metadata={"description": "ISO 8601, UTC.", "format": "date-time"}
    )


class MatchSchema(MatchSummarySchema):
    you = ma.fields.Integer(
        allow_none=True, required=True, metadata=_desc("The bearer's seat, or null for a spectator.")
    )
    view = ma.fields.Dict(
        required=True,
        metadata=_desc("The game as this viewer may see it (the game's `view`); names filled in."),
    )


class CreatedMatchSchema(ma.Schema):
    match = ma.fields.Nested(MatchSchema, required=True)
    tokens = ma.fields.Dict(
        keys=ma.fields.String(),
        values=ma.fields.String(),
        required=True,
        metadata=_desc("Seat (as a string) -> bearer token, one per human seat."),
    )


class JoinSchema(ma.Schema):
    name = ma.fields.String(
        allow_none=True,
        validate=validate.Length(1, 64),
        metadata=_desc("Optional display name (1 to 64 characters)."),
    )
    seat = ma.fields.Integer(
        strict=True,
        validate=validate.Range(0, MAX_SEATS - 1),
        metadata=_desc(
            "Optional: the lowest open seat otherwise. A seat the match does not have (at or "
            "above its number of seats) is 422 `validation_error`." + STRICT_INTEGER
        ),
    )


class RematchSchema(ma.Schema):
    match = ma.fields.Nested(
        MatchSchema, required=True, metadata=_desc("The new match, as the caller's seat sees it.")
    )
    seat = ma.fields.Integer(required=True, metadata=_desc("The caller's seat (the same as before)."))
    token = ma.fields.String(
        required=True,
        metadata=_desc("A bearer token for that seat in the new match (each call issues a new one)."),
    )


class JoinedSchema(ma.Schema):
    seat = ma.fields.Integer(required=True)
    token = ma.fields.String(required=True)


# --- the documented CreateMatch: one schema per game ----------------------


def option_defaults(game):
    """``{option: default}``: what a match gets for an option it leaves out."""
    return {
        name: spec["default"]
        for name, spec in game.options.items()
        if isinstance(spec, dict) and "default" in spec
    }


def _sets_up(game, seats, options):
    try:
        game.setup(seats, options, 0)
    except engine.EngineError:
        return False
    return True


# Above this many combinations of choices, seat_count_rules tries each
# option's choices alone (the others at their defaults).
MAX_PROBED_COMBINATIONS = 4096


def _option_choices(game):
    return {
        name: list(spec["choices"])
        for name, spec in game.options.items()
        if isinstance(spec, dict) and spec.get("choices") is not None
    }


def option_combinations(game):
    """Every ``{option: choice}`` of the options with choices, or None when there
    are more than MAX_PROBED_COMBINATIONS of them."""
    choices = _option_choices(game)
    count = 1
    for values in choices.values():
        count *= len(values)
    if count > MAX_PROBED_COMBINATIONS:
        return None
    return [dict(zip(choices, combo)) for combo in itertools.product(*choices.values())]


@cache
def seat_count_rules(game_id):
    """``{seats: {option: [choices]}}``: for each seat count of the game, the
    choices of each option some match of that size sets up with (the options
    left out at their defaults, as the server fills them), asked of the
    engine itself. Some games tie options to the player count (Anno 1452's
    scenarios). The documented CreateMatch lets each option take any of its
    choices independently; tests/service/test_openapi.py checks that every
    combination of those sets up and no other does."""
    game = engine.get_game(game_id)
    defaults = option_defaults(game)
    choices = _option_choices(game)
    combinations = option_combinations(game)
    rules = {}
    for seats in range(game.min_players, game.max_players + 1):
        if combinations is None:  # too many to try: each option alone
            allowed = {
                name: {c for c in values if _sets_up(game, seats, {**defaults, name: c})}
                for name, values in choices.items()
            }
        else:
            allowed = {name: set() for name in choices}
            for combination in combinations:
                if _sets_up(game, seats, {**defaults, **combination}):
                    for name, choice in combination.items():
                        allowed[name].add(choice)
        rules[seats] = {name: [c for c in values if c in allowed[name]] for name, values in choices.items()}
    return rules


def _option_component(game, name):
    """``Anno1452RulesOption``: an option's full list of choices, named once."""
    return _camel_id(game.id) + _camel_id(name) + "Option"


def seat_count_defaults(game, low, high):
    """``{option: default}`` a match of ``low``..``high`` seats gets for an
    option left out, as the game resolves it (a default may depend on the
    player count: Anno 1452's 2 players play ``ottokar_a``). An option whose
    default differs within the range, or that no default sets up, has none."""
    resolved = []
    for seats in range(low, high + 1):
        try:
            resolved.append(game.resolve_options(seats, {}))
        except engine.EngineError:
            resolved.append({})
    return {
        name: value
        for name, value in resolved[0].items()
        if all(other.get(name) == value for other in resolved)
    }


def _options_schema(game, allowed, named, defaults):
    """The ``options`` object of one seat-count variant (``defaults``: what
    the game fills in for those seat counts); adds to ``named`` the options it
    refers to by name (those allowing all their choices)."""
    properties, required = {}, []
    for name, spec in game.options.items():
        prop = {"description": spec.get("description") or name}
        if name in allowed:
            choices = list(allowed[name])
            if len(choices) > 1 and choices == list(spec["choices"]):
                prop["$ref"] = f"#/components/schemas/{_option_component(game, name)}"
                named.add(name)
            else:  # one choice: a `const` (a literal, not an enum class, in generated code)
                prop.update({"const": choices[0]} if len(choices) == 1 else {"enum": choices})
            if name in defaults and defaults[name] in allowed[name]:
                prop["default"] = defaults[name]
            else:
                required.append(name)  # its default does not set up with this many seats
        properties[name] = prop
    schema = {
        "type": "object",
        "additionalProperties": False,
        "properties": properties,
        "description": "Options of this game; a missing one takes its `default`.",
    }
    if required:
        schema["required"] = required
    return schema


def _seat_count_groups(game_id):
    """Consecutive seat counts that allow the same options: [(low, high, allowed)]."""
    groups = []
    for seats, allowed in seat_count_rules(game_id).items():
        if any(not choices for choices in allowed.values()):
            continue  # no match of this size sets up at all
        if groups and groups[-1][2] == allowed and groups[-1][1] == seats - 1:
            groups[-1] = (groups[-1][0], seats, allowed)
        else:
            groups.append((seats, seats, allowed))
    return groups


# `dice: reproducible` needs a `seed` (422 otherwise).
_REPRODUCIBLE_NEEDS_SEED = {
    "if": {"properties": {"dice": {"const": "reproducible"}}, "required": ["dice"]},
    "then": {"properties": {"seed": {"type": "integer"}}, "required": ["seed"]},
}


def create_match_components(converter):
    """``{component name: schema}``: ``CreateMatch`` (one of the games, by
    ``game``) and ``<Game>CreateMatch`` per game; ``converter`` is apispec's
    marshmallow converter (CreateMatchSchema documents the common fields)."""
    base = converter.schema2jsonschema(CreateMatchSchema)
    components, mapping = {}, {}
    for game in GAMES:
        variants, named = [], set()
        for low, high, allowed in _seat_count_groups(game.id):
            variant = copy.deepcopy(base)
            properties = variant["properties"]
            properties["game"] = {"type": "string", "const": game.id, "description": game.title}
            properties["options"] = _options_schema(
                game, allowed, named, seat_count_defaults(game, low, high)
            )
            properties["seats"].update(minItems=low, maxItems=high)
            if "required" in properties["options"]:
                variant["required"] = [*variant["required"], "options"]
            variant["allOf"] = [copy.deepcopy(_REPRODUCIBLE_NEEDS_SEED)]
            # A description, not a `title`: generators name classes after titles.
            variant["description"] = (
                f"{game.title}, {low} seats" if low == high else f"{game.title}, {low} to {high} seats"
            )
            variants.append(variant)
        for option in sorted(named):
            components[_option_component(game, option)] = {
                "enum": list(game.options[option]["choices"]),
                "description": f"Choices of the {game.title} option `{option}`.",
            }
        name = _camel_id(game.id) + "CreateMatch"
        if len(variants) == 1:
            components[name] = variants[0]
        else:  # each variant a component of its own: generators name classes after them
            refs = []
            for variant, (low, high, _) in zip(variants, _seat_count_groups(game.id)):
                seats = f"{low}Seats" if low == high else f"{low}To{high}Seats"
                components[f"{name}{seats}"] = variant
                refs.append(ref(f"{name}{seats}"))
            components[name] = {
                "anyOf": refs,
                "description": f"{game.title}: what each number of seats allows.",
            }
        mapping[game.id] = f"#/components/schemas/{name}"
    # No `discriminator`: a game with several seat-count variants maps to an
    # anyOf, which a discriminator mapping may not name (openapi-typescript
    # refuses it); each variant's `game` const tells the games apart anyway.
    components["CreateMatch"] = {
        "description": "A new match of one game of the catalogue (`game`): its options and "
        "seat counts (an unknown `game` is 404 `not_found`).",
        "oneOf": [{"$ref": ref} for ref in mapping.values()],
    }
    return components


def _camel_id(game_id):
    return "".join(part[:1].upper() + part[1:] for part in game_id.split("_"))


def register_request_schemas(api):
    """Add the documented components to ``api.spec`` (flask_smorest.Api): the
    three seat requests, the per-game CreateMatch and ActionList, the Error
    union; and teach its converter ``documented_as`` (before the routes are
    documented)."""
    spec = api.spec
    api.ma_plugin.converter.add_attribute_function(exact_json_schema)
    spec.components.schema(
        "AiLevel",
        component={"type": "string", "enum": list(LEVELS), "description": "AI levels, weakest first."},
    )
    spec.components.schema("DiceMode", component={"type": "string", "enum": list(DICE_MODES)})
    spec.components.schema("MatchStatus", component={"type": "string", "enum": list(STATUS_VALUES)})
    for name, component in error_components().items():
        if name == "Error":
            document_schema_as(api, ErrorSchema, name, component)
        else:
            spec.components.schema(name, component=component)
    for name, component in action_list_components().items():
        if name == "ActionList":
            document_schema_as(api, ActionListSchema, name, component)
        else:
            spec.components.schema(name, component=component)
    for kind, cls in SEAT_REQUEST_SCHEMAS.items():
        spec.components.schema(f"{kind.capitalize()}SeatRequest", schema=cls)
    for name, component in create_match_components(api.ma_plugin.converter).items():
        spec.components.schema(name, component=component)


class LobbyQuerySchema(ma.Schema):
    status = ma.fields.String(
        validate=validate.OneOf(STATUS_VALUES), metadata=documented_as(ref("MatchStatus"))
    )
    game = ma.fields.String()


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
        metadata=_desc(
            "Optional: the version the action was chosen at; stale -> 409 version_conflict." + STRICT_INTEGER
        ),
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
    step = ma.fields.Integer(
        validate=validate.Range(0, MAX_SEED),
        metadata=_desc(
            "Finished matches only: the board after the first `step` actions of the replay "
            "(0: as set up), for stepping through a match. Default: the board now."
        ),
    )


class BoardHeadersSchema(ma.Schema):
    if_none_match = ma.fields.String(
        data_key="If-None-Match",
        metadata=_desc(
            'An `ETag` of this picture (`"<version>"`, or `"<version>.<step>"` with `step`): '
            "304 when it is still current."
        ),
    )


class EventListSchema(ma.Schema):
    events = ma.fields.List(ma.fields.Nested(EventSchema), required=True)
    last_seq = ma.fields.Integer(
        required=True,
        metadata=_desc("Seq of the last event returned (or `after` when none): pass it as `after` next."),
    )
    more = ma.fields.Boolean(required=True, metadata=_desc("More events follow (`limit` cut the list)."))


class ReplayActionSchema(ma.Schema):
    seat = ma.fields.Integer(required=True)
    action = action_field(required=True)


class DiceProofSchema(ma.Schema):
    """What a fair match reveals at its end, to check its dice (see the README)."""

    server_secret = ma.fields.String(
        required=True, metadata=_desc("The secret committed to by `seed_commitment` (64 hex digits).")
    )
    client_seed = ma.fields.Integer(
        required=True, allow_none=True, metadata=_desc("The `seed` the creator sent, or null.")
    )


class ReplaySchema(ma.Schema):
    seed = ma.fields.Integer(
        required=True,
        metadata=_desc("The engine's seed: `engine.runner.replay` with it and `actions` reaches `result`."),
    )
    dice = ma.fields.String(
        required=True, validate=validate.OneOf(DICE_MODES), metadata=documented_as(ref("DiceMode"))
    )
    seed_commitment = ma.fields.String(required=True)
    proof = ma.fields.Nested(
        DiceProofSchema,
        allow_none=True,
        required=True,
        metadata=_desc(
            "`fair` dice: the secret and client seed the engine seed was derived from; "
            "null for `reproducible` dice (the seed itself was committed to)."
        ),
    )
    game = ma.fields.String(required=True)
    options = ma.fields.Dict(required=True)
    seats = ma.fields.List(ma.fields.Nested(SeatSchema), required=True)
    actions = ma.fields.List(ma.fields.Nested(ReplayActionSchema), required=True)
    result = ma.fields.Nested(ResultSchema, allow_none=True)


class HealthSchema(ma.Schema):
    status = ma.fields.String(required=True)
    checks = ma.fields.Dict()
    workers_alive = ma.fields.Integer(
        metadata=_desc("/readyz: AI workers whose heartbeat is younger than `WORKER_SEEN_S`.")
    )


# --- live event streams (service/live/hub.py, service/http/routes/streams.py) ---------


class StreamQuerySchema(ma.Schema):
    after = ma.fields.Integer(
        validate=validate.Range(0, MAX_SEED),
        metadata=_desc(
            "Send the events with `seq` > `after` first (default: only events after the "
            "first `Match`). `Last-Event-ID` wins when both are given."
        ),
    )
    ticket = ma.fields.String(
        validate=validate.Length(1, 200),
        metadata=_desc(
            "A stream ticket from `POST .../stream-ticket` (single use, short-lived), for "
            "clients that cannot set `Authorization` (browsers' EventSource). Never the "
            "bearer token itself."
        ),
    )


class StreamHeadersSchema(ma.Schema):
    last_event_id = ma.fields.Integer(
        data_key="Last-Event-ID",
        validate=validate.Range(0, MAX_SEED),
        metadata=_desc(
            "The last `seq` seen (EventSource sends it when it reconnects): resume right after it."
        ),
    )


class StreamTicketSchema(ma.Schema):
    ticket = ma.fields.String(
        required=True,
        metadata=_desc("Pass as `?ticket=` to `GET .../stream`; valid once, until `expires_at`."),
    )
    expires_at = ma.fields.String(
        required=True, metadata={"description": "ISO 8601, UTC.", "format": "date-time"}
    )
