"""One marshmallow schema per action type, built from the engine's domains.

``engine.params`` describes each parameter once (OneOf, IntRange, Square,
Optional); this module turns those descriptions into marshmallow fields that
validate requests, and into the JSON Schema ``openapi.yaml`` documents
(``game_action_components``), so a new game needs no service change: its
actions appear as a discriminated union (``<Game>Action``, ``oneOf`` +
``discriminator`` on ``type``) of closed schemas, and requests are validated
against the same domains.

    >>> import engine
    >>> schemas = action_schemas(engine.get_game("anno1503"))
    >>> sorted(schemas)[0]
    'big_branch_office'
"""

import logging
from functools import cache

import marshmallow as ma
from marshmallow import validate

import engine

log = logging.getLogger(__name__)


def _camel(name):
    return "".join(part[:1].upper() + part[1:] for part in name.replace("-", "_").split("_"))


def component_name(game_id, action_type=None):
    """``Anno1503BuyAction`` / ``Anno1503Action`` (OpenAPI component names)."""
    return _camel(game_id) + (_camel(action_type) if action_type else "") + "Action"


def _square_validator(rows, cols):
    def check(value):
        if len(value) == 2 and not (0 <= value[0] < rows and 0 <= value[1] < cols):
            raise ma.ValidationError(f"must be [row, col] with row < {rows} and col < {cols}")

    return check


def _field_for(domain):
    """A marshmallow field for one ``Domain.describe()`` output."""
    optional = domain.get("optional", False)
    common = {
        "required": not optional,
        "allow_none": optional,
        "metadata": {"description": domain.get("description") or ""},
    }
    kind = domain["kind"]
    if kind == "enum":
        return ma.fields.String(validate=validate.OneOf(domain["values"]), **common)
    if kind == "int":
        return ma.fields.Integer(strict=True, validate=validate.Range(domain["min"], domain["max"]), **common)
    if kind == "square":
        rows, cols = domain["rows"], domain["cols"]
        item = ma.fields.Integer(strict=True, validate=validate.Range(0, max(rows, cols) - 1))
        return ma.fields.List(item, validate=[validate.Length(2, 2), _square_validator(rows, cols)], **common)
    # A domain kind this module does not know yet: accept any JSON value here
    # (the engine still checks it) rather than refuse to start the service.
    log.warning("no schema for parameter kind %r; documented as any value", kind)
    return ma.fields.Raw(**common)


def _schema_for(game_id, action_type, described):
    fields = {
        "type": ma.fields.String(
            required=True, validate=validate.OneOf([action_type]), metadata={"description": "action type"}
        )
    }
    for name, domain in described["params"].items():
        fields[name] = _field_for(domain)

    class Meta:
        unknown = ma.RAISE

    cls = type(component_name(game_id, action_type), (ma.Schema,), {**fields, "Meta": Meta})
    cls.__doc__ = described.get("description") or action_type
    return cls


@cache
def _schemas_by_game(game_id):
    game = engine.get_game(game_id)
    return {t: _schema_for(game_id, t, d) for t, d in game.describe_actions().items()}


def action_schemas(game):
    """``{action_type: Schema class}`` for ``game`` (cached per game id)."""
    return _schemas_by_game(game.id)


@cache
def _validators_by_game(game_id):
    # Building a Schema deep-copies its fields: do it once per game, not per
    # request (an instance holds no per-call state, so threads can share it).
    return {t: cls() for t, cls in _schemas_by_game(game_id).items()}


def validate_action(game, action):
    """Return the ``{field: [messages]}`` problems of ``action``, or {}."""
    if not isinstance(action, dict):
        return {"action": ["must be an object"]}
    validators = _validators_by_game(game.id)
    action_type = action.get("type")
    schema = validators.get(action_type) if isinstance(action_type, str) else None
    if schema is None:
        return {"type": [f"must be one of: {', '.join(sorted(validators))}"]}
    if _plain_checks_by_game(game.id)[action_type](action):
        return {}
    return schema.validate(action)


# --- a quick accept for well-formed actions ------------------------------------
#
# Every move is validated, and marshmallow's load walks a lot of generic code
# for a handful of parameters. The checks below are built from the same
# domain descriptions as the schemas and are stricter than them: when one
# says yes, the schema finds no problem; when it says no, the schema runs and
# gives its exact messages (tests/service/test_action_schemas.py holds them
# to that).


def _plain_value_check(domain):
    """``value -> bool``: True only for values the domain's field loads as they are."""
    kind = domain["kind"]
    if kind == "enum":
        values = tuple(domain["values"])

        def check(v):
            return type(v) is str and v in values
    elif kind == "int":
        low, high = domain["min"], domain["max"]

        def check(v):
            return type(v) is int and low <= v <= high
    elif kind == "square":
        rows, cols = domain["rows"], domain["cols"]

        def check(v):
            return (
                type(v) is list
                and len(v) == 2
                and type(v[0]) is int
                and type(v[1]) is int
                and 0 <= v[0] < rows
                and 0 <= v[1] < cols
            )
    else:

        def check(v):
            return True  # a Raw field: any value

    if domain.get("optional", False):
        return lambda v: v is None or check(v)
    return check


def _plain_action_check(action_type, described):
    checks = {name: _plain_value_check(domain) for name, domain in described["params"].items()}
    required = frozenset(
        name for name, domain in described["params"].items() if not domain.get("optional", False)
    )
    allowed = frozenset(checks) | {"type"}

    def check(action):
        if action.get("type") != action_type or not action.keys() <= allowed:
            return False
        if not required <= action.keys():
            return False
        return all(checks[name](value) for name, value in action.items() if name != "type")

    return check


@cache
def _plain_checks_by_game(game_id):
    game = engine.get_game(game_id)
    return {t: _plain_action_check(t, d) for t, d in game.describe_actions().items()}


# --- the documented form: JSON Schema written from the same domain descriptions ---
#
# The components are written here rather than converted from the marshmallow
# classes, so that code generators get what they type best: `type` as a
# `const` (a literal, not a one-value enum class), each enum of a game named
# once as a component (`Anno1503Commodity`) and referenced, a nullable
# parameter as `anyOf: [<schema>, null]`, a square as a `[row, col]` tuple.


def _enum_components(game_id, described_actions):
    """``{tuple(values): component name}`` for every enum of one game's actions.

    An enum is named after its parameter (``Anno1503Commodity``); the enum
    used most takes a name first, and one whose name is taken is named after
    its action too (``Anno1503PlayCardCard``)."""
    uses = {}
    for action_type, described in described_actions.items():
        for param, domain in described["params"].items():
            if domain["kind"] == "enum":
                uses.setdefault(tuple(domain["values"]), []).append((action_type, param))
    names, taken = {}, set()
    for values, where in sorted(uses.items(), key=lambda item: -len(item[1])):
        candidates = [_camel(game_id) + _camel(param) for _, param in where]
        candidates += [_camel(game_id) + _camel(t) + _camel(param) for t, param in where]
        name = next(c for c in candidates if c not in taken)
        names[values] = name
        taken.add(name)
    return names


def _ref(name):
    return {"$ref": f"#/components/schemas/{name}"}


def _square_json(domain):
    rows, cols = domain["rows"], domain["cols"]
    return {
        "type": "array",
        "minItems": 2,
        "maxItems": 2,
        "prefixItems": [
            {"type": "integer", "minimum": 0, "maximum": rows - 1, "description": "row"},
            {"type": "integer", "minimum": 0, "maximum": cols - 1, "description": "column"},
        ],
    }


def _param_json(domain, enum_names):
    kind, description = domain["kind"], domain.get("description") or ""
    if kind == "enum":
        schema = _ref(enum_names[tuple(domain["values"])])
    elif kind == "int":
        schema = {"type": "integer", "minimum": domain["min"], "maximum": domain["max"]}
    elif kind == "square":
        schema = _square_json(domain)
        description = (
            f"[row, col]: row 0..{domain['rows'] - 1}, col 0..{domain['cols'] - 1}. " + description
        ).strip()
    else:  # an unknown kind: any value, as _field_for accepts it
        schema = {}
    if domain.get("optional", False):
        schema = {"anyOf": [schema, {"type": "null"}]}
    return {**schema, "description": description} if description else schema


def action_json_schema(action_type, described, enum_names):
    """The documented JSON Schema of one action type."""
    properties = {"type": {"const": action_type, "type": "string", "description": "action type"}}
    for name, domain in described["params"].items():
        properties[name] = _param_json(domain, enum_names)
    required = ["type"] + [n for n, d in described["params"].items() if not d.get("optional", False)]
    return {
        "type": "object",
        "additionalProperties": False,
        "properties": properties,
        "required": required,
        "description": described.get("description") or action_type,
    }


def game_action_components(game):
    """``{component name: schema}``: one game's named enums, one schema per
    action type and their union ``<Game>Action`` (discriminated on ``type``)."""
    described_actions = game.describe_actions()
    enum_names = _enum_components(game.id, described_actions)
    components = {name: {"type": "string", "enum": list(values)} for values, name in enum_names.items()}
    mapping = {}
    for action_type, described in described_actions.items():
        name = component_name(game.id, action_type)
        components[name] = action_json_schema(action_type, described, enum_names)
        mapping[action_type] = f"#/components/schemas/{name}"
    components[component_name(game.id)] = {
        "description": f"An action of {game.title or game.id}: one schema per `type`.",
        "oneOf": [{"$ref": ref} for ref in mapping.values()],
        "discriminator": {"propertyName": "type", "mapping": mapping},
    }
    return components


def register_in_spec(spec, games):
    """Add every game's action components to the spec (see game_action_components)."""
    unions = []
    for game in games:
        for name, component in game_action_components(game).items():
            spec.components.schema(name, component=component)
        unions.append(f"#/components/schemas/{component_name(game.id)}")
    return unions
