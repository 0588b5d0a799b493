"""The shim every program of ``make run`` is started through (supervisord runs
``python -m launcher.shim --exec STARTS_DIR BACKOFF_S -- ARGV...``): it dies
with supervisord and waits before a restart, since supervisord has no
configurable restart delay, then execs the program.
"""

import ctypes
import os
import signal
import sys
import time
from pathlib import Path

_PR_SET_PDEATHSIG = 1

# A restart after a run at least this long waits TABULA_RESTART_BACKOFF_S
# again; after a shorter one, twice the previous wait, up to the maximum.
HEALTHY_RUN_S = 10.0
RESTART_BACKOFF_MAX_S = 30.0


def die_with_parent():
    """Get SIGTERM when the parent process dies (Linux; elsewhere skipped).

    In supervisord (before exec): covers the launcher killed with SIGKILL. In
    each program (the ``--exec`` shim): covers supervisord killed so.
    """
    try:
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)
    except (OSError, AttributeError):
        pass


def _restart_wait(state_file, base, now):
    """``(restart number, seconds to wait)`` for this start of a program, and
    record it. The first start waits 0; a restart ``base`` seconds, or twice
    the last wait when the last run was shorter than ``HEALTHY_RUN_S``."""
    try:
        count, started, waited = state_file.read_text().split()
        count, started, waited = int(count), float(started), float(waited)
    except (OSError, ValueError):
        count, started, waited = -1, 0.0, 0.0
    count += 1
    if count == 0:
        wait = 0.0
    elif waited and now - started - waited < HEALTHY_RUN_S:
        wait = min(waited * 2, max(RESTART_BACKOFF_MAX_S, base))
    else:
        wait = base
    tmp = state_file.with_suffix(".tmp")
    tmp.write_text(f"{count} {now} {wait}\n")
    tmp.replace(state_file)
    return count, wait


def seconds_text(value):
    return f"{value:.2f}".rstrip("0").rstrip(".")


def exec_child(args):
    """``python -m launcher.shim --exec STARTS_DIR BACKOFF_S -- ARGV...``

    What supervisord starts: die with supervisord, wait before a restart,
    then exec ``ARGV`` (same pid: supervisord signals the program itself).
    """
    starts, base, sep, *argv = args
    if sep != "--" or not argv:
        print("usage: python -m launcher.shim --exec STARTS_DIR BACKOFF_S -- ARGV...", file=sys.stderr)
        return 2
    die_with_parent()
    if os.getppid() == 1:  # supervisord died before the line above
        return 1
    name = os.environ.get("SUPERVISOR_PROCESS_NAME") or Path(argv[0]).name
    count, wait = _restart_wait(Path(starts) / name, float(base), time.time())
    if count:
        print(
            f"[tabula] restarting {name} in {seconds_text(wait)} s (restart {count} since "
            "`make run` started)",
            flush=True,
        )
        time.sleep(wait)
    os.execvp(argv[0], argv)
    return 127  # not reached


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--exec":
        return exec_child(sys.argv[2:])
    print("usage: python -m launcher.shim --exec STARTS_DIR BACKOFF_S -- ARGV...", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
