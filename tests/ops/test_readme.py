"""README.md stays true to the code: its walk-through paths are routes of the
app, its actions are actions of the game, its configuration table lists every
setting the service reads."""

import re
from pathlib import Path

import engine
from service import create_app
from service.config import DEFAULTS
from service.openapi import spec_dict

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text()


def _route_patterns():
    paths = spec_dict(create_app({"REDIS_URL": "redis://127.0.0.1:1/0"}))["paths"]
    return [re.compile("^" + re.sub(r"\{[^}]+\}", "[^/]+", path) + "$") for path in paths]


def _walkthrough_paths():
    # `$B` is http://127.0.0.1:8000/v1 in the walk-through; `$MATCH` an id.
    found = re.findall(r'\$B(/[^\s"?]*)', README)
    return sorted({"/v1" + path.replace("$MATCH", "m1") for path in found})


def test_walkthrough_paths_are_routes():
    patterns = _route_patterns()
    paths = _walkthrough_paths()
    assert {"/v1/matches", "/v1/matches/m1/actions", "/v1/matches/m1/events",
            "/v1/matches/m1/replay"} <= set(paths)
    for path in paths:
        assert any(p.match(path) for p in patterns), path


def test_walkthrough_actions_belong_to_the_game():
    game = engine.get_game("anno1503")
    posted = re.findall(r'\\?"type\\?": \\?"(\w+)', README)
    assert "buy" in posted
    for action_type in posted:
        assert action_type in game.action_specs, action_type


def test_every_setting_is_documented():
    for key in DEFAULTS:
        assert f"`{key}`" in README, key


def test_the_readme_links_only_files_of_the_repository():
    for target in re.findall(r"\]\(([^)#]+)\)", README):
        if "://" in target:
            continue
        assert not target.startswith(".."), target
        assert (ROOT / target).exists(), target
    assert "docs/api-contract.md" in README
