"""openapi.yaml is generated from the schemas and committed; they must agree."""

import re
from pathlib import Path

import pytest
import yaml

import engine
from service.openapi import spec_yaml

ROOT = Path(__file__).resolve().parents[2]
# The spec and its page, Flask's static folder, and the web client's files.
UNDOCUMENTED = {"/openapi.yaml", "/openapi.json", "/docs", "/docs/assets/<path:name>",
                "/static/<path:filename>",
                "/", "/play", "/play/", "/play/<path:name>"}


def test_committed_spec_equals_generated(app):
    committed = (ROOT / "openapi.yaml").read_text()
    assert committed == spec_yaml(app), (
        "openapi.yaml is stale: run `.venv/bin/python -m service.openapi > openapi.yaml`")


def test_every_route_is_documented_with_a_camel_case_operation_id(app):
    spec = yaml.safe_load(spec_yaml(app))
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


def test_actions_are_a_discriminated_union_per_game(app):
    schemas = yaml.safe_load(spec_yaml(app))["components"]["schemas"]
    union = schemas["Anno1503Action"]
    assert union["discriminator"]["propertyName"] == "type"
    buy = schemas["Anno1503BuyAction"]
    assert buy["properties"]["type"]["enum"] == ["buy"]
    assert set(buy["required"]) == {"type", "commodity"}
    assert "spice" in buy["properties"]["commodity"]["enum"]
    develop = schemas["Anno1503DevelopAction"]["properties"]["slot"]
    assert (develop["minimum"], develop["maximum"]) == (1, 7)
    lose = schemas["Anno1503LoseTileAction"]
    assert "bridge" not in lose["required"]
    assert "null" in lose["properties"]["bridge"]["type"]
    move_to = schemas["Anno1503MoveShipAction"]["properties"]["to"]
    assert move_to["type"] == "array" and move_to["minItems"] == move_to["maxItems"] == 2
    assert len(union["oneOf"]) == len(union["discriminator"]["mapping"])


# --- the documented request bodies say exactly what the server accepts -------------


def _validator(spec, component):
    import jsonschema_rs  # noqa: PLC0415  (schemathesis' validator; in the test extra)

    return jsonschema_rs.Draft202012Validator(
        {"$ref": f"#/components/schemas/{component}", "components": spec["components"]})


def test_seat_requests_are_one_schema_per_kind(app):
    schemas = yaml.safe_load(spec_yaml(app))["components"]["schemas"]
    assert "level" in schemas["AiSeatRequest"]["properties"]
    for kind in ("Human", "Open"):
        seat = schemas[f"{kind}SeatRequest"]
        assert "level" not in seat["properties"] and seat["additionalProperties"] is False


def test_join_documents_the_real_seat_range_and_an_optional_body(app):
    spec = yaml.safe_load(spec_yaml(app))
    seat = spec["components"]["schemas"]["Join"]["properties"]["seat"]
    most = max(engine.get_game(g).max_players for g in engine.list_games())
    assert (seat["type"], seat["minimum"], seat["maximum"]) == ("integer", 0, most - 1)
    assert spec["paths"]["/v1/matches/{match_id}/join"]["post"]["requestBody"]["required"] is False


def test_create_match_is_one_schema_per_game_with_its_seat_counts(app):
    spec = yaml.safe_load(spec_yaml(app))
    body = spec["paths"]["/v1/matches"]["post"]["requestBody"]["content"]["application/json"]
    assert body["schema"] == {"$ref": "#/components/schemas/CreateMatch"}
    schemas = spec["components"]["schemas"]
    assert set(schemas["CreateMatch"]["discriminator"]["mapping"]) == set(engine.list_games())
    for game_id in engine.list_games():
        game = engine.get_game(game_id)
        component = schemas[game_id.capitalize() + "CreateMatch"]
        variants = component.get("anyOf", [component])
        counts = [n for v in variants
                  for n in range(v["properties"]["seats"]["minItems"],
                                 v["properties"]["seats"]["maxItems"] + 1)]
        assert counts == list(range(game.min_players, game.max_players + 1))


def test_seat_count_rules_are_exactly_what_the_engine_sets_up():
    """Each option may take any of its allowed choices independently: every
    such combination sets up, and no other does (so the spec is exact)."""
    from service.schemas import option_combinations, option_defaults, seat_count_rules  # noqa: PLC0415

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


@pytest.mark.parametrize(("body", "valid"), [
    ({"game": "anno1503", "seats": [{"kind": "human"}, {"kind": "ai", "level": "easy"}]}, True),
    ({"game": "anno1503", "seats": [{"kind": "human"}, {"kind": "open", "level": "easy"}]}, False),
    ({"game": "anno1503", "seats": [{"kind": "human"}]}, False),
    ({"game": "anno1503", "seats": [{"kind": "human"}] * 5}, False),
    ({"game": "anno1503", "options": {"colour": "red"}, "seats": [{"kind": "human"}] * 2}, False),
    ({"game": "anno1503", "dice": "reproducible", "seats": [{"kind": "human"}] * 2}, False),
    ({"game": "anno1503", "dice": "reproducible", "seed": 4.0, "seats": [{"kind": "human"}] * 2},
     True),
    ({"game": "anno1452", "seats": [{"kind": "human"}] * 3}, True),
    ({"game": "anno1452", "options": {"scenario": "ottokar_b"}, "seats": [{"kind": "human"}] * 2},
     True),
    ({"game": "anno1452", "seats": [{"kind": "human"}] * 2}, False),  # default standard: 3-4
    ({"game": "anno1452", "options": {"scenario": "ottokar_a"}, "seats": [{"kind": "human"}] * 4},
     False),
])
def test_the_server_accepts_exactly_the_documented_create_bodies(app, client, body, valid):
    spec = yaml.safe_load(spec_yaml(app))
    assert _validator(spec, "CreateMatch").is_valid(body) == valid
    status = client.post("/v1/matches", json=body).status_code
    assert status == (201 if valid else 422), (body, status)


def test_request_integers_are_documented_as_integers(app):
    schemas = yaml.safe_load(spec_yaml(app))["components"]["schemas"]
    for name in ("Join", "PostAction", "Anno1503CreateMatch"):
        for field, prop in schemas[name]["properties"].items():
            if "minimum" in prop:
                assert prop["type"] == "integer", (name, field)
