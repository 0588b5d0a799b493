"""One marshmallow schema per action type, built from the engine's domains.

``engine.params`` describes each parameter once (OneOf, IntRange, Square,
Optional); this module turns those descriptions into marshmallow fields, so
a new game needs no service change: its actions appear in ``openapi.yaml``
as a discriminated union (``<Game>Action``, ``oneOf`` + ``discriminator`` on
``type``) and requests are validated against the same schemas.

    >>> import engine
    >>> schemas = action_schemas(engine.get_game("anno1503"))
    >>> sorted(schemas)[0]
    'big_branch_office'
"""

import logging
from functools import lru_cache

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
        common["metadata"]["description"] = (
            f"[row, col]: row 0..{rows - 1}, col 0..{cols - 1}. " + common["metadata"]["description"]
        ).strip()
        # Each position has its own range (the items' common one is the larger).
        # A one-element anyOf, not allOf: apispec turns a nullable field's allOf
        # into an anyOf with null, which would leave `type: array` refusing null.
        common["metadata"]["anyOf"] = [{"prefixItems": [
            {"type": "integer", "minimum": 0, "maximum": rows - 1},
            {"type": "integer", "minimum": 0, "maximum": cols - 1},
        ]}]
        item = ma.fields.Integer(strict=True, validate=validate.Range(0, max(rows, cols) - 1))
        return ma.fields.List(item, validate=[validate.Length(2, 2), _square_validator(rows, cols)],
                              **common)
    # A domain kind this module does not know yet: accept any JSON value here
    # (the engine still checks it) rather than refuse to start the service.
    log.warning("no schema for parameter kind %r; documented as any value", kind)
    return ma.fields.Raw(**common)


def _schema_for(game_id, action_type, described):
    fields = {"type": ma.fields.String(required=True, validate=validate.OneOf([action_type]),
                                       metadata={"description": "action type"})}
    for name, domain in described["params"].items():
        fields[name] = _field_for(domain)

    class Meta:
        unknown = ma.RAISE

    cls = type(component_name(game_id, action_type), (ma.Schema,), {**fields, "Meta": Meta})
    cls.__doc__ = described.get("description") or action_type
    return cls


@lru_cache(maxsize=None)
def _schemas_by_game(game_id):
    game = engine.get_game(game_id)
    return {t: _schema_for(game_id, t, d) for t, d in game.describe_actions().items()}


def action_schemas(game):
    """``{action_type: Schema class}`` for ``game`` (cached per game id)."""
    return _schemas_by_game(game.id)


@lru_cache(maxsize=None)
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
            return (type(v) is list and len(v) == 2 and type(v[0]) is int and type(v[1]) is int
                    and 0 <= v[0] < rows and 0 <= v[1] < cols)
    else:
        def check(v):
            return True  # a Raw field: any value

    if domain.get("optional", False):
        return lambda v: v is None or check(v)
    return check


def _plain_action_check(action_type, described):
    checks = {name: _plain_value_check(domain) for name, domain in described["params"].items()}
    required = frozenset(name for name, domain in described["params"].items()
                         if not domain.get("optional", False))
    allowed = frozenset(checks) | {"type"}

    def check(action):
        if action.get("type") != action_type or not action.keys() <= allowed:
            return False
        if not required <= action.keys():
            return False
        return all(checks[name](value) for name, value in action.items() if name != "type")

    return check


@lru_cache(maxsize=None)
def _plain_checks_by_game(game_id):
    game = engine.get_game(game_id)
    return {t: _plain_action_check(t, d) for t, d in game.describe_actions().items()}


def register_in_spec(spec, games):
    """Add every action schema and one union per game to the spec components."""
    unions = []
    for game in games:
        mapping = {}
        for action_type, schema in action_schemas(game).items():
            name = component_name(game.id, action_type)
            spec.components.schema(name, schema=schema)
            mapping[action_type] = f"#/components/schemas/{name}"
        union = component_name(game.id)
        spec.components.schema(union, {
            "description": f"An action of {game.title or game.id}: one schema per `type`.",
            "oneOf": [{"$ref": ref} for ref in mapping.values()],
            "discriminator": {"propertyName": "type", "mapping": mapping},
        })
        unions.append(f"#/components/schemas/{union}")
    return unions
