"""``python -m service.worker.webhook_worker``: the RQ worker of webhook
deliveries (docs/webhooks.md), a process of its own so AI turns never wait
behind a slow receiver.

Listens on ``WEBHOOK_QUEUE`` (default ``webhooks``) of ``RQ_REDIS_URL``
with RQ's scheduler on (it promotes the retries, ``enqueue_in``, polling
once a second; one scheduler per queue is active, another takes over when it
dies); the same reconnect loop and warm shutdown as ``service.worker``
(runner.work), without the sweeper or the AI heartbeat.
"""

import logging
import os
import sys
import threading

from service.runtime import logs, metrics
from service.runtime.config import load_config
from service.runtime.services import Services
from service.storage import targets
from service.worker import runner, webhook_jobs

log = logging.getLogger("service.worker.webhooks")


def main() -> int:
    level = os.environ.get("LOGLEVEL", "INFO")
    logs.configure(level=level)
    try:
        config = load_config()
    except targets.ConfigError as exc:
        log.error("bad Redis settings: %s", exc)
        return 2
    metrics.configure(config["METRICS"])
    services = Services(config, worker=True)
    webhook_jobs.bind(services)
    stop = threading.Event()
    runner.install_stop_handlers(stop)
    try:
        runner.work(services, stop, runner.Status(), logging_level=level, hooks=True)
    except targets.ConfigError as exc:
        log.error("bad Redis settings: %s", exc)
        return 2
    finally:
        stop.set()
    log.info("stopped")
    return 0


if __name__ == "__main__":
    sys.exit(main())
