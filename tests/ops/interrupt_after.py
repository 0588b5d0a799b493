"""Run a command as a reader in a terminal would, and press Ctrl-C on it.

    python interrupt_after.py SECONDS MAX_SECONDS command [args...]

The command gets SIGINT (its whole process group, as a terminal's Ctrl-C)
once SECONDS have passed AND it has printed something, or at MAX_SECONDS
whatever it printed: a stream that is slow to send its first line on a
loaded machine is not cut before it showed anything. Its output passes
through. Exit status: 0 when it was interrupted, else the command's own;
3 when it was still running STOP_S after the Ctrl-C (then it is killed).

The command starts with SIGINT at its default action and no signal blocked,
as a terminal's shell starts it. Both are inherited across exec: in one
full-suite run under three xdist workers, two blocks outlived their Ctrl-C
until the file's 120 s time-out, which a parent with SIGINT blocked
reproduces (which test left it blocked was not found).
"""

import os
import selectors
import signal
import subprocess
import sys
import time

STOP_S = 10  # a command still running this long after its Ctrl-C failed to stop


def _as_from_a_terminal():
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_SETMASK, [])


def main(argv):
    wait_s, max_s, command = float(argv[1]), float(argv[2]), argv[3:]
    started = time.monotonic()
    proc = subprocess.Popen(
        command, stdout=subprocess.PIPE, start_new_session=True, preexec_fn=_as_from_a_terminal
    )
    printed = False
    selector = selectors.DefaultSelector()
    selector.register(proc.stdout, selectors.EVENT_READ)
    while proc.poll() is None:
        elapsed = time.monotonic() - started
        if (elapsed >= wait_s and printed) or elapsed >= max_s:
            os.killpg(proc.pid, signal.SIGINT)
            try:
                proc.wait(timeout=STOP_S)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                print(f"interrupt_after: {command} still ran {STOP_S} s after Ctrl-C", file=sys.stderr)
                return 3
            return 0
        for key, _ in selector.select(timeout=0.1):
            chunk = os.read(key.fd, 65536)
            printed = printed or bool(chunk.strip())
            sys.stdout.buffer.write(chunk)
            sys.stdout.buffer.flush()
    sys.stdout.buffer.write(proc.stdout.read())
    return proc.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv))
