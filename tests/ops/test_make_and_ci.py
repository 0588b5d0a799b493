"""The two commands: `make test` reports pytest's status and `.ci/run` reports make's;
`make lint` reports the first failing linter's.

All are exercised for real in a scratch directory with stand-ins (a tiny
test suite, a fake `make`, fake `ruff` and `mypy`), so a masked failure
would show up as a wrong exit status rather than as a missing string.
"""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

# Left out by `make test-fast` (-m "not slow"): seconds each: make itself.
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
MAKEFILE = ROOT / "Makefile"
CI_RUN = ROOT / ".ci" / "run"

# Shell idioms that would turn a failing command into a success.
MASKING = re.compile(r"\|\|\s*(true|:|exit 0)|;\s*true\b|set \+e|exit 0")


LINTERS = ("ruff", "mypy")


def _passing_stand_in(path, calls):
    """An executable that logs its name and arguments to ``calls`` and succeeds."""
    path.write_text(f'#!/bin/sh\necho "$(basename "$0")" "$@" >> "{calls}"\nexit 0\n')
    path.chmod(0o755)


def _scratch_project(tmp_path, test_source):
    """A directory with its own pyproject, a test file and an installed venv stamp."""
    (tmp_path / "pyproject.toml").write_text('[tool.pytest.ini_options]\ntestpaths = ["tests"]\n')
    tests = tmp_path / "tests"
    tests.mkdir()
    if test_source is not None:
        (tests / "test_sample.py").write_text(test_source)
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "python").symlink_to(sys.executable)
    for tool in LINTERS:  # passing stand-ins, so `make test` may run `make lint` first
        _passing_stand_in(venv / "bin" / tool, tmp_path / "lint-calls")
    # The stamps of the install and of the compiled rules (engine/native.py)
    # must be newer than pyproject.toml, or make would redo them.
    native = tmp_path / "build" / "native"
    native.mkdir(parents=True)
    for stamp in (venv / ".installed-test", native / "sources.sha256"):
        stamp.touch()
        os.utime(stamp, (os.path.getmtime(stamp) + 5,) * 2)
    return tmp_path


def _make_test(project):
    return subprocess.run(
        ["make", "-f", str(MAKEFILE), "test", "VENV=venv", "PYTEST_ARGS=-q -p no:cacheprovider"],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("def test_ok():\n    assert 1 + 1 == 2\n", 0),
        ("def test_broken():\n    assert 1 + 1 == 3\n", 1),
        (None, 5),  # no tests collected
    ],
    ids=["passing", "failing", "no-tests"],
)
def test_make_test_exit_status_is_pytest_status(tmp_path, source, expected):
    result = _make_test(_scratch_project(tmp_path, source))
    output = result.stdout + result.stderr
    assert "-m pytest" in output, output
    if expected == 0:
        assert result.returncode == 0, output
    else:
        assert result.returncode != 0, output
        assert f"Error {expected}" in output, output


LINT_COMMANDS = ["ruff check .", "ruff format --check .", "mypy"]


@pytest.mark.parametrize("failing", [None, *LINT_COMMANDS])
def test_make_lint_runs_ruff_then_mypy_and_stops_at_a_failure(tmp_path, failing):
    project = _scratch_project(tmp_path, None)
    calls = tmp_path / "lint-calls"
    if failing is not None:  # a stand-in that fails (status 3) on this one command
        tool = failing.split()[0]
        (project / "venv" / "bin" / tool).write_text(
            f'#!/bin/sh\necho {tool} "$@" >> "{calls}"\n'
            f'[ "$(echo {tool} "$@")" = "{failing}" ] && exit 3\nexit 0\n'
        )
    result = subprocess.run(
        ["make", "-f", str(MAKEFILE), "lint", "VENV=venv"],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=60,
    )
    output = result.stdout + result.stderr
    ran = calls.read_text().splitlines()
    if failing is None:
        assert result.returncode == 0, output
        assert ran == LINT_COMMANDS, output
    else:
        assert result.returncode != 0 and "Error 3" in output, output
        assert ran == LINT_COMMANDS[: LINT_COMMANDS.index(failing) + 1], output


def test_make_reinstalls_only_when_pyproject_changes(tmp_path):
    project = _scratch_project(tmp_path, "def test_ok():\n    pass\n")
    dry = ["make", "-n", "-f", str(MAKEFILE), "test", "VENV=venv"]
    fresh = subprocess.run(dry, cwd=project, capture_output=True, text=True, check=True)
    assert "pip install" not in fresh.stdout
    os.utime(project / "pyproject.toml", (os.path.getmtime(project / "venv" / ".installed-test") + 5,) * 2)
    stale = subprocess.run(dry, cwd=project, capture_output=True, text=True, check=True)
    assert "pip install -e" in stale.stdout and "[test" in stale.stdout


def _dry_run_with_path(project, path_dirs, target):
    env = dict(os.environ, PATH=":".join(str(d) for d in path_dirs))
    return subprocess.run(
        ["/usr/bin/env", "make", "-n", "-f", str(MAKEFILE), target, "VENV=venv", f"PYTHON={sys.executable}"],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout


@pytest.mark.parametrize("target", ["run", "test"])
def test_redis_binary_extra_only_without_a_redis_server(tmp_path, target):
    project = tmp_path / "project"
    project.mkdir()
    (project / "pyproject.toml").write_text("")
    tools = tmp_path / "tools"
    tools.mkdir()
    make = subprocess.run(["sh", "-c", "command -v make"], capture_output=True, text=True).stdout
    (tools / "make").symlink_to(make.strip())
    without = _dry_run_with_path(project, [tools], target)
    assert "redis-binary" in without
    (tools / "redis-server").write_text("#!/bin/sh\n")
    (tools / "redis-server").chmod(0o755)
    with_server = _dry_run_with_path(project, [tools], target)
    assert "pip install -e" in with_server and "redis-binary" not in with_server


def test_recipes_do_not_mask_failures():
    recipes = [line for line in MAKEFILE.read_text().splitlines() if line.startswith("\t")]
    assert recipes
    for line in recipes:
        assert not line.lstrip("\t@").startswith("-"), line
        assert not MASKING.search(line), line


def _fake_make(tmp_path, status):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    fake = bin_dir / "make"
    fake.write_text(f'#!/bin/sh\necho "$PWD $*" >> "{tmp_path}/calls"\nexit {status}\n')
    fake.chmod(0o755)
    return bin_dir


@pytest.mark.parametrize("status", [0, 2])
def test_ci_run_runs_make_test_and_returns_its_status(tmp_path, status):
    bin_dir = _fake_make(tmp_path, status)
    env = dict(os.environ, PATH=f"{bin_dir}:{os.environ['PATH']}")
    result = subprocess.run([str(CI_RUN)], env=env, cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert result.returncode == status, result.stderr
    calls = (tmp_path / "calls").read_text().splitlines()
    assert calls == [f"{ROOT} test"]


def test_ci_run_is_strict_bash():
    lines = CI_RUN.read_text().splitlines()
    assert os.access(CI_RUN, os.X_OK)
    assert lines[0] == "#!/usr/bin/env bash"
    assert "set -euo pipefail" in lines
    code = [line for line in lines if line.strip() and not line.lstrip().startswith("#")]
    for line in code:
        assert not MASKING.search(line), line
