"""The compiled rules (engine/native.py): used only when fresh, and the same game.

``make test`` builds them and sets ``TABULA_EXPECT_NATIVE=1``, so the whole
suite runs on the compiled modules; here seeded matches of every Anno 1452
variant are played by the plain Python and by the compiled rules, in two
processes, and must give the same events and the same final state.
"""

import json
import os
import sys

import pytest

from engine import native

from .support.child import json_from_child

PACKAGE = "engine.games.anno1452"

# Plays seeded random matches and prints one line of JSON: whether the rules
# ran compiled, and every match's events and final dump.
_PLAY = """
import hashlib, json, sys
import engine
from engine import native
from engine.rng import mix_seed
game, player = engine.get_game("anno1452"), engine.ai.get_player("random")
digest, actions = hashlib.sha256(), 0
for players, options in json.loads(sys.argv[1]):
    for seed in range(3):
        state, events = game.setup_with_events(players, options, seed)
        digest.update(json.dumps(events, sort_keys=True).encode())
        while game.outcome(state) is None:
            seat = game.to_act(state)[0]
            legal = game.legal_actions(state, seat)
            action = player.choose(game, seat, None, legal, seed=mix_seed(seed, actions))
            digest.update(json.dumps([legal, action], sort_keys=True).encode())
            state, events = game.apply(state, seat, action)
            digest.update(json.dumps(events, sort_keys=True).encode())
            actions += 1
        digest.update(json.dumps([game.dump(state), game.outcome(state)], sort_keys=True).encode())
print(json.dumps({"compiled": native.active(), "actions": actions, "digest": digest.hexdigest()}))
"""
VARIANTS = [
    [2, {"rules": "basic"}],
    [3, {"rules": "basic"}],
    [4, {"rules": "expert"}],
    [3, {"rules": "expert"}],
    [2, {"rules": "basic", "scenario": "ottokar_a"}],
]


def _play(native_setting):
    return json_from_child(_PLAY, json.dumps(VARIANTS), TABULA_NATIVE=native_setting)


def test_make_test_runs_the_suite_on_the_compiled_rules():
    expected = os.environ.get("TABULA_EXPECT_NATIVE") == "1" or (
        native.is_fresh() and os.environ.get("TABULA_NATIVE", "1") != "0"
    )
    assert native.active(PACKAGE) is expected


def test_the_compiled_and_the_python_rules_play_the_same_matches():
    if not native.is_fresh() and os.environ.get("TABULA_EXPECT_NATIVE") != "1":
        pytest.skip("no build matches the sources (make builds it: python engine/native.py build)")
    python, compiled = _play("0"), _play("1")
    assert (python["compiled"], compiled["compiled"]) == (False, True)
    assert python["actions"] > 1000
    assert compiled == {**python, "compiled": True}


def _fake_build(root, digest):
    (root / "engine" / "games" / "anno1452").mkdir(parents=True)
    (root / native.DIGEST_FILE).write_text(digest + "\n")


def test_a_build_made_from_other_sources_is_not_used(tmp_path, monkeypatch):
    monkeypatch.setenv("TABULA_NATIVE_DIR", str(tmp_path))
    monkeypatch.delenv("TABULA_NATIVE", raising=False)
    _fake_build(tmp_path, "0" * 64)
    assert native.package_path(PACKAGE, ["src"]) == ["src"]


def test_a_build_made_from_these_sources_comes_first(tmp_path, monkeypatch):
    monkeypatch.setenv("TABULA_NATIVE_DIR", str(tmp_path))
    monkeypatch.delenv("TABULA_NATIVE", raising=False)
    monkeypatch.setattr(sys, "path", list(sys.path))
    _fake_build(tmp_path, native.source_digest())
    assert native.package_path(PACKAGE, ["src"]) == [str(tmp_path / "engine" / "games" / "anno1452"), "src"]
    assert str(tmp_path) in sys.path
    monkeypatch.setenv("TABULA_NATIVE", "0")
    assert native.package_path(PACKAGE, ["src"]) == ["src"]


def test_an_edited_source_changes_the_digest(tmp_path, monkeypatch):
    for path in native.sources():
        copy = tmp_path / path.relative_to(native.ROOT)
        copy.parent.mkdir(parents=True, exist_ok=True)
        copy.write_bytes(path.read_bytes())
    monkeypatch.setattr(native, "ROOT", tmp_path)
    before = native.source_digest()
    board = tmp_path / "engine" / "games" / "anno1452" / "board.py"
    board.write_text(board.read_text() + "\n# an edit\n")
    assert native.source_digest() != before
