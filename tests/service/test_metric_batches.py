"""Batched metric writes (service/runtime/metric_batches.py): a batching
process's scrape shows exactly what writing through shows, its writes wait
for the flush (or the flusher thread, or stop()), and other processes write
through. Each case runs in a subprocess: multiprocess mode is chosen when
prometheus-client is imported."""

import os
import subprocess
import sys

from .live import ROOT

# The request path's writes, as RequestObserver and the commit make them:
# durations in several buckets (one past the last bound, one on a bound),
# a refusal, and the moves counted.
_WRITES = """
from service.runtime import metrics
for seconds, status in [(0.0004, 200), (0.003, 200), (0.003, 409), (0.01, 200), (42.0, 200), (0.0025, 422)]:
    metrics._observe_request("/v1/matches/<match_id>/actions", "POST", status, seconds, None)
for _ in range(3):
    metrics.move_accepted("anno1503")
"""

_SCRAPE = """
from prometheus_client import CollectorRegistry, generate_latest, multiprocess
def scrape():
    registry = CollectorRegistry()
    multiprocess.MultiProcessCollector(registry)
    return generate_latest(registry).decode()
"""


def _run(tmp_path, name, script):
    directory = tmp_path / name
    directory.mkdir()
    env = {**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(directory), "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", script], env=env, cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def _series(text):
    return sorted(line for line in text.splitlines() if line.startswith("tabula_"))


def test_a_batch_writes_what_writing_through_writes(tmp_path):
    through = _run(tmp_path, "through", _SCRAPE + _WRITES + "print(scrape())")
    batched = _run(
        tmp_path,
        "batched",
        _SCRAPE
        + "from service.runtime import metric_batches\nmetric_batches.start()\n"
        + _WRITES
        + "print(scrape())\nprint('--- flushed')\nmetric_batches.flush()\nprint(scrape())\n",
    )
    pending, flushed = batched.split("--- flushed")
    assert 'tabula_moves_accepted_total{game="anno1503"} 3.0' in through
    assert 'tabula_moves_accepted_total{game="anno1503"} 3.0' not in pending
    assert _series(flushed) == _series(through)


def test_the_flusher_and_stop_write_without_a_scrape(tmp_path):
    script = (
        _SCRAPE
        + "import time\nfrom service.runtime import metric_batches\nmetric_batches.start()\n"
        + "metrics.move_accepted('anno1503')\n"
        + "deadline = time.monotonic() + 10 * metric_batches.FLUSH_S\n"
        + "counted = 'tabula_moves_accepted_total{game=\"anno1503\"} 1.0'\n"
        + "while counted not in scrape() and time.monotonic() < deadline:\n"
        + "    time.sleep(0.05)\n"
        + "print('flushed', counted in scrape())\n"
        + "metrics.move_accepted('anno1503')\n"
        + "metric_batches.stop()\n"
        + "assert not metric_batches.active()\n"
        + "metrics.move_accepted('anno1503')\n"  # written through now
        + "print(scrape())\n"
    )
    out = _run(tmp_path, "flusher", "from service.runtime import metrics\n" + script)
    assert out.startswith("flushed True")
    assert 'tabula_moves_accepted_total{game="anno1503"} 3.0' in out


def test_a_forked_child_writes_through_until_it_starts(tmp_path):
    script = (
        "import os\nfrom service.runtime import metric_batches, metrics\n"
        "metric_batches.start()\n"
        "pid = os.fork()\n"
        "if pid == 0:\n"
        "    os._exit(0 if not metric_batches.active() else 3)\n"
        "print('child', os.waitpid(pid, 0)[1] >> 8, 'parent', metric_batches.active())\n"
    )
    assert _run(tmp_path, "fork", script).strip() == "child 0 parent True"
