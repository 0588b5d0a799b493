"""Typed game views and events in openapi.yaml, from schema files beside the rules.

Each game describes what its ``view`` and its events look like in
``engine/games/<game>/api_schemas.yaml`` (next to its rules: a new game adds
its own file, the service needs no change). This module expands those files
into OpenAPI 3.1 components and wires them into the spec:

- ``<Game>View``: ``game.view(state, viewer)`` with the names filled in;
  ``Match.view`` is their ``oneOf``, discriminated by the view's own ``game``.
- ``<Game><Type>Event`` per event type (``type`` is a ``const``; ``data`` is
  ``<Game><Type>Data``) and the union ``<Game>Event`` (``oneOf`` +
  ``discriminator`` on ``type``), which also holds the service's own events
  (``player_joined``...: ``SERVICE_EVENTS`` below). ``Event`` is the ``anyOf``
  of the games' unions: one event type can exist in two games.

A name the spec already has (the actions' named enums, such as
``Anno1503Commodity`` or ``Anno1452Region``) is shared when it means the same
and refused otherwise, so the view and the actions use one enum.

The wire format is untouched: the marshmallow schemas still dump the same
JSON; only the documentation is finer. ``tests/service/test_game_schemas.py``
validates real views and events of seeded matches against these components.

Shorthands in the schema files (plain JSON Schema otherwise):

- ``$ref: IslandTile`` (no ``#``): the game's component (``Anno1503IslandTile``);
- ``enum`` without ``type``: ``type`` is added (``string`` or ``integer``);
- ``props: {a: ..., b?: ...}``: a closed object (``additionalProperties:
  false``) whose keys are required unless they end in ``?``;
- ``nullable: true``: the schema or null (``type: [t, "null"]`` for a plain
  type, else ``anyOf`` with ``{type: "null"}``).

    >>> import engine
    >>> components = game_components(engine.get_game("anno1503"))
    >>> components["Anno1503Event"]["discriminator"]["mapping"]["turn_started"]
    '#/components/schemas/Anno1503TurnStartedEvent'
"""

import copy
import importlib
import inspect
from functools import cache
from pathlib import Path
from typing import Any

import yaml

import engine

SCHEMA_FILE = "api_schemas.yaml"
REF_PREFIX = "#/components/schemas/"

# The service's own events (service/play/matches.py, playing.py, rematch.py), in
# the same shorthand; each game's union lists them too.
AI_LEVEL = {"$ref": REF_PREFIX + "AiLevel"}  # named by the seats' schemas

SERVICE_EVENTS = {
    "player_joined": {
        "description": "A person took an open seat (`POST .../join`).",
        "data": {
            "props": {
                "name": {"type": "string", "nullable": True, "description": "The display name, or null."}
            }
        },
    },
    "player_resigned": {
        "description": "The seat resigned; the `medium` AI plays it on (a loss).",
        "data": {"props": {"level": AI_LEVEL}},
    },
    "turn_timed_out": {
        "description": "The seat's turn timer ran out: the AI of `level` decided for it.",
        "data": {
            "props": {
                "consecutive": {
                    "type": "integer",
                    "minimum": 1,
                    "description": "Time-outs of this seat in a row.",
                },
                "level": AI_LEVEL,
            }
        },
    },
    "seat_handed_to_ai": {
        "description": "After too many time-outs in a row the AI keeps the seat (a loss).",
        "data": {
            "props": {
                "level": AI_LEVEL,
                "reason": {"enum": ["turn_timeouts"]},
                "timeouts": {"type": "integer", "minimum": 1},
            }
        },
    },
    "rematch_created": {
        "description": "A seat asked for a rematch (`POST .../rematch`): its match id.",
        "data": {"props": {"match_id": {"type": "string"}}},
    },
}


def camel(name: str) -> str:
    """``turn_started`` -> ``TurnStarted``; ``anno1503`` -> ``Anno1503``."""
    return "".join(part[:1].upper() + part[1:] for part in name.split("_"))


def _ref(name: str) -> dict[str, str]:
    return {"$ref": REF_PREFIX + name}


def expand(node: Any, prefix: str) -> Any:
    """The shorthand ``node`` as plain JSON Schema, local refs named ``prefix + name``."""
    if isinstance(node, list):
        return [expand(item, prefix) for item in node]
    if not isinstance(node, dict):
        return node
    node = dict(node)
    nullable = node.pop("nullable", False)
    if "props" in node:
        props = node.pop("props") or {}
        node = {
            "type": "object",
            "properties": {
                key.rstrip("?"): _const_if_single(expand(value, prefix)) for key, value in props.items()
            },
            "required": [key for key in props if not key.endswith("?")],
            "additionalProperties": False,
            **node,
        }
        if not node["required"]:
            del node["required"]
    else:
        node = {
            key: (value if key in ("enum", "const") else expand(value, prefix)) for key, value in node.items()
        }
        if "enum" in node and "type" not in node:
            node = {"type": _json_type(node["enum"]), **node}
    ref = node.get("$ref")
    if isinstance(ref, str) and not ref.startswith("#"):
        node["$ref"] = REF_PREFIX + prefix + ref
    return _nullable(node) if nullable else node


def _const_if_single(node: Any) -> Any:
    """A one-value ``enum`` as ``const``: generators make a literal of it, not
    an enum class of one member."""
    if isinstance(node, dict) and len(node.get("enum") or ()) == 1:
        node = {key: value for key, value in node.items() if key != "enum"} | {"const": node["enum"][0]}
    return node


def _json_type(values: list) -> str:
    """``string`` or ``integer``: what generators need beside an ``enum``."""
    if all(isinstance(v, str) for v in values):
        return "string"
    if all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        return "integer"
    raise ValueError(f"an enum of mixed types: {values}")


def _nullable(node: dict[str, Any]) -> dict[str, Any]:
    if isinstance(node.get("type"), str) and "enum" not in node:
        return {**node, "type": [node["type"], "null"]}
    described = {"description": node.pop("description")} if "description" in node else {}
    return {**described, "anyOf": [node, {"type": "null"}]}


def _event_components(prefix: str, events: dict[str, Any], title: str = "the service") -> dict[str, Any]:
    """``{name: schema}`` of each event (full Event object) and its data."""
    components = {}
    for event_type, spec in events.items():
        name = prefix + camel(event_type)
        components[name + "Data"] = expand(spec.get("data") or {"props": {}}, prefix)
        components[name + "Event"] = {
            "type": "object",
            "description": f"`{event_type}`, an event of {title}"
            + (f": {spec['description']}" if spec.get("description") else "."),
            "additionalProperties": False,
            "required": ["seq", "version", "type", "seat", "data"],
            "properties": {
                "seq": {"type": "integer", "description": "Position in the match's event log."},
                "version": {"type": "integer", "description": "Match version it belongs to."},
                "type": {"type": "string", "const": event_type},
                "seat": {
                    "type": ["integer", "null"],
                    "minimum": 0,
                    "description": "The seat it is about, or null (the table, the supply).",
                },
                "data": _ref(name + "Data"),
            },
        }
    return components


@cache
def _service_event_components() -> dict[str, Any]:
    return _event_components("", SERVICE_EVENTS)


def schema_file(game: Any) -> Path:
    """The game's ``api_schemas.yaml``: in the package of the module defining its
    class, found by the package's ``__init__`` (a compiled module's own file is
    in the build, engine/native.py)."""
    package = importlib.import_module(type(game).__module__.rpartition(".")[0])
    return Path(inspect.getfile(package)).with_name(SCHEMA_FILE)


@cache
def _game_components(game_id: str) -> dict[str, Any]:
    game = engine.get_game(game_id)
    prefix = camel(game_id)
    described = yaml.safe_load(schema_file(game).read_text(encoding="utf-8"))
    components = {
        prefix + name: expand(schema, prefix) for name, schema in (described.get("schemas") or {}).items()
    }
    events = described["events"]
    clash = set(events) & set(SERVICE_EVENTS)
    if clash:
        raise ValueError(f"{game_id} events {sorted(clash)} clash with the service's own events")
    components.update(_event_components(prefix, events, game.title))
    mapping = {t: REF_PREFIX + prefix + camel(t) + "Event" for t in events}
    mapping.update({t: REF_PREFIX + camel(t) + "Event" for t in SERVICE_EVENTS})
    components[prefix + "Event"] = {
        "description": f"An event of a {game.title} match, as its viewer is sent it: one "
        "schema per `type` (the game's, then the service's own).",
        "oneOf": [{"$ref": ref} for ref in mapping.values()],
        "discriminator": {"propertyName": "type", "mapping": mapping},
    }
    if prefix + "View" not in components:
        raise ValueError(f"{schema_file(game)}: no `View` schema (what game.view returns)")
    return components


def game_components(game: Any) -> dict[str, Any]:
    """``{component name: schema}`` of one game's view and events (a deep copy)."""
    return copy.deepcopy(_game_components(game.id))


def components(games: list[Any]) -> dict[str, Any]:
    """Every game's components, the service's events and the ``Event`` union."""
    out = copy.deepcopy(_service_event_components())
    for game in games:
        out.update(game_components(game))
    out["Event"] = {
        "description": "One logged event, redacted for its viewer: `seq`, `version`, `type`, "
        "`seat`, `data`. Each game's `<Game>Event` is a union discriminated "
        "by `type`, which also holds the service's own events "
        "(`player_joined`, `player_resigned`, `turn_timed_out`, "
        "`seat_handed_to_ai`, `rematch_created`).",
        "anyOf": [_ref(camel(game.id) + "Event") for game in games],
    }
    return out


def view_schema(games: list[Any], description: str) -> dict[str, Any]:
    """``Match.view``: one of the games' views, told apart by its ``game``."""
    mapping = {game.id: REF_PREFIX + camel(game.id) + "View" for game in games}
    return {
        "description": description,
        "oneOf": [{"$ref": ref} for ref in mapping.values()],
        "discriminator": {"propertyName": "game", "mapping": mapping},
    }


def _check_same_if_defined(schemas: dict[str, Any], name: str, schema: dict[str, Any]) -> None:
    """A name defined elsewhere too (the actions' enums, ``Anno1503Commodity``)
    is shared only when it means the same; ``Event`` is replaced on purpose."""
    existing = schemas.get(name)
    if existing is None or name == "Event":
        return

    def meaning(s: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in s.items() if k not in ("description", "title")}

    if meaning(existing) != meaning(schema):
        raise ValueError(f"component {name} is defined twice, differently: {existing} and {schema}")


def add_game_schemas(spec: dict[str, Any], games: list[Any] | None = None) -> dict[str, Any]:
    """A copy of the spec dict with typed views and events (``spec`` is not changed).

    Adds the components above, makes ``Match.view`` the games' views and
    ``Event`` the union of their events.
    """
    games = games if games is not None else [engine.get_game(g) for g in engine.list_games()]
    spec = dict(spec)
    spec["components"] = dict(spec.get("components", {}))
    schemas = spec["components"]["schemas"] = dict(spec["components"].get("schemas", {}))
    for name, schema in components(games).items():
        _check_same_if_defined(schemas, name, schema)
        schemas[name] = schemas.get(name, schema) if name != "Event" else schema
    if "Match" in schemas:
        match = schemas["Match"]
        view = match["properties"]["view"]
        schemas["Match"] = {
            **match,
            "properties": {**match["properties"], "view": view_schema(games, view.get("description", ""))},
        }
    return spec
