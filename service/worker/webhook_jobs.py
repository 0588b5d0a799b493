"""The webhook delivery job: what the webhook worker runs for one attempt
(service/accounts/delivery.py does the work; hook_queue.py enqueues it)."""

from typing import Any

from service.accounts import delivery
from service.runtime.config import load_config
from service.runtime.services import Services

# The worker process binds its Services here at start-up (webhook_worker.py).
_bound: dict = {}


def bind(services: Services) -> None:
    _bound["services"] = services


def deliver(aid: str, payload: dict[str, Any], attempt: int) -> str:
    """RQ job: attempt ``attempt`` of the delivery ``payload`` to ``aid``'s webhook."""
    if "services" not in _bound:
        bind(Services(load_config()))
    return delivery.deliver(_bound["services"], aid, payload, attempt)
