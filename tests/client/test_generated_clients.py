"""Clients generated from the committed openapi.yaml, as bot authors would.

- openapi-python-client generates a Python client; mypy --strict checks a bot's
  first steps with it (``generated/python/program.py``: sign up a bot, create a match with its
  account token (createMatch takes an optional bearer, so the generator asks
  for an AuthenticatedClient), list the
  actions narrowed to one game, post one, handle an error by its code) and
  finds exactly the marked mistakes of ``wrong_action.py``; the program then
  plays against a real server.
- openapi-typescript generates TypeScript types, used with openapi-fetch;
  ``tsc --strict`` accepts ``generated/ts/program.ts`` and reports exactly the
  marked mistakes of ``typo.ts`` (a misspelt parameter of a posted action ...).
- Redocly's recommended ruleset finds no error and no warning in the spec.

The npm tools are pinned in ``generated/ts/package.json`` + ``package-lock.json``
and installed by ``npm ci`` the first time (again when the lock file changes).
The generated Python client is kept in ``var/generated-clients/`` (ignored by
git), a fixed place so that mypy's cache makes later runs fast (about 12 s for
this file then; 65 s the first time, most of it mypy reading the client).
"""

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.npm_tools import locked, npm_installed

# Left out by `make test-fast` (-m "not slow"): runs code generators and compilers.
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
SPEC = ROOT / "openapi.yaml"
PROGRAMS = Path(__file__).resolve().parent / "generated"
TS_TOOLS = PROGRAMS / "ts"
OUT = ROOT / "var" / "generated-clients"
# Redocly: no telemetry, no update notice (the machine may be offline apart from npm).
NODE_ENV = {**os.environ, "REDOCLY_TELEMETRY": "off", "REDOCLY_SUPPRESS_UPDATE_NOTICE": "true"}


@pytest.fixture(scope="module")
def node_tools():
    """``node_modules/.bin`` of generated/ts, after ``npm ci`` if the lock file changed."""
    return npm_installed(TS_TOOLS, env=NODE_ENV) / ".bin"


def _marked_lines(path, marker):
    """Line numbers of ``path`` that end with ``marker``."""
    lines = path.read_text().splitlines()
    return {number for number, line in enumerate(lines, 1) if line.rstrip().endswith(marker)}


def _error_lines(output, pattern):
    """``{(file name, line)}`` of the errors in a type checker's ``output``."""
    return {(match["file"], int(match["line"])) for match in re.finditer(pattern, output, re.MULTILINE)}


def _sync_tree(source, target):
    """Make ``target`` hold exactly ``source``'s files, rewriting only those that
    differ: unchanged files keep their mtime (mypy's cache stays valid) and a
    reader importing from ``target`` meanwhile never sees a half-written file."""
    wanted = {path.relative_to(source) for path in source.rglob("*") if path.is_file()}
    for old in [p for p in target.rglob("*") if p.is_file()] if target.exists() else []:
        if old.relative_to(target) not in wanted and "__pycache__" not in old.parts:
            old.unlink()
    for relative in wanted:
        new, old = source / relative, target / relative
        if not old.exists() or old.read_bytes() != new.read_bytes():
            old.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(new, old)


# --- Python: openapi-python-client + mypy --strict ----------------------------

MYPY_ERROR = r"^(?P<file>[\w./]+\.py):(?P<line>\d+): error:"


def _generate_python_client(target):
    """Generate the ``tabula_api`` package into ``target``; the generator's output."""
    generator = Path(sys.executable).parent / "openapi-python-client"
    run = subprocess.run(
        [
            str(generator),
            "generate",
            "--path",
            str(SPEC),
            "--output-path",
            str(target / "tabula_api"),
            "--meta",
            "none",
            "--overwrite",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    return run.stdout + run.stderr


@pytest.fixture(scope="module")
def python_client(tmp_path_factory):
    """The directory holding the generated ``tabula_api`` and the two programs
    (shared by pytest-xdist workers: see _sync_tree), and the generator's report."""
    fresh = tmp_path_factory.mktemp("generated-python")
    report = _generate_python_client(fresh)
    for name in ("program.py", "wrong_action.py"):
        shutil.copy(PROGRAMS / "python" / name, fresh / name)
    target = OUT / "python"
    with locked(OUT / "python.lock"):
        _sync_tree(fresh, target)
    return target, report


def test_the_python_generator_keeps_every_schema(python_client):
    _, report = python_client
    # It drops what it cannot model ("Unable to process schema ..."); the only
    # part it may leave out is the SVG board, a content type it has no model for.
    assert "Unable to" not in report, report
    skipped = re.findall(r"WARNING parsing (.*)", report)
    assert all("board.svg" in operation for operation in skipped), report


def test_the_generated_python_client_passes_mypy_strict(python_client):
    target, _ = python_client
    with locked(OUT / "python.lock"):
        run = subprocess.run(
            [
                sys.executable,
                "-m",
                "mypy",
                "--config-file",
                str(PROGRAMS / "python" / "mypy.ini"),
                "--cache-dir",
                str(OUT / "mypy-cache"),
                "program.py",
                "wrong_action.py",
            ],
            cwd=target,
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
    errors = _error_lines(run.stdout, MYPY_ERROR)
    expected = {
        ("wrong_action.py", n)
        for n in _marked_lines(PROGRAMS / "python" / "wrong_action.py", "# expect-error")
    }
    assert expected, "wrong_action.py marks no line"
    # The program and all the generated code: no error; every marked mistake: an error.
    assert errors == expected, run.stdout


def test_the_generated_python_client_plays_a_move(python_client, server_url):
    target, _ = python_client
    # In its own interpreter, run from the generated tree as a bot author would.
    run = subprocess.run(
        [sys.executable, "-c", "import sys, program; print(program.first_move(sys.argv[1]))", server_url],
        cwd=target,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    outcome = run.stdout.strip()
    # Accepted, and the response parsed into the Anno 1503 view and event classes.
    assert re.fullmatch(r"played: version \d+; turn \d+, bought .+", outcome), outcome


# --- TypeScript: openapi-typescript + openapi-fetch + tsc --strict ----------------

TSC_ERROR = r"^(?P<file>[\w./]+\.ts)\((?P<line>\d+),\d+\): error"


def test_the_generated_typescript_types_pass_tsc_strict(node_tools, tmp_path):
    target = tmp_path
    subprocess.run(
        # Default values do not make a request's property required.
        [
            str(node_tools / "openapi-typescript"),
            str(SPEC),
            "-o",
            str(target / "schema.d.ts"),
            "--default-non-nullable",
            "false",
        ],
        check=True,
        capture_output=True,
        timeout=300,
        env=NODE_ENV,
    )
    for name in ("program.ts", "typo.ts"):
        shutil.copy(TS_TOOLS / name, target / name)
    (target / "node_modules").symlink_to(TS_TOOLS / "node_modules", target_is_directory=True)
    run = subprocess.run(
        [
            str(node_tools / "tsc"),
            "--strict",
            "--noEmit",
            "--target",
            "es2022",
            "--module",
            "esnext",
            "--moduleResolution",
            "bundler",
            "--lib",
            "es2022,dom",
            "program.ts",
            "typo.ts",
        ],
        cwd=target,
        capture_output=True,
        text=True,
        timeout=300,
        env=NODE_ENV,
        check=False,
    )
    errors = _error_lines(run.stdout, TSC_ERROR)
    expected = {("typo.ts", n) for n in _marked_lines(TS_TOOLS / "typo.ts", "// expect-error")}
    assert expected, "typo.ts marks no line"
    assert errors == expected, run.stdout


# --- Redocly's recommended ruleset ----------------------------------------------------


def test_redocly_finds_no_error_and_no_warning(node_tools):
    # generated/ts/redocly.yaml names the ruleset: `recommended`.
    run = subprocess.run(
        [str(node_tools / "redocly"), "lint", str(SPEC), "--format", "json"],
        cwd=TS_TOOLS,
        capture_output=True,
        text=True,
        timeout=300,
        env=NODE_ENV,
        check=False,
    )
    report = json.loads(run.stdout)
    problems = [
        (p["severity"], p["ruleId"], p["message"], p["location"][0]["pointer"]) for p in report["problems"]
    ]
    assert report["totals"] == {"errors": 0, "warnings": 0, "ignored": 0}, problems
    assert run.returncode == 0, run.stderr
