"""The request path's metric writes, summed in memory and written in batches.

In multiprocess mode (``PROMETHEUS_MULTIPROC_DIR``) prometheus-client
writes every ``inc()`` and ``observe()`` through to its mmap'd file under a
process-wide lock with a pid check: about 1 µs per counter and 2 per
histogram on an idle machine, and together with the request log the largest
part of what metrics and the log cost a gunicorn worker under load (py-spy
on ``bench/http_bench.py --observability``, issue 45). A worker that calls
``start()`` (gunicorn's ``post_worker_init``) instead adds each write to a
dict here, and a background thread (a greenlet under gevent) writes the sums
every ``FLUSH_S``: one write per series and interval, not per request.

A scrape (service/runtime/metrics.py ``exposition``) writes its own process's
sums first; another worker's last ``FLUSH_S`` may show one scrape late
(Prometheus scrapes every 15 s or more). ``stop()`` (gunicorn's
``worker_exit``) writes what is left; a worker killed outright loses at most
``FLUSH_S`` of counts. Processes that never call ``start()`` (tests, the RQ
workers, whose job processes may end with ``os._exit``) write through as
before.
"""

from __future__ import annotations

import os
import threading
import time
from typing import Any

FLUSH_S = 1.0

_state = {"on": False}
_counts: dict[Any, float] = {}  # counter child -> increments not yet written
# histogram child -> [sum, {bucket index: observations}] not yet written
_observations: dict[Any, list[Any]] = {}
_lock = threading.Lock()  # the flusher swaps the sums out while requests add


def active() -> bool:
    """Whether this process batches (it called ``start()`` since its fork)."""
    return _state["on"]


def start() -> None:
    """Batch this process's writes from now on, flushed every FLUSH_S."""
    if _state["on"]:
        return
    _state["on"] = True
    threading.Thread(target=_flush_forever, name="metric-batches", daemon=True).start()


def stop() -> None:
    """Write what is pending and write through from now on."""
    _state["on"] = False
    flush()


def _forked() -> None:
    """A forked child has no flusher, nor its parent's pending sums to write."""
    _state["on"] = False
    _counts.clear()
    _observations.clear()


os.register_at_fork(after_in_child=_forked)


def inc(child: Any, amount: float = 1.0) -> None:
    """``child.inc(amount)``, batched when ``active()``."""
    if not _state["on"]:
        child.inc(amount)
        return
    with _lock:
        _counts[child] = _counts.get(child, 0.0) + amount


def observe(child: Any, value: float) -> None:
    """``child.observe(value)`` of a Histogram child, batched when ``active()``."""
    if not _state["on"]:
        child.observe(value)
        return
    bucket = _bucket_index(child._upper_bounds, value)
    with _lock:
        pending = _observations.get(child)
        if pending is None:
            pending = _observations[child] = [0.0, {}]
        pending[0] += value
        if bucket is not None:
            pending[1][bucket] = pending[1].get(bucket, 0) + 1


def _bucket_index(bounds: list[float], value: float) -> int | None:
    """The first bucket whose bound holds ``value`` (the last bound is +Inf),
    as Histogram.observe picks it; None for NaN, which it counts in none."""
    for index, bound in enumerate(bounds):
        if value <= bound:
            return index
    return None


def flush() -> None:
    """Write the pending sums into prometheus-client's values."""
    with _lock:
        counts, observations = dict(_counts), dict(_observations)
        _counts.clear()
        _observations.clear()
    for child, amount in counts.items():
        child.inc(amount)
    for child, (total, buckets) in observations.items():
        # Histogram.observe's own writes, a batch at once: its sum, and each
        # bucket's count (prometheus-client keeps them per bucket, not
        # cumulative; tests/service/test_metric_batches.py compares the two).
        child._sum.inc(total)
        for index, count in buckets.items():
            child._buckets[index].inc(count)


def _flush_forever() -> None:
    while active():
        time.sleep(FLUSH_S)
        flush()
