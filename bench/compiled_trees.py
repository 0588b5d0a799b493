"""Compiled rules on both sides of an ``--against REV`` engine comparison.

When this checkout runs its compiled rules (engine/native.py), REV's engine
is compiled too, with REV's own ``native.py``, into a directory named after
REV's ``engine`` tree in the system's temporary directory (kept and
reused while fresh): compiled is compared with compiled, not with REV's
plain Python. With ``TABULA_NATIVE=0`` both sides run plain Python.
Used by bench/engine_compare.py and bench/search_cost.py.
"""

import os
import subprocess
import sys
import tempfile
from pathlib import Path

from .ladder.cost import ROOT


def rules_paths(revision):
    """The parts of REV to export for its engine and its compiled build: the
    engine, ``pyproject.toml`` (mypyc reads mypy's settings from it) and,
    where REV has it, ``tabula_env`` (its ``native.py`` compiles some of
    the environments' modules too since r45-env4)."""
    has_env = (
        subprocess.run(
            ["git", "cat-file", "-e", f"{revision}:tabula_env"], cwd=ROOT, capture_output=True
        ).returncode
        == 0
    )
    return ("engine", "pyproject.toml", *(("tabula_env",) if has_env else ()))


def rev_rules_dir(revision, tree):
    """The compiled rules' directory for REV's exported ``tree`` (its
    ``engine`` and ``pyproject.toml``) when this checkout runs compiled
    rules (built now unless kept fresh), else None."""
    return build_native(revision, tree) if this_tree_compiled() else None


def tree_env(native_dir):
    """The environment of a child: this checkout's bench on the path and, when
    given, the directory of the compiled rules its tree runs."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    if native_dir is not None:
        env["TABULA_NATIVE_DIR"] = str(native_dir)
    return env


def this_tree_compiled():
    """True when this checkout's engine runs its compiled rules."""
    try:
        from engine import native
    except ImportError:
        return False
    return native.active()


def build_native(revision, tree):
    """Compile ``tree``'s rules (REV's own ``engine/native.py``) unless a
    fresh build of the same sources is kept from an earlier run; returns
    its directory, or None when REV predates the compiled rules."""
    if not (tree / "engine" / "native.py").is_file():
        return None
    engine_id = subprocess.run(
        ["git", "rev-parse", f"{revision}:engine"], cwd=ROOT, check=True, capture_output=True, text=True
    ).stdout.strip()
    native_dir = Path(tempfile.gettempdir()) / f"tabula-native-{engine_id[:16]}"
    fresh = "import sys; from engine import native; sys.exit(0 if native.is_fresh() else 1)"
    env = tree_env(native_dir)
    if subprocess.run([sys.executable, "-c", fresh], cwd=tree, env=env).returncode != 0:
        print(f"compiling {revision}'s rules into {native_dir}", file=sys.stderr, flush=True)
        build = [sys.executable, "engine/native.py", "build"]
        subprocess.run(build, cwd=tree, env=env, check=True, capture_output=True)
    return native_dir
