"""The layering contracts of pyproject.toml's ``[tool.importlinter]`` hold:
the service's packages import only downwards (http | worker > play | live >
runtime > spec | storage > model), the engine imports no service, Flask or
Redis, the service never the dev launcher, and nothing the tests. Function-
level imports count (import-linter reads every import statement through grimp).

The second test shows the layers contract, as written in pyproject.toml,
fails on a breach: the same layers over a tiny package of the same shape
with one import going up.
"""

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def _lint(cwd, *args):
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache", *args], cwd=cwd, capture_output=True, text=True, check=False
    )


def test_the_project_keeps_its_layering_contracts():
    result = _lint(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


def _layers_contract():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    (contract,) = [c for c in config["contracts"] if c["type"] == "layers"]
    return contract


def _toy_package(root, layers, breach):
    """``toy`` with one module per layer's package; ``breach`` (importer, imported)."""
    for layer in layers:
        for package in layer.split("|"):
            path = root / Path(*package.strip().replace("service", "toy").split("."))
            path.mkdir(parents=True, exist_ok=True)
            (path / "__init__.py").write_text("")
            (path / "mod.py").write_text("")
    importer, imported = breach
    # A function-level import: it counts as much as one at the top.
    (root / "toy" / importer / "mod.py").write_text(f"def f():\n    import toy.{imported}.mod\n")


def _toy_config(root, contract):
    layers = [layer.replace("service", "toy") for layer in contract["layers"]]
    lines = ["[importlinter]", "root_package = toy", "", "[importlinter:contract:layers]"]
    lines += [f"name = {contract['name']}", "type = layers", "layers ="]
    lines += [f"    {layer}" for layer in layers]
    (root / "setup.cfg").write_text("\n".join(lines) + "\n")
    return layers


def test_a_lower_layer_importing_a_higher_one_breaks_the_contract(tmp_path):
    contract = _layers_contract()
    layers = _toy_config(tmp_path, contract)
    _toy_package(tmp_path, layers, breach=("storage", "play"))
    result = _lint(tmp_path, "--config", "setup.cfg")
    assert result.returncode != 0, result.stdout
    assert "BROKEN" in result.stdout and "toy.storage.mod -> toy.play.mod" in result.stdout, result.stdout


def test_two_packages_of_one_layer_importing_each_other_break_it(tmp_path):
    layers = _toy_config(tmp_path, _layers_contract())
    _toy_package(tmp_path, layers, breach=("play", "live"))
    result = _lint(tmp_path, "--config", "setup.cfg")
    assert result.returncode != 0, result.stdout
    assert "toy.play.mod -> toy.live.mod" in result.stdout, result.stdout
