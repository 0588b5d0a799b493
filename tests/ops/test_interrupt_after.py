"""interrupt_after.py, the doc tests' Ctrl-C: it stops a command even when
the test process that runs it has SIGINT blocked (inherited across exec)."""

import subprocess
import sys
import time
from pathlib import Path

INTERRUPTER = Path(__file__).with_name("interrupt_after.py")
# Block SIGINT, then become the interrupter: what a test process with SIGINT
# blocked hands down to every program it starts.
BLOCKED_PARENT = (
    "import os, signal, sys;"
    "signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGINT]);"
    "os.execv(sys.executable, [sys.executable, *sys.argv[1:]])"
)


def test_a_command_stops_on_ctrl_c_under_a_parent_with_sigint_blocked():
    command = ["bash", "-c", "echo started; sleep 30"]
    began = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-c", BLOCKED_PARENT, str(INTERRUPTER), "1", "3", *command],
        capture_output=True,
        text=True,
        timeout=25,
    )
    assert done.returncode == 0, (done.returncode, done.stderr)
    assert done.stdout.strip() == "started"
    assert time.monotonic() - began < 8  # stopped by the Ctrl-C, not by the 10 s kill
