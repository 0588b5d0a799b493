"""Run Python in a fresh interpreter and read back the JSON it prints: for
what one process cannot show (a hash seed, the compiled rules switched off)."""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def json_from_child(code, *args, **env):
    """``python -c code *args`` from the repository root, with ``env`` added to
    this process's environment; the JSON its standard output holds."""
    done = subprocess.run(
        [sys.executable, "-c", code, *args],
        cwd=ROOT,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
    )
    return json.loads(done.stdout)
