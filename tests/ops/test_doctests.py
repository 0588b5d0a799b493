"""The ``>>>`` examples of the project's modules run: every module under
engine/, service/, tabula_env/ and the client's tabula_client/ whose source
holds ``>>>`` is found by walking those trees (so a module that moves is
still found), imported, and its doctests run; a module whose ``>>>`` no
doctest picks up fails too (an example that never runs)."""

import ast
import doctest
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# (the directory the package is imported from, the package)
PACKAGES = (
    (ROOT, "engine"),
    (ROOT, "service"),
    (ROOT, "tabula_env"),
    (ROOT / "client" / "src", "tabula_client"),
)


def modules_with_examples(base, package):
    """Dotted names of the modules of ``package`` (under ``base``) whose source holds ``>>>``."""
    names = []
    for path in sorted((base / package).rglob("*.py")):
        if path.name == "__main__.py" or ">>>" not in path.read_text(encoding="utf-8"):
            continue
        parts = path.relative_to(base).with_suffix("").parts
        names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


def run_examples(module_name):
    """``(failed, attempted, report)`` of the module's doctests."""
    module = importlib.import_module(module_name)
    runner = doctest.DocTestRunner(verbose=False)
    report = []
    compiled = not str(module.__file__).endswith(".py")
    tests = (
        source_doctests(module, module_name)
        if compiled
        else doctest.DocTestFinder().find(module, module_name)
    )
    for test in tests:
        runner.run(test, out=report.append)
    failed, attempted = runner.summarize(verbose=False)
    return failed, attempted, "".join(report)


def source_doctests(module, module_name):
    """The doctests of a module compiled by engine/native.py, read from its source:
    its functions and classes are C objects with no docstring doctest can find."""
    package, _, leaf = module_name.rpartition(".")
    path = Path(importlib.import_module(package).__file__).with_name(f"{leaf}.py")
    parser, tests = doctest.DocTestParser(), []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef)) and ast.get_docstring(node):
            name = module_name if isinstance(node, ast.Module) else f"{module_name}.{node.name}"
            line = 0 if isinstance(node, ast.Module) else node.lineno
            test = parser.get_doctest(ast.get_docstring(node), dict(vars(module)), name, str(path), line)
            tests += [test] if test.examples else []
    return tests


MODULES = [name for base, package in PACKAGES for name in modules_with_examples(base, package)]


def test_the_examples_are_found():
    assert len(MODULES) >= 15, MODULES
    assert "engine.ai.bot_api" in MODULES and "tabula_env" in MODULES


@pytest.mark.parametrize("module_name", MODULES)
def test_the_modules_examples_run(module_name):
    failed, attempted, report = run_examples(module_name)
    assert attempted, f"{module_name} has '>>>' but no doctest runs it"
    assert failed == 0, report


def test_a_wrong_example_is_reported(tmp_path, monkeypatch):
    package = tmp_path / "doctest_probe"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "plain.py").write_text('"""No example here."""\n')
    (package / "wrong.py").write_text('"""Addition.\n\n    >>> 1 + 1\n    2\n    >>> 2 + 2\n    5\n"""\n')
    monkeypatch.syspath_prepend(str(tmp_path))
    assert modules_with_examples(tmp_path, "doctest_probe") == ["doctest_probe.wrong"]
    failed, attempted, report = run_examples("doctest_probe.wrong")
    assert (failed, attempted) == (1, 2)
    assert "Expected:\n    5\nGot:\n    4" in report
