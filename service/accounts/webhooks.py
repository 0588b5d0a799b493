"""An account's webhook (docs/webhooks.md): set, read, delete, ping, and its
delivery log; the routes are thin over these (service/http/routes/webhooks.py).

Setting checks the URL (service/accounts/webhook_targets.py: https, and
every address the name resolves to public, unless the operator allows
otherwise): a target the server's policy refuses is 403
``webhook_target_forbidden`` with the reason (``details.reason``), a
malformed URL 422 ``validation_error`` (the schema's pattern).
"""

import secrets
from typing import Any

from service.accounts.auth import Principal, now_iso
from service.accounts.hook_queue import enqueue_attempt, new_delivery
from service.accounts.webhook_targets import TargetForbidden, TargetRefused, check_url
from service.model.errors import ApiError, not_found, validation
from service.model.webhooks import PING, WEBHOOK_EVENT_TYPES
from service.runtime.services import Services
from service.storage import webhooks as stored

SECRET_BYTES = 32
PUBLIC_FIELDS = ("url", "events", "enabled", "created_at", "consecutive_failures", "disabled_reason")


def _public(hook: dict[str, Any]) -> dict[str, Any]:
    return {name: hook[name] for name in PUBLIC_FIELDS}


def put_webhook(services: Services, principal: Principal, body: dict[str, Any]) -> dict[str, Any]:
    """Set (or replace, enabled again) the webhook; the answer carries the
    secret, generated unless given."""
    config = services.config
    try:
        check_url(body["url"], bool(config["WEBHOOK_ALLOW_HTTP"]), bool(config["WEBHOOK_ALLOW_PRIVATE"]))
    except TargetForbidden as exc:
        raise ApiError(
            403, "webhook_target_forbidden", f"webhook target refused by this server: {exc}", reason=str(exc)
        ) from None
    except TargetRefused as exc:
        raise validation(f"webhook URL refused: {exc}", fields={"url": [str(exc)]}) from None
    events = list(dict.fromkeys(body.get("events") or WEBHOOK_EVENT_TYPES))
    secret = body.get("secret") or "whsec_" + secrets.token_urlsafe(SECRET_BYTES)
    stored.write_webhook(services.redis, principal.aid, body["url"], events, secret, now_iso())
    return dict(_public(own_hook(services, principal.aid)), secret=secret)


def own_hook(services: Services, aid: str) -> dict[str, Any]:
    hook = stored.read_webhook(services.redis, aid)
    if hook is None:
        raise not_found("webhook")
    return hook


def get_webhook(services: Services, principal: Principal) -> dict[str, Any]:
    return _public(own_hook(services, principal.aid))


def delete_webhook(services: Services, principal: Principal) -> None:
    if not stored.delete_webhook(services.redis, principal.aid):
        raise not_found("webhook")


def ping(services: Services, principal: Principal) -> dict[str, Any]:
    """Enqueue a ``ping`` delivery (not in the account's log); its ids."""
    own_hook(services, principal.aid)
    event_id = "ping-" + secrets.token_hex(8)
    delivery = new_delivery(event_id, PING, {"message": "ping from Tabula"})
    enqueue_attempt(services, principal.aid, delivery, 1, 0)
    return {"delivery_id": delivery["delivery_id"], "event_id": event_id}


def deliveries(services: Services, principal: Principal, limit: int) -> list[dict[str, Any]]:
    """The latest attempts, newest first (the log keeps the last 100; none
    without a webhook)."""
    return stored.read_attempts(services.redis, principal.aid, limit)
