"""``python -m service.worker.webhook_worker``: the RQ worker of webhook
deliveries (docs/webhooks.md), a process of its own so AI turns never wait
behind a slow receiver.

Listens on ``WEBHOOK_QUEUE`` (default ``webhooks``) of ``RQ_REDIS_URL``
with RQ's scheduler on (it promotes the retries, ``enqueue_in``, polling
once a second; one scheduler per queue is active, another takes over when it
dies); the same reconnect loop and warm shutdown as ``service.worker``
(runner.work), without the sweeper or the AI heartbeat.
"""

import sys
import threading

from service.worker import runner, webhook_jobs


def main() -> int:
    started = runner.start_services(webhook_jobs.bind)
    if started is None:
        return 2
    level, services = started
    stop = threading.Event()
    runner.install_stop_handlers(stop)
    return runner.run_until_stopped(services, stop, runner.Status(), level, hooks=True)


if __name__ == "__main__":
    sys.exit(main())
