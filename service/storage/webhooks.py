"""An account's webhook in Redis (docs/webhooks.md): its settings and its
delivery log, both under the account's hash tag (one slot on a cluster).

- ``account:{<aid>}:webhook``             hash: ``url``, ``events`` (JSON
  list), ``secret``, ``enabled`` ("1"/"0"), ``created_at``,
  ``consecutive_failures``, ``disabled_reason``
- ``account:{<aid>}:webhook:deliveries``  list of JSON attempts, newest
  first, trimmed to ``DELIVERY_LOG_MAX``
"""

import json
from typing import Any

from service.storage.accounts import account_key, text

# Attempts kept in an account's delivery log.
DELIVERY_LOG_MAX = 100


def webhook_key(aid: str) -> str:
    return account_key(aid, "webhook")


def deliveries_key(aid: str) -> str:
    return account_key(aid, "webhook", "deliveries")


def write_webhook(client: Any, aid: str, url: str, events: list[str], secret: str, created_at: str) -> None:
    """Set (or replace) the webhook, enabled, with no failures counted."""
    pipe = client.pipeline(transaction=True)
    pipe.delete(webhook_key(aid))
    pipe.hset(
        webhook_key(aid),
        mapping={
            "url": url,
            "events": json.dumps(events),
            "secret": secret,
            "enabled": "1",
            "created_at": created_at,
            "consecutive_failures": 0,
            "disabled_reason": "",
        },
    )
    pipe.execute()


def read_webhook(client: Any, aid: str) -> dict[str, Any] | None:
    """The webhook's settings (``secret`` included), or None."""
    raw = client.hgetall(webhook_key(aid))
    if not raw:
        return None
    fields = {text(k): text(v) for k, v in raw.items()}
    return {
        "url": fields["url"],
        "events": json.loads(fields["events"]),
        "secret": fields["secret"],
        "enabled": fields["enabled"] == "1",
        "created_at": fields["created_at"],
        "consecutive_failures": int(fields.get("consecutive_failures") or 0),
        "disabled_reason": fields.get("disabled_reason") or None,
    }


def read_subscription(client: Any, aid: str) -> tuple[bool, list[str]]:
    """``(enabled, event types)``: the one cheap read (HMGET) before an
    event's delivery is enqueued; ``(False, [])`` without a webhook."""
    enabled, events = client.hmget(webhook_key(aid), ["enabled", "events"])
    if enabled is None or events is None:
        return False, []
    return text(enabled) == "1", json.loads(events)


def delete_webhook(client: Any, aid: str) -> bool:
    """Drop the webhook and its log; False when there was none."""
    pipe = client.pipeline(transaction=True)
    pipe.delete(webhook_key(aid))
    pipe.delete(deliveries_key(aid))
    return bool(pipe.execute()[0])


def count_failure(client: Any, aid: str) -> int:
    """One more failed attempt in a row; returns the run's length (0: no webhook)."""
    if not client.exists(webhook_key(aid)):
        return 0
    return int(client.hincrby(webhook_key(aid), "consecutive_failures", 1))


def count_success(client: Any, aid: str) -> None:
    if client.exists(webhook_key(aid)):
        client.hset(webhook_key(aid), "consecutive_failures", 0)


def disable_webhook(client: Any, aid: str, reason: str) -> None:
    if client.exists(webhook_key(aid)):
        client.hset(webhook_key(aid), mapping={"enabled": "0", "disabled_reason": reason})


def log_attempt(client: Any, aid: str, attempt: dict[str, Any]) -> None:
    """Prepend one attempt to the account's delivery log (capped)."""
    pipe = client.pipeline(transaction=True)
    pipe.lpush(deliveries_key(aid), json.dumps(attempt))
    pipe.ltrim(deliveries_key(aid), 0, DELIVERY_LOG_MAX - 1)
    pipe.execute()


def read_attempts(client: Any, aid: str, count: int) -> list[dict[str, Any]]:
    """The latest ``count`` attempts, newest first."""
    return [json.loads(item) for item in client.lrange(deliveries_key(aid), 0, count - 1)]
