"""bench/ is a package run as ``python -m bench.NAME``: every module imports
as part of it, none edits ``sys.path`` and none imports the tests."""

import ast
import importlib
import pkgutil
from pathlib import Path

import pytest

import bench

BENCH = Path(bench.__file__).parent
MODULES = sorted(info.name for info in pkgutil.walk_packages([str(BENCH)], "bench."))


@pytest.mark.parametrize("name", MODULES)
def test_every_module_imports_within_the_package(name):
    importlib.import_module(name)


@pytest.mark.parametrize("path", sorted(BENCH.rglob("*.py")), ids=lambda p: str(p.relative_to(BENCH)))
def test_no_sys_path_edit_and_no_import_of_the_tests(path):
    tree = ast.parse(path.read_text(), str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr == "path":
            assert not (isinstance(node.value, ast.Name) and node.value.id == "sys"), f"{path}:{node.lineno}"
        if isinstance(node, ast.Import):
            assert not any(a.name.split(".")[0] == "tests" for a in node.names), f"{path}:{node.lineno}"
        if isinstance(node, ast.ImportFrom) and node.level == 0:
            assert (node.module or "").split(".")[0] != "tests", f"{path}:{node.lineno}"
