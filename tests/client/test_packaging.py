"""``pip install ./client`` in a fresh venv brings httpx and nothing of the
server (Flask, redis...), and the package imports there."""

import shutil
import subprocess
import sys

import pytest

from .conftest import ROOT

# Left out by `make test-fast` (-m "not slow"): runs code generators and compilers.
pytestmark = pytest.mark.slow

SERVER_ONLY = ("flask", "redis", "rq", "gunicorn", "engine", "service")


def run(*argv, cwd=None):
    return subprocess.run(argv, cwd=cwd, check=True, capture_output=True, text=True, timeout=240)


def test_client_installs_alone_in_a_fresh_venv(tmp_path):
    # A copy: building in the source tree would leave build/ and *.egg-info behind.
    source = tmp_path / "client"
    shutil.copytree(
        ROOT / "client", source, ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__")
    )
    venv = tmp_path / "venv"
    run(sys.executable, "-m", "venv", str(venv))
    python = str(venv / "bin" / "python")
    run(python, "-m", "pip", "install", "--quiet", str(source))
    version = run(python, "-c", "import tabula_client; print(tabula_client.__version__)")
    assert version.stdout.strip() == "0.1.0"
    missing = run(
        python,
        "-c",
        f"import importlib.util as u; print([m for m in {SERVER_ONLY!r} if u.find_spec(m)])",
        cwd=tmp_path,
    )
    assert missing.stdout.strip() == "[]"
    typed = run(
        python,
        "-c",
        "import pathlib, tabula_client; "
        "print((pathlib.Path(tabula_client.__file__).parent / 'py.typed').exists())",
    )
    assert typed.stdout.strip() == "True"
