"""openapi.yaml types every game's view and events: real ones must match.

Seeded random matches of every game (every seat count, every option choice
at least once) are played with the engine; at every step each seat's and the
spectator's view, filled in as the service fills it (``documents.view_for``),
and every event, redacted for each viewer as the service sends it
(``documents.public_event``), is validated against the components of the
generated spec with a JSON Schema 2020-12 validator (OpenAPI 3.1's dialect).
The components are closed (``additionalProperties: false``), so an
undocumented field fails, and so does an event type the union does not list.
"""

import random
import re
import zlib
from functools import cache
from pathlib import Path

import jsonschema_rs
import pytest

import engine
from service import create_app
from service.model.documents import public_event, view_for
from service.spec.create_match import seat_count_rules
from service.spec.document import spec_dict
from service.spec.games import SERVICE_EVENTS, add_game_schemas, camel

from .helpers import bearer, create

ROOT = Path(__file__).resolve().parents[2]
GAMES = engine.list_games()
MOVES_PER_MATCH = 1000


@cache
def _spec():
    # Building the app contacts no Redis (the clients are lazy).
    return spec_dict(create_app())


@cache
def validator(component):
    spec = _spec()
    return jsonschema_rs.Draft202012Validator(
        {"$ref": f"#/components/schemas/{component}", "components": spec["components"]}
    )


def check(component, instance, where):
    errors = list(validator(component).iter_errors(instance))
    if errors:
        shown = "\n".join(f"  at {list(e.instance_path)}: {e.message}"[:400] for e in errors[:5])
        pytest.fail(f"{where}: not a valid {component}:\n{shown}")


def option_sets(game_id):
    """``[(seats, options)]``: each seat count with each allowed choice of every
    option at least once (choices cycled together, not all combinations)."""
    out = []
    for seats, allowed in seat_count_rules(game_id).items():
        if any(not choices for choices in allowed.values()):
            continue
        rounds = max((len(choices) for choices in allowed.values()), default=1)
        for i in range(rounds):
            out.append((seats, {name: choices[i % len(choices)] for name, choices in allowed.items()}))
    return out


CASES = [(g, seats, options) for g in GAMES for seats, options in option_sets(g)]


def _seats_doc(seats):
    # What view_for reads of the stored document: each seat's name (one unnamed).
    return {"seats": [{"seat": s, "name": None if s == 1 else f"P{s}"} for s in range(seats)]}


def _check_views(game, doc, state, seats, where):
    union = camel(game.id) + "View"
    for viewer in [None, *range(seats)]:
        check(union, view_for(game, doc, state, viewer), f"{where} view for {viewer}")


def _check_events(game, events, seats, version, where, seen):
    union = camel(game.id) + "Event"
    for seq, event in enumerate(events, 1):
        seen.add(event["type"])
        others = _other_games_unions(game.id, event["type"])
        for viewer in [None, *range(seats)]:
            shown = public_event(seq, version, event, viewer)
            check(union, shown, f"{where} event {event['type']}")
            # A client reading the cross-game `Event` (openapi-python-client
            # tries each schema in turn) must not take it for another game's.
            for other in others:
                assert not validator(other).is_valid(shown), f"{where}: also a valid {other}"


@cache
def _other_games_unions(game_id, event_type):
    """The other games' event unions that list ``event_type`` too."""
    return tuple(
        camel(g) + "Event"
        for g in GAMES
        if g != game_id and event_type in _union_types(g) - set(SERVICE_EVENTS)
    )


def pick_action(rng, actions):
    """A random legal action: half the time uniformly, half the time of a
    uniformly chosen type (rare types, such as a title or a trade, come up
    far more often than among hundreds of ship moves)."""
    if rng.random() < 0.5:
        return rng.choice(actions)
    types = sorted({action["type"] for action in actions})
    chosen = rng.choice(types)
    return rng.choice([action for action in actions if action["type"] == chosen])


@pytest.mark.parametrize(
    ("game_id", "seats", "options"),
    CASES,
    ids=[f"{g}-{n}-{'-'.join(map(str, o.values()))}" for g, n, o in CASES],
)
def test_views_and_events_of_seeded_matches_match_the_spec(game_id, seats, options):
    game = engine.get_game(game_id)
    seed = zlib.crc32(repr((game_id, seats, options)).encode()) % 10_000
    rng = random.Random(seed)
    doc = _seats_doc(seats)
    state = game.setup(seats, options, seed)
    seen = set()
    for step in range(MOVES_PER_MATCH):
        where = f"{game_id} {seats} seats {options} seed {seed} step {step}"
        _check_views(game, doc, state, seats, where)
        if game.outcome(state) is not None:
            break
        seat = game.to_act(state)[0]
        state, events = game.apply(state, seat, pick_action(rng, game.legal_actions(state, seat)))
        _check_events(game, events, seats, step + 1, where, seen)
    assert seen, "the match produced no event at all"


# --- every event type the code can emit is in the union ----------------------

# `event(events, "x", ...)`, `event(events, "x" if ... else "y", ...)`,
# `_draft_event(events, seat, "x", ...)`, `{"type": "x", "seat": ...}`.
_ENGINE_EVENT = re.compile(
    r'\w*event\(\s*\w+,(?:\s*\w+,)?\s*"(\w+)"(?:\s+if\s[^,]+?\selse\s+"(\w+)")?'
    r'|"type":\s*"(\w+)",\s*"seat"'
)
_SERVICE_EVENT = re.compile(r'new_event\([^,]+,[^,]+,\s*"(\w+)"')


def _emitted_types(paths, pattern):
    found = set()
    for path in paths:
        for match in pattern.finditer(path.read_text(encoding="utf-8")):
            found.update(t for t in match.groups() if t)
    return found


def _union_types(game_id):
    return set(_spec()["components"]["schemas"][camel(game_id) + "Event"]["discriminator"]["mapping"])


@pytest.mark.parametrize("game_id", GAMES)
def test_every_event_type_the_engine_emits_is_in_the_games_union(game_id):
    sources = sorted((ROOT / "engine" / "games" / game_id).rglob("*.py"))  # subpackages too (expansion/)
    emitted = _emitted_types(sources, _ENGINE_EVENT)
    assert len(emitted) > 10, "the scan of the engine's event calls found almost nothing"
    listed = _union_types(game_id) - set(SERVICE_EVENTS)
    assert emitted - listed == set(), "event types missing from api_schemas.yaml"
    assert listed - emitted == set(), "api_schemas.yaml lists event types the engine never emits"


def test_every_event_type_the_service_emits_is_in_every_union():
    emitted = _emitted_types(sorted((ROOT / "service").rglob("*.py")), _SERVICE_EVENT)
    assert {"player_joined", "player_resigned"} <= emitted
    assert emitted == set(SERVICE_EVENTS)
    for game_id in GAMES:
        assert emitted <= _union_types(game_id)


def test_match_view_and_event_are_the_games_unions():
    schemas = _spec()["components"]["schemas"]
    view = schemas["Match"]["properties"]["view"]
    assert view["discriminator"]["propertyName"] == "game"
    assert set(view["discriminator"]["mapping"]) == set(GAMES)
    assert [r["$ref"].rsplit("/", 1)[1] for r in schemas["Event"]["anyOf"]] == [
        camel(g) + "Event" for g in GAMES
    ]
    for game_id in GAMES:
        union = schemas[camel(game_id) + "Event"]
        for ref in union["oneOf"]:
            event = schemas[ref["$ref"].rsplit("/", 1)[1]]
            assert event["additionalProperties"] is False
            assert set(event["required"]) == {"seq", "version", "type", "seat", "data"}


# --- the service's own events and views, through the HTTP API -----------------


def test_service_events_and_match_bodies_sent_over_http_match_the_spec(client):
    created = create(client, seats=[{"kind": "human", "name": "Ann"}, {"kind": "open"}])
    match_id, token = created["match"]["id"], created["tokens"]["0"]
    check("Match", created["match"], "created match")
    joined = client.post(f"/v1/matches/{match_id}/join", json={"name": "Bob"})
    assert joined.status_code == 201, joined.get_json()
    bob = joined.get_json()["token"]
    resigned = client.post(f"/v1/matches/{match_id}/resign", headers=bearer(token))
    assert resigned.status_code == 200, resigned.get_json()
    for viewer in (None, bob):  # the resigned seat's token is revoked
        headers = bearer(viewer) if viewer else {}
        events = client.get(f"/v1/matches/{match_id}/events", headers=headers).get_json()["events"]
        assert {"player_joined", "player_resigned"} <= {e["type"] for e in events}
        for event in events:
            check("Event", event, f"GET events ({event['type']})")
        check("Match", client.get(f"/v1/matches/{match_id}", headers=headers).get_json(), "GET match")


def test_an_undocumented_field_or_event_type_fails_validation():
    game = engine.get_game(GAMES[0])
    state = game.setup(game.min_players, {}, 1)
    view = view_for(game, _seats_doc(game.min_players), state, 0)
    union = camel(game.id) + "View"
    assert validator(union).is_valid(view)
    assert not validator(union).is_valid({**view, "secret": 1})
    event = {"seq": 1, "version": 1, "type": "no_such_event", "seat": None, "data": {}}
    assert not validator(camel(game.id) + "Event").is_valid(event)
    assert not validator("Event").is_valid(event)


def test_option_sets_cover_every_choice_of_every_option():
    for game_id in GAMES:
        game = engine.get_game(game_id)
        sets = [options for _seats, options in option_sets(game_id)]
        for name, spec in game.options.items():
            used = {options.get(name) for options in sets}
            assert set(spec.get("choices") or []) <= used, (game_id, name)
        seat_counts = {seats for seats, _options in option_sets(game_id)}
        assert seat_counts == set(range(game.min_players, game.max_players + 1))


def test_a_component_name_already_used_differently_is_refused():
    # The actions' enums share the spec's namespace (`Anno1503Commodity`):
    # the same name with the same meaning is shared, a different one is an error.
    game = engine.get_game(GAMES[0])
    ours = add_game_schemas({"components": {"schemas": {}}}, [game])["components"]["schemas"]
    name = next(n for n, s in ours.items() if "enum" in s)
    shared = {"components": {"schemas": {name: {**ours[name], "description": "elsewhere"}}}}
    assert add_game_schemas(shared, [game])["components"]["schemas"][name]["description"] == "elsewhere"
    clash = {"components": {"schemas": {name: {"type": "string", "enum": ["other"]}}}}
    with pytest.raises(ValueError, match=name):
        add_game_schemas(clash, [game])


def _unions(node):
    """Every anyOf/oneOf list under ``node``."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key in ("anyOf", "oneOf"):
                yield value
            yield from _unions(value)
    elif isinstance(node, list):
        for item in node:
            yield from _unions(item)


def test_no_union_offers_a_bare_const():
    # openapi-python-client 0.29 parses `anyOf: [integer, {const: x}]` by
    # checking the const only, so an integer fails to parse: a union takes a
    # named one-value enum instead (Anno1452Holder: a seat or `ottokar`).
    ours = add_game_schemas({"components": {"schemas": {}}})["components"]["schemas"]
    for union in _unions(ours):
        assert not any("const" in alternative for alternative in union), union


_KEYWORDS = {
    "type",
    "enum",
    "const",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "prefixItems",
    "minItems",
    "maxItems",
    "minimum",
    "maximum",
    "description",
    "anyOf",
    "oneOf",
    "discriminator",
    "propertyNames",
    "pattern",
    "minProperties",
    "$ref",
}


def _unknown_keywords(node, where):
    """Keys of schema objects that are no JSON Schema keyword (a YAML slip such
    as an unquoted comma in a flow mapping makes one)."""
    if isinstance(node, list):
        for i, item in enumerate(node):
            yield from _unknown_keywords(item, f"{where}[{i}]")
        return
    if not isinstance(node, dict):
        return
    for key, value in node.items():
        if key not in _KEYWORDS:
            yield f"{where}.{key}"
        elif key == "properties":
            for name, schema in value.items():
                yield from _unknown_keywords(schema, f"{where}.{name}")
        elif key not in ("enum", "const", "discriminator", "required"):
            yield from _unknown_keywords(value, f"{where}.{key}")


def test_every_key_of_the_game_schemas_is_a_json_schema_keyword():
    ours = add_game_schemas({"components": {"schemas": {}}})["components"]["schemas"]
    assert [key for name, schema in ours.items() for key in _unknown_keywords(schema, name)] == []
