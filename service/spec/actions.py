"""One description of each game's actions, from which everything the service
knows of an action comes.

``engine.params`` describes each parameter once (OneOf, IntRange, Square,
Optional: ``Domain.describe()``). Here each parameter kind is one class
(``Param``) that turns such a description into the three forms the service
needs, side by side so they cannot drift apart: the marshmallow field that
validates a request, the quick check that accepts a well-formed action
without marshmallow (the hot path), and the JSON Schema ``openapi.yaml``
documents. An ``ActionDescription`` gathers one action type's parameters.
A new game needs no service change: its actions appear as a discriminated
union (``<Game>Action``, ``oneOf`` + ``discriminator`` on ``type``) of
closed schemas, and requests are validated against the same domains.

    >>> import engine
    >>> schemas = action_schemas(engine.get_game("anno1503"))
    >>> "buy" in schemas, "end_turn" in schemas
    (True, True)
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import cache
from typing import Any

import marshmallow as ma
from marshmallow import validate

import engine

log = logging.getLogger(__name__)

# A quick check: True only for a value (an action) its schema loads as it is.
Check = Callable[[Any], bool]
# The name of each enum component of a game, by its values.
EnumNames = dict[tuple, str]


def _camel(name: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in name.replace("-", "_").split("_"))


def component_name(game_id: str, action_type: str | None = None) -> str:
    """``Anno1503BuyAction`` / ``Anno1503Action`` (OpenAPI component names)."""
    return _camel(game_id) + (_camel(action_type) if action_type else "") + "Action"


# --- one parameter, three forms ---------------------------------------------
#
# The quick check (``accepts``) is stricter than the field: when it says yes,
# the schema finds no problem; when it says no, the schema runs and gives its
# exact messages (tests/service/test_action_schemas.py holds them to that).
# The JSON Schema is written here rather than converted from the marshmallow
# field, so that code generators get what they type best: `type` as a
# `const` (a literal, not a one-value enum class), each enum of a game named
# once as a component (`Anno1503Commodity`) and referenced, a nullable
# parameter as `anyOf: [<schema>, null]`, a square as a `[row, col]` tuple.


class Param:
    """One parameter of an action, as its ``Domain.describe()`` says; a kind
    this module does not know yet accepts any JSON value (the engine still
    checks it) rather than refuse to start the service."""

    def __init__(self, domain: dict[str, Any]) -> None:
        self.domain = domain
        self.optional = domain.get("optional", False)
        self.description = domain.get("description") or ""

    def field(self) -> ma.fields.Field:
        """The marshmallow field that loads it."""
        common = {
            "required": not self.optional,
            "allow_none": self.optional,
            "metadata": {"description": self.description},
        }
        return self._field(common)

    def accepts(self) -> Check:
        """``value -> bool``: True only for values the field loads as they are."""
        check = self._check()
        if self.optional:
            return lambda v: v is None or check(v)
        return check

    def json_schema(self, enum_names: EnumNames) -> dict[str, Any]:
        """Its documented JSON Schema (``enum_names``: the game's enum components)."""
        schema, description = self._json(enum_names), self._json_description()
        if self.optional:
            schema = {"anyOf": [schema, {"type": "null"}]}
        return {**schema, "description": description} if description else schema

    def _field(self, common: dict[str, Any]) -> ma.fields.Field:
        log.warning("no schema for parameter kind %r; documented as any value", self.domain["kind"])
        return ma.fields.Raw(**common)

    def _check(self) -> Check:
        return lambda v: True  # a Raw field: any value

    def _json(self, enum_names: EnumNames) -> dict[str, Any]:
        return {}

    def _json_description(self) -> str:
        return self.description


class EnumParam(Param):
    def __init__(self, domain: dict[str, Any]) -> None:
        super().__init__(domain)
        self.values = tuple(domain["values"])

    def _field(self, common: dict[str, Any]) -> ma.fields.Field:
        return ma.fields.String(validate=validate.OneOf(self.domain["values"]), **common)

    def _check(self) -> Check:
        values = self.values
        return lambda v: type(v) is str and v in values

    def _json(self, enum_names: EnumNames) -> dict[str, Any]:
        return _ref(enum_names[self.values])


class IntParam(Param):
    def _field(self, common: dict[str, Any]) -> ma.fields.Field:
        low, high = self.domain["min"], self.domain["max"]
        return ma.fields.Integer(strict=True, validate=validate.Range(low, high), **common)

    def _check(self) -> Check:
        low, high = self.domain["min"], self.domain["max"]
        return lambda v: type(v) is int and low <= v <= high

    def _json(self, enum_names: EnumNames) -> dict[str, Any]:
        return {"type": "integer", "minimum": self.domain["min"], "maximum": self.domain["max"]}


class SquareParam(Param):
    def __init__(self, domain: dict[str, Any]) -> None:
        super().__init__(domain)
        self.rows, self.cols = domain["rows"], domain["cols"]

    def _field(self, common: dict[str, Any]) -> ma.fields.Field:
        rows, cols = self.rows, self.cols
        item = ma.fields.Integer(strict=True, validate=validate.Range(0, max(rows, cols) - 1))
        return ma.fields.List(item, validate=[validate.Length(2, 2), _square_validator(rows, cols)], **common)

    def _check(self) -> Check:
        rows, cols = self.rows, self.cols

        def check(v: Any) -> bool:
            return (
                type(v) is list
                and len(v) == 2
                and type(v[0]) is int
                and type(v[1]) is int
                and 0 <= v[0] < rows
                and 0 <= v[1] < cols
            )

        return check

    def _json(self, enum_names: EnumNames) -> dict[str, Any]:
        return {
            "type": "array",
            "minItems": 2,
            "maxItems": 2,
            "prefixItems": [
                {"type": "integer", "minimum": 0, "maximum": self.rows - 1, "description": "row"},
                {"type": "integer", "minimum": 0, "maximum": self.cols - 1, "description": "column"},
            ],
        }

    def _json_description(self) -> str:
        where = f"[row, col]: row 0..{self.rows - 1}, col 0..{self.cols - 1}. "
        return (where + self.description).strip()


def _square_validator(rows: int, cols: int) -> Callable[[Any], None]:
    def check(value: Any) -> None:
        if len(value) == 2 and not (0 <= value[0] < rows and 0 <= value[1] < cols):
            raise ma.ValidationError(f"must be [row, col] with row < {rows} and col < {cols}")

    return check


PARAM_KINDS = {"enum": EnumParam, "int": IntParam, "square": SquareParam}


def param(domain: dict[str, Any]) -> Param:
    """The Param of one ``Domain.describe()`` output."""
    return PARAM_KINDS.get(domain["kind"], Param)(domain)


# --- one action type ----------------------------------------------------------


class ActionDescription:
    """One action type of one game (``game.describe_actions()[type]``): its
    parameters, and from them its marshmallow schema, its quick check and
    its JSON Schema."""

    def __init__(self, game_id: str, action_type: str, described: dict[str, Any]) -> None:
        self.game_id = game_id
        self.type = action_type
        self.description = described.get("description") or action_type
        self.params = {name: param(domain) for name, domain in described["params"].items()}

    def schema_class(self) -> type[ma.Schema]:
        """A closed marshmallow Schema (``unknown = RAISE``) named as its component."""
        fields: dict[str, ma.fields.Field] = {
            "type": ma.fields.String(
                required=True, validate=validate.OneOf([self.type]), metadata={"description": "action type"}
            )
        }
        for name, p in self.params.items():
            fields[name] = p.field()

        class Meta:
            unknown = ma.RAISE

        cls = type(component_name(self.game_id, self.type), (ma.Schema,), {**fields, "Meta": Meta})
        cls.__doc__ = self.description
        return cls

    def accepts(self) -> Check:
        """``action -> bool``: True only for an action its schema loads as it is."""
        checks = {name: p.accepts() for name, p in self.params.items()}
        required = frozenset(name for name, p in self.params.items() if not p.optional)
        allowed = frozenset(checks) | {"type"}
        action_type = self.type

        def check(action: dict[str, Any]) -> bool:
            if action.get("type") != action_type or not action.keys() <= allowed:
                return False
            if not required <= action.keys():
                return False
            return all(checks[name](value) for name, value in action.items() if name != "type")

        return check

    def json_schema(self, enum_names: EnumNames) -> dict[str, Any]:
        """The documented JSON Schema of this action type."""
        properties = {"type": {"const": self.type, "type": "string", "description": "action type"}}
        for name, p in self.params.items():
            properties[name] = p.json_schema(enum_names)
        required = ["type"] + [name for name, p in self.params.items() if not p.optional]
        return {
            "type": "object",
            "additionalProperties": False,
            "properties": properties,
            "required": required,
            "description": self.description,
        }


@cache
def descriptions(game_id: str) -> dict[str, ActionDescription]:
    """``{action_type: ActionDescription}`` of one game (cached per game id)."""
    game = engine.get_game(game_id)
    return {t: ActionDescription(game_id, t, d) for t, d in game.describe_actions().items()}


def _schema_for(game_id: str, action_type: str, described: dict[str, Any]) -> type[ma.Schema]:
    return ActionDescription(game_id, action_type, described).schema_class()


@cache
def _schemas_by_game(game_id: str) -> dict[str, type[ma.Schema]]:
    return {t: d.schema_class() for t, d in descriptions(game_id).items()}


def action_schemas(game: Any) -> dict[str, type[ma.Schema]]:
    """``{action_type: Schema class}`` for ``game`` (cached per game id)."""
    return _schemas_by_game(game.id)


@cache
def _validators_by_game(game_id: str) -> dict[str, ma.Schema]:
    # Building a Schema deep-copies its fields: do it once per game, not per
    # request (an instance holds no per-call state, so threads can share it).
    return {t: cls() for t, cls in _schemas_by_game(game_id).items()}


@cache
def _plain_checks_by_game(game_id: str) -> dict[str, Check]:
    return {t: d.accepts() for t, d in descriptions(game_id).items()}


def validate_action(game: Any, action: Any) -> dict[str, Any]:
    """Return the ``{field: [messages]}`` problems of ``action``, or {}: the
    quick check first, marshmallow's messages when it says no."""
    if not isinstance(action, dict):
        return {"action": ["must be an object"]}
    validators = _validators_by_game(game.id)
    action_type: Any = action.get("type")
    schema = validators.get(action_type) if isinstance(action_type, str) else None
    if schema is None:
        return {"type": [f"must be one of: {', '.join(sorted(validators))}"]}
    if _plain_checks_by_game(game.id)[action_type](action):
        return {}
    return schema.validate(action)


# --- the documented form: the game's components --------------------------------


def _enum_components(game_id: str, actions: dict[str, ActionDescription]) -> EnumNames:
    """``{tuple(values): component name}`` for every enum of one game's actions.

    An enum is named after its parameter (``Anno1503Commodity``); the enum
    used most takes a name first, and one whose name is taken is named after
    its action too (``Anno1503PlayCardCard``)."""
    uses: dict = {}
    for action_type, action in actions.items():
        for name, p in action.params.items():
            if isinstance(p, EnumParam):
                uses.setdefault(p.values, []).append((action_type, name))
    names, taken = {}, set()
    for values, where in sorted(uses.items(), key=lambda item: -len(item[1])):
        candidates = [_camel(game_id) + _camel(param) for _, param in where]
        candidates += [_camel(game_id) + _camel(t) + _camel(param) for t, param in where]
        name = next(c for c in candidates if c not in taken)
        names[values] = name
        taken.add(name)
    return names


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def game_action_components(game: Any) -> dict[str, Any]:
    """``{component name: schema}``: one game's named enums, one schema per
    action type and their union ``<Game>Action`` (discriminated on ``type``)."""
    actions = descriptions(game.id)
    enum_names = _enum_components(game.id, actions)
    components: dict[str, Any] = {
        name: {"type": "string", "enum": list(values)} for values, name in enum_names.items()
    }
    mapping = {}
    for action_type, action in actions.items():
        name = component_name(game.id, action_type)
        components[name] = action.json_schema(enum_names)
        mapping[action_type] = f"#/components/schemas/{name}"
    components[component_name(game.id)] = {
        "description": f"An action of {game.title or game.id}: one schema per `type`.",
        "oneOf": [{"$ref": ref} for ref in mapping.values()],
        "discriminator": {"propertyName": "type", "mapping": mapping},
    }
    return components


def register_in_spec(spec: Any, games: list[Any]) -> list[str]:
    """Add every game's action components to the spec (see game_action_components)."""
    unions = []
    for game in games:
        for name, component in game_action_components(game).items():
            spec.components.schema(name, component=component)
        unions.append(f"#/components/schemas/{component_name(game.id)}")
    return unions
