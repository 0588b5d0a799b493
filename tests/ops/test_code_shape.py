"""The code keeps the shape issue 41 gave it: no module past about 400
lines, no function past about 40, in every package a person reads.

"About": the limits below leave a few lines of slack, so a docstring or a
type hint does not force a split; a module or function past them is split by
concern (docs/architecture.md, the style notes' "Size and comments")."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("service", "engine", "tabula_env", "launcher", "bench", "client/src/tabula_client")
MODULE_LINES = 420
FUNCTION_LINES = 45


def _sources():
    for package in PACKAGES:
        yield from sorted((ROOT / package).rglob("*.py"))


def oversized(path_name, source):
    """``[(what, lines)]`` of the module and its functions past the limits."""
    found = []
    lines = len(source.splitlines())
    if lines > MODULE_LINES:
        found.append((path_name, lines))
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            length = node.end_lineno - node.lineno + 1
            if length > FUNCTION_LINES:
                found.append((f"{path_name}:{node.lineno} {node.name}", length))
    return found


def test_no_module_or_function_past_the_limits():
    found = []
    for path in _sources():
        found += oversized(str(path.relative_to(ROOT)), path.read_text(encoding="utf-8"))
    assert found == []


def test_a_long_function_and_module_are_found():
    body = "\n".join(f"    x{i} = {i}" for i in range(FUNCTION_LINES))
    source = f"def long():\n{body}\n" + "\n" * MODULE_LINES
    assert oversized("m.py", source) == [("m.py", MODULE_LINES + FUNCTION_LINES + 1), ("m.py:1 long", 46)]
