"""Webhook deliveries on their queue (``WEBHOOK_QUEUE``, default ``webhooks``),
served by a worker process of its own (``python -m service.worker.webhook_worker``)
so AI turns never wait behind deliveries.

A delivery is ``{"delivery_id", "event": {"id", "type", "match_id", "data"}}``;
each attempt is one RQ job ``hook-<delivery id>-<attempt>`` running
``service.worker.webhook_jobs.deliver(aid, delivery, attempt)`` (named, not
imported: the worker layer is above this one). A retry is an ``enqueue_in``,
promoted by the webhook worker's RQ scheduler.
"""

import logging
import secrets
from datetime import timedelta
from typing import Any

import redis

from service.model.webhooks import DELIVERY_ID_PREFIX
from service.runtime.services import Services
from service.storage import webhooks as stored

log = logging.getLogger(__name__)

JOB = "service.worker.webhook_jobs.deliver"


def new_delivery(event_id: str, event_type: str, body: dict[str, Any]) -> dict[str, Any]:
    """A delivery of one event, with a new delivery id."""
    event = {"id": event_id, "type": event_type, "match_id": body.get("match_id"), "data": body}
    return {"delivery_id": DELIVERY_ID_PREFIX + secrets.token_hex(12), "event": event}


def enqueue_attempt(
    services: Services, aid: str, delivery: dict[str, Any], attempt: int, delay_s: float
) -> None:
    """Queue attempt ``attempt`` of ``delivery`` on the webhook queue, after ``delay_s``."""
    options = {
        "job_id": f"hook-{delivery['delivery_id']}-{attempt}",
        "job_timeout": int(services.config["WEBHOOK_TIMEOUT_S"] * 2) + 30,
        "result_ttl": 0,
    }
    queue = services.webhook_queue
    if delay_s <= 0:
        queue.enqueue(JOB, aid, delivery, attempt, **options)
    else:
        queue.enqueue_in(timedelta(seconds=delay_s), JOB, aid, delivery, attempt, **options)


def enqueue_event(
    services: Services, aid: str, event_id: str, event_type: str, body: dict[str, Any]
) -> str | None:
    """Enqueue the event's delivery when the account's webhook is on and
    subscribed to its type (one HMGET; no webhook: nothing more); returns
    the delivery id, or None. A queue that cannot be reached is logged, not
    raised: the event is in the account's log whatever happens here."""
    enabled, events = stored.read_subscription(services.redis, aid)
    if not enabled or event_type not in events:
        return None
    delivery = new_delivery(event_id, event_type, body)
    try:
        enqueue_attempt(services, aid, delivery, 1, 0)
    except redis.RedisError as exc:
        log.error("webhook delivery of %s for %s not enqueued: %s", event_id, aid, exc)
        return None
    return str(delivery["delivery_id"])
