"""openapi.yaml is generated from the schemas and committed; they must agree."""

import re
from pathlib import Path

import yaml

from service.openapi import spec_yaml

ROOT = Path(__file__).resolve().parents[2]
UNDOCUMENTED = {"/openapi.yaml", "/openapi.json", "/docs", "/static/<path:filename>"}


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
