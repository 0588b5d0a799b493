"""The tree is lint-clean, formatted and type-checked: ruff and mypy, as
configured in pyproject.toml and as `make lint` runs them."""

import subprocess
import sys
from pathlib import Path

import pytest

# Left out by `make test-fast` (-m "not slow"): runs the linters over the tree.
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
# The venv's tools (the test extra pins them), next to the interpreter running the tests.
BIN = Path(sys.executable).parent

COMMANDS = {
    "ruff check": [str(BIN / "ruff"), "check", "."],
    "ruff format": [str(BIN / "ruff"), "format", "--check", "."],
    "mypy": [str(BIN / "mypy")],
}


@pytest.mark.parametrize("name", COMMANDS)
def test_tool_is_clean(name):
    result = subprocess.run(COMMANDS[name], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, f"{name} failed:\n{result.stdout}{result.stderr}"
