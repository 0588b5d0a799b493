"""Components that only document: what a marshmallow schema cannot state.

- ``documented_as``: field metadata documenting a field as exactly a given JSON
  Schema (a ``$ref``, a ``const``, a union without ``type: object``), applied
  by the apispec attribute function ``exact_json_schema``;
- ``Error``: one schema per kind of ``details``, discriminated on ``error``;
- ``ActionList``: one schema per game, discriminated on ``game``, so a
  generated client narrows the action list to one game's action union;
- ``EXAMPLES`` of the main bodies (service/spec/document.py puts them on their
  components; tests/service/test_openapi.py validates them).

``schemas.register_request_schemas`` registers them before the routes are documented.
"""

import copy
from typing import Any

from apispec.ext.marshmallow.common import make_schema_key, resolve_schema_instance

import engine
from service.model.errors import ERROR_CODES
from service.spec.actions import component_name


def ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def documented_as(json_schema: dict[str, Any], description: str | None = None) -> dict[str, Any]:
    """Field metadata that documents the field as exactly ``json_schema``
    (see ``exact_json_schema``); the field still loads and dumps as its class does."""
    if description:
        json_schema = {**json_schema, "description": description}
    return {"json_schema": json_schema}


def exact_json_schema(self: Any, field: Any, ret: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """apispec attribute function: a field whose metadata holds ``json_schema``
    is documented as exactly that, instead of what apispec infers from its class
    (a Dict's ``type: object`` and ``additionalProperties: {}`` beside a union
    would let any object through a generated client; apispec has no ``const``,
    ``$ref`` or ``prefixItems``)."""
    exact = field.metadata.get("json_schema")
    if exact is None:
        return {}
    ret.clear()  # apispec merges what each function returns into ret: drop what it inferred
    return copy.deepcopy(exact)


# The documented Error: one schema per kind of `details`, discriminated on `error`.
_OPEN_DETAILS = {"type": "object", "description": "Nothing documented beyond the message."}
_ERROR_VARIANTS: dict[str, tuple[tuple[str, ...], dict[str, Any], tuple[str, ...]]] = {
    # component: (codes, documented details properties, required details)
    "ValidationError": (
        ("validation_error",),
        {
            "fields": {"type": "object", "description": "Field (or location) -> messages."},
            "field": {"type": "string", "description": "The action's or option's field at fault."},
            "allowed": {"type": "array", "items": {"type": "string"}},
        },
        (),
    ),
    "IllegalActionError": (
        ("illegal_action",),
        {
            "reason": {
                "type": "string",
                "description": (
                    "The rule that refused it (`match_not_finished`, `other_game_action`, "
                    "`turn_timed_out`, or the game's own)."
                ),
            },
        },
        ("reason",),
    ),
    "VersionError": (
        ("version_conflict", "precondition_failed"),
        {
            "current_version": {"type": "integer", "description": "The match's version now."},
        },
        ("current_version",),
    ),
    "RateLimitedError": (
        ("rate_limited",),
        {
            "retry_after_s": {
                "type": "integer",
                "minimum": 1,
                "description": "As `Retry-After`: seconds until the window ends.",
            },
        },
        ("retry_after_s",),
    ),
    "NotFoundError": (
        ("not_found",),
        {
            "match_id": {"type": "string"},
            "name": {"type": "string", "description": "The account name nobody holds."},
        },
        (),
    ),
    "ForbiddenError": (
        ("forbidden", "account_token_required", "webhook_target_forbidden"),
        {
            "missing_scope": {
                **ref("Scope"),
                "description": "An account token without the route's scope: the scope it lacks.",
            },
            "reason": {
                "type": "string",
                "description": "`webhook_target_forbidden`: why the server's policy refuses the target.",
            },
        },
        (),
    ),
    "SeatTakenError": (("seat_taken", "already_seated"), {"seat": {"type": "integer", "minimum": 0}}, ()),
    "UnavailableError": (
        ("unavailable",),
        {
            "retry": {"type": "boolean", "description": "Retrying soon is expected to succeed."},
            "replicas": {
                "type": "integer",
                "description": "A change stored but confirmed by fewer replicas than required: how many did.",
            },
            "required_replicas": {"type": "integer", "description": "`REDIS_WAIT_REPLICAS`."},
        },
        (),
    ),
    "NotEnoughReplicasError": (
        ("not_enough_replicas",),
        {
            "retry_after_s": {
                "type": "integer",
                "minimum": 1,
                "description": "As `Retry-After`: seconds before trying again.",
            },
            "replicas": {
                "type": "integer",
                "description": "In-sync replicas of the match's storage primary now.",
            },
            "required_replicas": {"type": "integer", "description": "`REDIS_WAIT_REPLICAS`."},
        },
        ("retry_after_s",),
    ),
}


def _error_variant(
    codes: tuple[str, ...], properties: dict[str, Any], required: tuple[str, ...], description: str
) -> dict[str, Any]:
    details: dict[str, Any] = (
        {"type": "object", "properties": properties} if properties else dict(_OPEN_DETAILS)
    )
    if required:
        details["required"] = list(required)
    code = (
        {"type": "string", "const": codes[0]} if len(codes) == 1 else {"type": "string", "enum": list(codes)}
    )
    return {
        "type": "object",
        "additionalProperties": False,
        "description": description,
        "required": ["error", "message", "details"],
        "properties": {
            "error": code,
            "message": {"type": "string", "description": "Human-readable reason."},
            "details": details,
        },
    }


def error_components() -> dict[str, Any]:
    """``{component name: schema}``: one error schema per kind of details (all
    the codes of ``errors.ERROR_CODES`` between them), and ``Error``, their
    union discriminated on ``error``."""
    components, mapping = {}, {}
    for name, (codes, properties, required) in _ERROR_VARIANTS.items():
        components[name] = _error_variant(codes, properties, required, f"`{'`, `'.join(codes)}`.")
        mapping.update(dict.fromkeys(codes, f"#/components/schemas/{name}"))
    others = tuple(c for c in ERROR_CODES if c not in mapping)
    components["GeneralError"] = _error_variant(others, {}, (), "Any other code.")
    mapping.update(dict.fromkeys(others, "#/components/schemas/GeneralError"))
    components["Error"] = {
        "description": "Every error body: `{error, message, details}`; `details` by `error`.",
        "oneOf": [ref(name) for name in [*_ERROR_VARIANTS, "GeneralError"]],
        "discriminator": {"propertyName": "error", "mapping": mapping},
    }
    return components


def action_list_components() -> dict[str, Any]:
    """``{component name: schema}``: ``<Game>ActionList`` (its actions are that
    game's) and ``ActionList``, their union discriminated on ``game``."""
    components, mapping = {}, {}
    for game_id in engine.list_games():
        name = component_name(game_id)[: -len("Action")] + "ActionList"
        components[name] = {
            "type": "object",
            "additionalProperties": False,
            "required": ["game", "status", "version", "seat", "actions"],
            "properties": {
                "game": {"type": "string", "const": game_id},
                "status": {
                    **ref("MatchStatus"),
                    "description": (
                        "The match's status: `finished` tells a bot that waits for its turn that "
                        "none will come (the stream's final `Match` may follow later)."
                    ),
                },
                "version": {"type": "integer", "description": "The match's version."},
                "seat": {"type": "integer", "minimum": 0, "description": "Your seat."},
                "actions": {
                    "type": "array",
                    "items": ref(component_name(game_id)),
                    "description": "Empty when you have nothing to decide.",
                },
            },
        }
        mapping[game_id] = f"#/components/schemas/{name}"
    components["ActionList"] = {
        "description": "Your legal actions now; `game` tells which game's actions they are.",
        "oneOf": [{"$ref": target} for target in mapping.values()],
        "discriminator": {"propertyName": "game", "mapping": mapping},
    }
    return components


def document_schema_as(api: Any, schema_cls: type, name: str, component: dict[str, Any]) -> None:
    """Document ``schema_cls`` (every reference to it) as the component ``component``
    named ``name``: for a union, which a marshmallow schema cannot state."""
    converter = api.ma_plugin.converter
    converter.refs[make_schema_key(resolve_schema_instance(schema_cls))] = name
    if name in api.spec.components.schemas:  # flask-smorest registered it already (Error)
        api.spec.components.schemas[name] = component
    else:
        api.spec.components.schema(name, component=component)


# Examples on the main bodies (spec.py puts them on their components;
# tests/service/test_openapi.py validates each against its schema).
EXAMPLES = {
    "CreateMatch": [
        {"game": "anno1503", "seats": [{"kind": "human", "name": "Ada"}, {"kind": "ai", "level": "hard"}]},
        {
            "game": "anno1452",
            "options": {"rules": "expert"},
            "seats": [{"kind": "human"}, {"kind": "open"}, {"kind": "ai", "level": "medium"}],
        },
    ],
    "PostAction": [
        {"action": {"type": "buy", "commodity": "spice"}, "version": 12},
        {"action": {"type": "move_ship", "ship": 0, "to": [2, 5]}},
    ],
    "ActionList": [
        {
            "game": "anno1503",
            "status": "active",
            "version": 12,
            "seat": 0,
            "actions": [
                {"type": "buy", "commodity": "spice"},
                {"type": "move_ship", "ship": 0, "to": [2, 5]},
                {"type": "end_turn"},
            ],
        }
    ],
    "Joined": [{"seat": 1, "token": "tab_3q2x9dW0Qm1s8ZkYc7Lr0NfVb5hHk2TuPa6EwXyJzIo"}],
    "Error": [
        {"error": "illegal_action", "message": "not enough gold", "details": {"reason": "not_enough_gold"}},
        {
            "error": "version_conflict",
            "message": "the match has moved on; reload it",
            "details": {"current_version": 13},
        },
        {
            "error": "rate_limited",
            "message": "more than 1200 requests in 60 s",
            "details": {"retry_after_s": 17},
        },
    ],
}
