"""Anno 1452's rules and the engine parts every step runs (the action shape check, the dice generator, the event kit, the random player, the action index, the environments' step and masks) compiled to C with mypyc, while fresh.

Why compile: the rules are plain Python over one JSON dict, and a profile
has no part above a tenth of the time, so no local change makes them
catanatron's speed (issue 45). mypyc, part of the mypy the project already
pins, compiles the same modules, unchanged, into C extension modules, about
1.5 times faster. Nothing is written by hand in C, and the Python sources
stay the rules: every test runs on the compiled modules, and
``tests/engine/test_native.py`` plays seeded matches both ways and compares.

How: ``python engine/native.py build`` (run by ``make``; by its path, so that
importing ``engine`` cannot load an earlier build while this one is made) compiles
``COMPILED`` into ``build/native`` (``TABULA_NATIVE_DIR``) and writes last
the digest of the sources it compiled. A package lists the build's
directory first in its ``__path__`` (``package_path``) only while that
digest equals its sources' digest now, so an edited rule never runs as its
stale compiled copy: the package runs as plain Python until the next build.
``TABULA_NATIVE=0`` turns the build off; ``active`` tells which one runs.
"""

import hashlib
import os
import shutil
import sys
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Package -> its modules compiled. Left out: ``__init__`` (it chooses the
# path), ``data`` (it finds its JSON files beside its own ``__file__``) and
# ``actionkit`` (its hook adapters stay Python closures, which the authoring
# test reads back; they only pass the call on).
COMPILED = {
    # Called at every step: the action shape check, the generator the random
    # player and the dice draw from, the kit's event(), the environments'
    # action -> index lookup (action_index).
    "engine": ["action_index", "params", "rng", "kit"],
    "engine.ai": ["random_player"],
    "engine.games.anno1452": [
        "actions_battle",
        "actions_cards",
        "actions_er",
        "actions_round",
        "actions_special",
        "battle",
        "board",
        "bundles",
        "deck",
        "evaluation",
        "flow",
        "game",
        "holdings",
        "offers",
        "setup",
        "state",
        "steps",
        "trade",
        "view",
    ],
    # The environments' step: apply an index, then the next state's legal
    # actions, their indices and mask (tabula_env.match.Match, tabula_env.masks).
    "tabula_env": ["match", "masks"],
}
# The name of the C library all compiled modules share (mypyc's group).
GROUP = "tabula_native"
DIGEST_FILE = "sources.sha256"


def build_dir() -> Path:
    return Path(os.environ.get("TABULA_NATIVE_DIR") or ROOT / "build" / "native")


def sources() -> list[Path]:
    """The compiled modules' source files, in a fixed order."""
    return [
        ROOT.joinpath(*package.split("."), f"{module}.py")
        for package, modules in sorted(COMPILED.items())
        for module in modules
    ]


def source_digest() -> str:
    """What a build is valid for: the sources, the interpreter and mypy's version."""
    digest = hashlib.sha256(sys.version.encode())
    digest.update(_mypy_version().encode())
    for path in sources():
        digest.update(path.relative_to(ROOT).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def _mypy_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("mypy")
    except PackageNotFoundError:
        return "none"


def is_fresh() -> bool:
    """True when a build exists and was made from the sources on disk now."""
    return _is_fresh(build_dir())


@cache  # each compiled package asks at import: the sources are read and hashed once
def _is_fresh(root: Path) -> bool:
    stamp = root / DIGEST_FILE
    return stamp.is_file() and stamp.read_text().strip() == source_digest()


def package_path(package: str, path: list[str]) -> list[str]:
    """``package``'s ``__path__``: the build's directory first when it is fresh."""
    if os.environ.get("TABULA_NATIVE", "1") == "0" or package not in COMPILED or not is_fresh():
        return path
    root = build_dir()
    if str(root) not in sys.path:
        sys.path.append(str(root))  # the shared library, imported by its top-level name
    return [str(root.joinpath(*package.split("."))), *path]


def active(package: str = "engine.games.anno1452") -> bool:
    """True when ``package``'s rules run compiled in this process."""
    module = __import__(f"{package}.{COMPILED[package][0]}", fromlist=["_"])
    return not str(module.__file__).endswith(".py")


def build() -> None:
    """Compile ``COMPILED`` into ``build_dir()``; the digest is written last."""
    from mypyc.build import mypycify
    from setuptools import setup  # type: ignore[import-untyped]

    root, digest = build_dir(), source_digest()
    shutil.rmtree(root, ignore_errors=True)  # no module of an earlier build is left behind
    os.chdir(ROOT)  # mypy reads pyproject.toml's settings; mypyc writes its C under build/
    paths = [str(path.relative_to(ROOT)) for path in sources()]
    extensions = mypycify(paths, opt_level="3", group_name=GROUP, target_dir=str(root / "c"))
    setup(
        name=GROUP,
        ext_modules=extensions,
        script_args=["build_ext", "--build-lib", str(root), "--build-temp", str(root / "temp")],
    )
    (root / DIGEST_FILE).write_text(digest + "\n")


if __name__ == "__main__":
    if sys.argv[1:] != ["build"]:
        sys.exit("usage: python engine/native.py build")
    sys.path[0] = str(ROOT)  # not engine/, whose module names are not for top-level imports
    build()
