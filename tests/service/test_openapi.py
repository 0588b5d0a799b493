"""openapi.yaml is generated from the schemas and committed; they must agree."""

import random
import re
from pathlib import Path

# schemathesis' JSON Schema validator (schemathesis is in the test extra).
import jsonschema_rs
import pytest
import yaml

import engine
import service.spec.document
from service import gunicorn_worker
from service.model import errors
from service.spec.actions import validate_action
from service.spec.create_match import option_combinations, option_defaults, seat_count_rules
from service.spec.document import spec_yaml

from .conftest import make_app

ROOT = Path(__file__).resolve().parents[2]
# The spec and its page, Flask's static folder, the web client's files, and
# the metrics (answered on the internal port only).
UNDOCUMENTED = {
    "/metrics",
    "/openapi.yaml",
    "/openapi.json",
    "/docs",
    "/docs/assets/<path:name>",
    "/static/<path:filename>",
    "/",
    "/play",
    "/play/",
    "/play/<path:name>",
}


@pytest.fixture(scope="module")
def generated(redis_server):
    """The generated spec, parsed once for the module (building and parsing
    it took two seconds a test); tests only read it."""
    app = make_app(redis_server.url)
    try:
        return yaml.load(spec_yaml(app), Loader=yaml.CSafeLoader)
    finally:
        app.extensions["tabula"].close()


def test_committed_spec_equals_generated(app):
    committed = (ROOT / "openapi.yaml").read_text()
    assert committed == spec_yaml(app), (
        "openapi.yaml is stale: run `.venv/bin/python -m service.openapi > openapi.yaml`"
    )


def test_every_route_is_documented_with_a_camel_case_operation_id(app, generated):
    spec = generated
    assert spec["openapi"] == "3.1.0"
    documented = set(spec["paths"])
    for rule in app.url_map.iter_rules():
        if rule.rule in UNDOCUMENTED:
            continue
        path = re.sub(r"<(?:[^:>]+:)?([^>]+)>", r"{\1}", rule.rule)
        assert path in documented, path
    for item in spec["paths"].values():
        for method, operation in item.items():
            if method in ("get", "post", "put", "patch", "delete"):
                assert re.fullmatch(r"[a-z][A-Za-z0-9]*", operation["operationId"])


def test_actions_are_a_discriminated_union_per_game(generated):
    schemas = generated["components"]["schemas"]
    union = schemas["Anno1503Action"]
    assert union["discriminator"]["propertyName"] == "type"
    buy = schemas["Anno1503BuyAction"]
    assert buy["properties"]["type"]["const"] == "buy"
    assert buy["additionalProperties"] is False
    assert set(buy["required"]) == {"type", "commodity"}
    assert buy["properties"]["commodity"]["$ref"] == "#/components/schemas/Anno1503Commodity"
    assert "spice" in schemas["Anno1503Commodity"]["enum"]
    develop = schemas["Anno1503DevelopAction"]["properties"]["slot"]
    assert (develop["minimum"], develop["maximum"]) == (1, 7)
    lose = schemas["Anno1503LoseTileAction"]
    assert "bridge" not in lose["required"]
    assert {"type": "null"} in lose["properties"]["bridge"]["anyOf"]
    move_to = schemas["Anno1503MoveShipAction"]["properties"]["to"]
    assert move_to["type"] == "array" and move_to["minItems"] == move_to["maxItems"] == 2
    assert [item["maximum"] for item in move_to["prefixItems"]] == [5, 17]
    assert len(union["oneOf"]) == len(union["discriminator"]["mapping"])


def _walk(node, path=()):
    """Every (path, dict) inside a JSON document."""
    if isinstance(node, dict):
        yield path, node
        for key, value in node.items():
            yield from _walk(value, (*path, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _walk(value, (*path, index))


def test_no_single_value_enum_and_no_inline_enum_repeated(app, monkeypatch):
    """`const` gives generators a literal; an enum used twice is one named component.

    Checked on the spec without the games' views and events (service/spec/games.py,
    tests/service/test_game_schemas.py), which this test does not cover."""
    monkeypatch.setattr(service.spec.document, "add_game_schemas", lambda spec: spec)
    spec = yaml.load(spec_yaml(app), Loader=yaml.CSafeLoader)
    seen = {}
    for path, node in _walk(spec):
        values = node.get("enum")
        if not isinstance(values, list):
            continue
        assert len(values) > 1, path
        assert None not in values, path  # nullable: anyOf [schema, {type: null}] instead
        if path[:2] != ("components", "schemas") or len(path) != 3:
            seen.setdefault(tuple(map(str, values)), []).append(path)
    repeated = {values: paths for values, paths in seen.items() if len(paths) > 1}
    assert not repeated, repeated


def test_an_action_is_never_an_open_object(generated):
    """PostAction.action, ActionList.actions[] and ReplayAction.action are unions
    of closed schemas: a misspelt parameter does not fit any of them."""
    schemas = generated["components"]["schemas"]
    for prop in (
        schemas["PostAction"]["properties"]["action"],
        schemas["ReplayAction"]["properties"]["action"],
        schemas["Anno1503ActionList"]["properties"]["actions"]["items"],
    ):
        assert "type" not in prop and "additionalProperties" not in prop, prop
        assert "oneOf" in prop or "$ref" in prop, prop
    for game_id in engine.list_games():
        for ref in schemas[f"{game_id.capitalize()}Action"]["oneOf"]:
            assert schemas[ref["$ref"].rsplit("/", 1)[1]]["additionalProperties"] is False


def test_the_action_list_is_narrowed_by_game(generated):
    schemas = generated["components"]["schemas"]
    mapping = schemas["ActionList"]["discriminator"]["mapping"]
    assert set(mapping) == set(engine.list_games())
    for game_id, ref in mapping.items():
        variant = schemas[ref.rsplit("/", 1)[1]]
        assert variant["properties"]["game"]["const"] == game_id
        assert variant["properties"]["actions"]["items"]["$ref"].endswith(f"/{game_id.capitalize()}Action")


def test_every_error_code_the_service_emits_is_documented(generated):
    """The Error union's codes are errors.ERROR_CODES, and the code answering
    errors uses no other: literal codes of ApiError(...) and the mapping tables."""
    schemas = generated["components"]["schemas"]
    documented = set(schemas["Error"]["discriminator"]["mapping"])
    assert documented == set(errors.ERROR_CODES)
    emitted = set(errors._HTTP_CODES.values()) | set(gunicorn_worker.ERROR_CODES.values())
    emitted |= {code for _, code in errors._ENGINE_STATUS.values()}
    for path in (ROOT / "service").rglob("*.py"):
        text = path.read_text()
        emitted |= set(re.findall(r'ApiError\(\s*\d+,\s*"(\w+)"', text))
        emitted |= set(re.findall(r'"error":\s*"(\w+)"', text))
    emitted.discard("too_far_behind")  # an event of the stream (service/live/hub.py), not a response
    assert emitted <= documented, emitted - documented
    assert len(emitted) >= 15


def test_error_details_are_typed_per_code(generated):
    schemas = generated["components"]["schemas"]

    def details(code):
        ref = schemas["Error"]["discriminator"]["mapping"][code]
        return schemas[ref.rsplit("/", 1)[1]]["properties"]["details"]

    assert details("illegal_action")["required"] == ["reason"]
    assert details("version_conflict")["properties"]["current_version"]["type"] == "integer"
    assert details("rate_limited")["required"] == ["retry_after_s"]
    assert "fields" in details("validation_error")["properties"]


def test_every_429_declares_retry_after(generated):
    spec = generated
    count = 0
    for item in spec["paths"].values():
        for operation in item.values():
            if isinstance(operation, dict) and "429" in operation.get("responses", {}):
                assert "Retry-After" in operation["responses"]["429"]["headers"]
                count += 1
    assert count >= 10


def test_times_are_date_times_and_levels_an_enum(generated):
    schemas = generated["components"]["schemas"]
    for field in ("created_at", "updated_at"):
        assert schemas["MatchSummary"]["properties"][field]["format"] == "date-time"
    level = schemas["Seat"]["properties"]["level"]
    assert {"$ref": "#/components/schemas/AiLevel"} in level["anyOf"]
    assert schemas["AiSeatRequest"]["properties"]["level"]["$ref"] == "#/components/schemas/AiLevel"


def test_every_operation_states_its_security(generated):
    spec = generated
    assert spec["info"]["license"]["name"]
    # Public operations take the document's default: an optional bearer.
    assert spec["security"] == [{}, {"bearer": []}]
    for item in spec["paths"].values():
        for method, operation in item.items():
            if method in ("get", "post", "put", "delete"):
                assert operation.get("security", spec["security"]), operation["operationId"]


def test_the_examples_fit_their_schemas(generated):
    spec = generated
    checked = 0
    for name, schema in spec["components"]["schemas"].items():
        for example in schema.get("examples", []):
            problems = [str(e) for e in _validator(spec, name).iter_errors(example)]
            assert not problems, (name, example, problems)
            checked += 1
    assert checked >= 5


# --- the documented request bodies say exactly what the server accepts -------------


def _validator(spec, component):
    return jsonschema_rs.Draft202012Validator(
        {"$ref": f"#/components/schemas/{component}", "components": spec["components"]}
    )


def test_seat_requests_are_one_schema_per_kind(generated):
    schemas = generated["components"]["schemas"]
    assert "level" in schemas["AiSeatRequest"]["properties"]
    for kind in ("Human", "Open"):
        seat = schemas[f"{kind}SeatRequest"]
        assert "level" not in seat["properties"] and seat["additionalProperties"] is False


def test_join_documents_the_real_seat_range_and_an_optional_body(generated):
    spec = generated
    seat = spec["components"]["schemas"]["Join"]["properties"]["seat"]
    most = max(engine.get_game(g).max_players for g in engine.list_games())
    assert (seat["type"], seat["minimum"], seat["maximum"]) == ("integer", 0, most - 1)
    assert spec["paths"]["/v1/matches/{match_id}/join"]["post"]["requestBody"]["required"] is False


def test_create_match_is_one_schema_per_game_with_its_seat_counts(generated):
    spec = generated
    body = spec["paths"]["/v1/matches"]["post"]["requestBody"]["content"]["application/json"]
    assert body["schema"] == {"$ref": "#/components/schemas/CreateMatch"}
    schemas = spec["components"]["schemas"]
    games = {
        schemas[ref["$ref"].rsplit("/", 1)[1]].get("description", "")
        for ref in schemas["CreateMatch"]["oneOf"]
    }
    assert len(schemas["CreateMatch"]["oneOf"]) == len(engine.list_games()), games
    for game_id in engine.list_games():
        game = engine.get_game(game_id)
        component = schemas[game_id.capitalize() + "CreateMatch"]
        variants = (
            [schemas[v["$ref"].rsplit("/", 1)[1]] for v in component["anyOf"]]
            if "anyOf" in component
            else [component]
        )
        counts = [
            n
            for v in variants
            for n in range(v["properties"]["seats"]["minItems"], v["properties"]["seats"]["maxItems"] + 1)
        ]
        assert counts == list(range(game.min_players, game.max_players + 1))


def test_seat_count_rules_are_exactly_what_the_engine_sets_up():
    """Each option may take any of its allowed choices independently: every
    such combination sets up, and no other does (so the spec is exact)."""
    for game_id in engine.list_games():
        game = engine.get_game(game_id)
        combinations = option_combinations(game)
        assert combinations is not None
        for seats, allowed in seat_count_rules(game_id).items():
            for combination in combinations:
                documented = all(combination[name] in allowed[name] for name in combination)
                try:
                    game.setup(seats, {**option_defaults(game), **combination}, 0)
                    sets_up = True
                except engine.EngineError:
                    sets_up = False
                assert documented == sets_up, (game_id, seats, combination)


@pytest.mark.parametrize(
    ("body", "valid"),
    [
        ({"game": "anno1503", "seats": [{"kind": "human"}, {"kind": "ai", "level": "easy"}]}, True),
        ({"game": "anno1503", "seats": [{"kind": "human"}, {"kind": "open", "level": "easy"}]}, False),
        ({"game": "anno1503", "seats": [{"kind": "human"}]}, False),
        ({"game": "anno1503", "seats": [{"kind": "human"}] * 5}, False),
        ({"game": "anno1503", "options": {"colour": "red"}, "seats": [{"kind": "human"}] * 2}, False),
        ({"game": "anno1503", "dice": "reproducible", "seats": [{"kind": "human"}] * 2}, False),
        ({"game": "anno1503", "dice": "reproducible", "seed": 4.0, "seats": [{"kind": "human"}] * 2}, True),
        ({"game": "anno1452", "seats": [{"kind": "human"}] * 3}, True),
        ({"game": "anno1452", "options": {"scenario": "ottokar_b"}, "seats": [{"kind": "human"}] * 2}, True),
        # issue 32: with 2 seats the game's default scenario is ottokar_a
        ({"game": "anno1452", "seats": [{"kind": "human"}] * 2}, True),
        ({"game": "anno1452", "options": {"scenario": "ottokar_a"}, "seats": [{"kind": "human"}] * 4}, False),
        # rated: fair dice and at most one human seat (none here: no account token needed)
        ({"game": "anno1503", "rated": True, "seats": [{"kind": "ai"}, {"kind": "open"}]}, True),
        (
            {
                "game": "anno1503",
                "rated": True,
                "dice": "reproducible",
                "seed": 1,
                "seats": [{"kind": "ai"}] * 2,
            },
            False,
        ),
        ({"game": "anno1503", "rated": True, "seats": [{"kind": "human"}] * 2}, False),
    ],
)
def test_the_server_accepts_exactly_the_documented_create_bodies(client, body, valid, generated):
    spec = generated
    assert _validator(spec, "CreateMatch").is_valid(body) == valid
    status = client.post("/v1/matches", json=body).status_code
    assert status == (201 if valid else 422), (body, status)


def test_request_integers_are_documented_as_integers(generated):
    schemas = generated["components"]["schemas"]
    for name in ("Join", "PostAction", "Anno1503CreateMatch"):
        for field, prop in schemas[name]["properties"].items():
            if "minimum" in prop:
                assert prop["type"] == "integer", (name, field)


def test_the_documented_actions_accept_what_the_server_accepts(generated):
    """Every legal action of seeded playouts fits its game's documented union
    (and the other game's does not take it); a misspelt or extra parameter fits
    neither, as the server refuses it."""
    spec = generated
    games = engine.list_games()
    unions = {g: _validator(spec, f"{g.capitalize()}Action") for g in games}
    for game_id in games:
        game, rng = engine.get_game(game_id), random.Random(3)
        state, checked = game.setup(game.max_players, {}, 3), 0
        for _ in range(120):
            if game.outcome(state) is not None:
                break
            seat = game.to_act(state)[0]
            actions = game.legal_actions(state, seat)
            for action in actions:
                assert unions[game_id].is_valid(action), action
                assert not any(unions[g].is_valid(action) for g in games if g != game_id), action
                typo = {**action, "extra": 1}
                assert validate_action(game, typo) and not unions[game_id].is_valid(typo), typo
                checked += 1
            state, _ = game.apply(state, seat, rng.choice(actions))
        assert checked > 50, (game_id, checked)
