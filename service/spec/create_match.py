"""The documented ``CreateMatch``: one schema per game, found by asking the engine.

Each game's options, its seat counts and what each seat count allows are
probed from ``engine`` (``seat_count_rules``); ``register_request_schemas``
puts the components into the app's spec. The marshmallow schema that
validates a request is ``schemas.CreateMatchSchema``.
"""

import copy
import itertools
from dataclasses import dataclass
from functools import cache
from typing import Any

import engine
from engine.ai import LEVELS
from service.spec.account_schemas import register_account_components
from service.spec.components import (
    action_list_components,
    document_schema_as,
    error_components,
    exact_json_schema,
    ref,
)
from service.spec.play_schemas import ActionListSchema, HistoryLineSchema
from service.spec.schemas import (
    DICE_MODES,
    GAMES,
    MAX_SEED,
    SEAT_REQUEST_SCHEMAS,
    STATUS_VALUES,
    CreateMatchSchema,
    ErrorSchema,
)

# --- the documented CreateMatch: one schema per game ----------------------


def option_defaults(game: Any) -> dict[str, Any]:
    """``{option: default}``: what a match gets for an option it leaves out."""
    return {
        name: spec["default"]
        for name, spec in game.options.items()
        if isinstance(spec, dict) and "default" in spec
    }


def _sets_up(game: Any, seats: int, options: dict[str, Any]) -> bool:
    try:
        game.setup(seats, options, 0)
    except engine.EngineError:
        return False
    return True


# Above this many combinations of choices, seat_count_rules tries each
# option's choices alone (the others at their defaults).
MAX_PROBED_COMBINATIONS = 4096


def _option_choices(game: Any) -> dict[str, list]:
    return {
        name: list(spec["choices"])
        for name, spec in game.options.items()
        if isinstance(spec, dict) and spec.get("choices") is not None
    }


def option_combinations(game: Any) -> list[dict[str, Any]] | None:
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
def seat_count_rules(game_id: str) -> dict[int, dict[str, list]]:
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


def _option_component(game: Any, name: str) -> str:
    """``Anno1452RulesOption``: an option's full list of choices, named once."""
    return _camel_id(game.id) + _camel_id(name) + "Option"


def seat_count_defaults(game: Any, low: int, high: int) -> dict[str, Any]:
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


def _options_schema(
    game: Any, allowed: dict[str, list], named: set[str], defaults: dict[str, Any]
) -> dict[str, Any]:
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
        "description": "Options of this game for these seat counts; a missing one takes its `default`.",
    }
    if required:
        schema["required"] = required
    return schema


def _seat_count_groups(game_id: str) -> list[tuple[int, int, dict[str, list]]]:
    """Consecutive seat counts that allow the same options: [(low, high, allowed)]."""
    groups: list = []
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
    "then": {
        "properties": {"seed": {"type": "integer", "minimum": 0, "maximum": MAX_SEED}},
        "required": ["seed"],
    },
}


# `rated: true`: fair dice and at most one human seat (its creator's account's;
# the others ai or open), as CreateMatchSchema checks (422 otherwise).
RATED_RULE = {
    "if": {"properties": {"rated": {"const": True}}, "required": ["rated"]},
    "then": {
        "properties": {
            "dice": {"const": "fair"},
            "seats": {
                "contains": {"properties": {"kind": {"const": "human"}}, "required": ["kind"]},
                "minContains": 0,
                "maxContains": 1,
            },
        }
    },
}


@dataclass(frozen=True)
class PerGameRequest:
    """A request body documented per game and seat count: ``<Game><name>``
    per game (an ``anyOf`` of ``<Game><name><N>Seats`` where the options a
    game allows depend on its seat count), and ``<name>``, one of the games."""

    name: str
    description: str
    rules: tuple[dict[str, Any], ...]  # what every variant adds (allOf)
    seats_before: int = 0  # seats the body's `seats` leaves out (a challenger's)


MATCH_REQUEST = PerGameRequest(
    "CreateMatch",
    "A new match of one game of the catalogue (`game`): its options and seat counts (an unknown "
    "`game` is 404 `not_found`).",
    (_REPRODUCIBLE_NEEDS_SEED, RATED_RULE),
)


def create_match_components(converter: Any) -> dict[str, Any]:
    """``{component name: schema}``: ``CreateMatch`` (one of the games, by
    ``game``) and ``<Game>CreateMatch`` per game; ``converter`` is apispec's
    marshmallow converter (CreateMatchSchema documents the common fields)."""
    return per_game_components(converter.schema2jsonschema(CreateMatchSchema), MATCH_REQUEST)


def per_game_components(base: dict[str, Any], request: PerGameRequest) -> dict[str, Any]:
    """``{component name: schema}`` of ``request``, from ``base`` (the JSON
    Schema of its marshmallow schema: the fields common to every game)."""
    components, mapping = {}, {}
    for game in GAMES:
        named: set = set()
        groups, variants = _seat_count_groups(game.id), []
        for low, high, allowed in groups:
            # The options of a seat-count group: one component, whichever request names it.
            options = _options_schema(game, allowed, named, seat_count_defaults(game, low, high))
            options_name = f"{_camel_id(game.id)}RequestOptions" + (
                _seats(low, high) if len(groups) > 1 else ""
            )
            components[options_name] = options
            variants.append(_seat_count_variant(base, game, (low, high), (options_name, options), request))
        for option in sorted(named):
            components[_option_component(game, option)] = {
                "enum": list(game.options[option]["choices"]),
                "description": f"Choices of the {game.title} option `{option}`.",
            }
        name = _camel_id(game.id) + request.name
        components.update(_game_components(game, name, variants))
        mapping[game.id] = f"#/components/schemas/{name}"
    # No `discriminator`: a game with several seat-count variants maps to an
    # anyOf, which a discriminator mapping may not name (openapi-typescript
    # refuses it); each variant's `game` const tells the games apart anyway.
    components[request.name] = {
        "description": request.description,
        "oneOf": [{"$ref": ref} for ref in mapping.values()],
    }
    return components


def _seat_count_variant(
    base: dict[str, Any],
    game: Any,
    seats: tuple[int, int],
    options: tuple[str, dict[str, Any]],
    request: PerGameRequest,
) -> dict[str, Any]:
    """``request``'s body for ``game`` and one group of seat counts (``(low,
    high)``), whose options are the component ``options`` (its name, its schema)."""
    low, high = seats
    variant = copy.deepcopy(base)
    properties = variant["properties"]
    properties["game"] = {"type": "string", "const": game.id, "description": game.title}
    properties["options"] = ref(options[0])
    properties["seats"].update(minItems=low - request.seats_before, maxItems=high - request.seats_before)
    if "required" in options[1]:
        variant["required"] = [*variant["required"], "options"]
    variant["allOf"] = copy.deepcopy(list(request.rules))
    # A description, not a `title`: generators name classes after titles.
    counted = f"{low} seats" if low == high else f"{low} to {high} seats"
    variant["description"] = f"{game.title}, {counted}" + (
        f" ({request.seats_before} of them not in `seats`)" if request.seats_before else ""
    )
    return variant


def _seats(low: int, high: int) -> str:
    """``2Seats``, ``3To4Seats``: a component name's seat counts."""
    return f"{low}Seats" if low == high else f"{low}To{high}Seats"


def _game_components(game: Any, name: str, variants: list[dict[str, Any]]) -> dict[str, Any]:
    """``<Game>CreateMatch`` (``name``): its one variant, or an ``anyOf`` of
    one component per seat-count variant (generators name classes after them)."""
    if len(variants) == 1:
        return {name: variants[0]}
    components, refs = {}, []
    for variant, (low, high, _) in zip(variants, _seat_count_groups(game.id)):
        components[f"{name}{_seats(low, high)}"] = variant
        refs.append(ref(f"{name}{_seats(low, high)}"))
    components[name] = {"anyOf": refs, "description": f"{game.title}: what each number of seats allows."}
    return components


def _camel_id(game_id: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in game_id.split("_"))


def register_request_schemas(api: Any) -> None:
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
    register_account_components(spec)
    # Only referenced by the account history's NDJSON content (routes/accounts.py).
    spec.components.schema("HistoryLine", schema=HistoryLineSchema)
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
