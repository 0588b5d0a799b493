"""Run a command as a reader in a terminal would, and press Ctrl-C on it.

    python interrupt_after.py SECONDS MAX_SECONDS command [args...]

The command gets SIGINT (its whole process group, as a terminal's Ctrl-C)
once SECONDS have passed AND it has printed something, or at MAX_SECONDS
whatever it printed: a stream that is slow to send its first line on a
loaded machine is not cut before it showed anything. Its output passes
through. Exit status: 0 when it was interrupted, else the command's own.
"""

import os
import selectors
import signal
import subprocess
import sys
import time


def main(argv):
    wait_s, max_s, command = float(argv[1]), float(argv[2]), argv[3:]
    started = time.monotonic()
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, start_new_session=True)
    printed = False
    selector = selectors.DefaultSelector()
    selector.register(proc.stdout, selectors.EVENT_READ)
    while proc.poll() is None:
        elapsed = time.monotonic() - started
        if (elapsed >= wait_s and printed) or elapsed >= max_s:
            os.killpg(proc.pid, signal.SIGINT)
            proc.wait()
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
