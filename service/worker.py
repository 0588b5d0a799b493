"""``python -m service.worker``: an RQ worker for AI decisions, plus the sweeper.

Reads ``REDIS_URL`` and ``RQ_REDIS_URL`` (default: ``REDIS_URL``), uses the
JSON serializer and listens on the ``AI_QUEUE`` queue (default ``ai``). A
background thread beats a heartbeat for /readyz and sweeps active matches
every ``SWEEP_S`` seconds (default 5) for stalled AI decisions. SIGINT/SIGTERM
give RQ's warm shutdown: the current job finishes, then the process exits 0.

``TABULA_WORKER_CLASS=fork`` uses RQ's forking ``Worker`` (a crashing job
cannot take the worker down) instead of the default in-process
``SimpleWorker`` (no fork per job: the engine is imported once; AI jobs are
short and pure Python).
"""

import logging
import os
import sys
import threading

import redis
from rq import SimpleWorker, Worker
from rq.serializers import JSONSerializer

import engine  # noqa: F401  (imported once, before any job: games register here)

from . import ai
from .config import load_config
from .context import Services

log = logging.getLogger("service.worker")


def _sweeper(services, interval_s, stop):
    while not stop.wait(interval_s):
        try:
            ai.beat(services)
            ai.sweep(services)
        except redis.RedisError:
            log.warning("sweep failed: storage unreachable", exc_info=True)
        except Exception:  # noqa: BLE001  (the sweeper must outlive one bad match)
            log.exception("sweep failed")


def build_worker(services):
    cls = Worker if os.environ.get("TABULA_WORKER_CLASS") == "fork" else SimpleWorker
    return cls([services.queue], connection=services.rq_redis, serializer=JSONSerializer)


def main():
    logging.basicConfig(level=os.environ.get("LOGLEVEL", "INFO"),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    services = Services(load_config())
    ai.bind(services)
    ai.beat(services)
    stop = threading.Event()
    interval = float(os.environ.get("SWEEP_S", "5"))
    thread = threading.Thread(target=_sweeper, args=(services, interval, stop), daemon=True)
    thread.start()
    try:
        build_worker(services).work(with_scheduler=False)
    finally:
        stop.set()
    return 0


if __name__ == "__main__":
    sys.exit(main())
