"""README.md stays true to the code: its walk-through paths are routes of the
app, its actions are actions of the game, its configuration table lists every
setting the service reads; it and the docs link only files of the repository.
(tests/ops/test_doc_code_blocks.py runs their code blocks.)"""

import re
from pathlib import Path

import pytest

import engine
from service import create_app
from service.runtime.config import DEFAULTS
from service.spec.document import spec_dict

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text()
# The Markdown a reader of the repository follows links in.
DOCS = [
    ROOT / "README.md",
    ROOT / "client" / "README.md",
    ROOT / "bench" / "README.md",
    ROOT / "deploy" / "k8s" / "README.md",
    *sorted((ROOT / "docs").rglob("*.md")),
    *sorted((ROOT / "engine" / "games").glob("*/DESIGN.md")),
]


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
    assert {"/v1/matches", "/v1/matches/m1/actions", "/v1/matches/m1/events", "/v1/matches/m1/replay"} <= set(
        paths
    )
    for path in paths:
        assert any(p.match(path) for p in patterns), path


def _walkthrough():
    start = README.index("## Walk-through with curl")
    return README[start : README.index("\n## ", start)]


def test_walkthrough_actions_belong_to_the_game():
    game = engine.get_game("anno1503")
    posted = re.findall(r'\\?"type\\?": \\?"(\w+)', _walkthrough())
    assert "buy" in posted
    for action_type in posted:
        assert action_type in game.action_specs, action_type


def test_every_setting_is_documented():
    for key in DEFAULTS:
        assert f"`{key}`" in README, key


def _local_links(path):
    """(target, resolved path) of every link of a Markdown file that is not a URL."""
    for target in re.findall(r"\]\(([^)\s]+)\)", path.read_text()):
        file_part = target.split("#")[0]
        if "://" in target or target.startswith("mailto:") or not file_part:
            continue
        yield target, (path.parent / file_part).resolve()


def test_the_readme_links_only_files_of_the_repository():
    for target, resolved in _local_links(ROOT / "README.md"):
        assert not target.startswith(".."), target
        assert resolved.exists(), target
    assert "docs/api-contract.md" in README
    for guide in ("write-a-bot", "write-a-frontend", "verify-dice"):
        assert f"](docs/guides/{guide}.md)" in README, guide


def _anchors(path):
    """GitHub's ids of a Markdown file's headings: lower case, punctuation
    dropped, spaces as hyphens."""
    text = re.sub(r"^```.*?^```", "", path.read_text(), flags=re.M | re.S)  # not code comments
    headings = re.findall(r"^#+ (.+)$", text, re.M)
    return {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-") for h in headings}


@pytest.mark.parametrize("path", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_docs_link_only_files_of_the_repository(path):
    for target, resolved in _local_links(path):
        assert resolved.is_relative_to(ROOT), f"{target}: outside the repository"
        assert resolved.exists(), f"{target}: no such file"
        anchor = target.partition("#")[2]
        if anchor and resolved.suffix == ".md":
            assert anchor in _anchors(resolved), f"{target}: no such heading"
