"""The account's events: what the account stream and the webhooks carry.

``publish_account_event`` is the one way an account event is made: it is
appended to the account's log (a Redis stream, trimmed to about a thousand
entries: service/storage/accounts.py) and its id published on the account's
live channel. The account stream reads that log and channel; the webhook
deliveries start from the same call. An event never carries a seat's private
information: only what the match's spectators or the account itself may know.

Event types: ``match_started``, ``your_turn``, ``match_finished``,
``seat_handed_to_ai`` (each with ``match_id`` and the match's ``game``,
``seat`` and ``version``), ``webhook_disabled``, and, later, challenges.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from service.accounts.hook_queue import enqueue_event
from service.storage.accounts import append_account_event

if TYPE_CHECKING:
    from service.runtime.services import Services


def publish_account_event(
    services: Services, aid: str, event_type: str, data: dict[str, Any], match_id: str | None = None
) -> str:
    """Append one event to account ``aid``'s log and announce it; returns its id.

    ``data`` is the event's public body; ``match_id``, when the event is about
    a match, is stored in it as ``match_id``. When the account's webhook is
    on and subscribed to ``event_type``, a delivery is enqueued
    (service/accounts/hook_queue.py; docs/webhooks.md).
    """
    body = dict(data, match_id=match_id) if match_id is not None else dict(data)
    event_id = append_account_event(services.redis, aid, event_type, body)
    enqueue_event(services, aid, event_id, event_type, body)
    return event_id
