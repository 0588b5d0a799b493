"""One attempt of one webhook delivery (docs/webhooks.md), run by the webhook
worker (service/worker/webhook_jobs.py).

The attempt reads the webhook's settings (so a new secret or URL applies to
the retries of older events), checks its URL again (webhook_targets: DNS
rebinding), POSTs the event signed to the checked address (pinned: urllib3
connects to that IP, with the name as Host header, TLS SNI and the name the
certificate must be for), follows no redirect, and logs the attempt. A
failure (no 2xx in ``WEBHOOK_TIMEOUT_S``) schedules the next attempt after
``WEBHOOK_RETRY_S`` (jittered) with the same delivery id, or gives up; after
``WEBHOOK_DISABLE_AFTER`` failed attempts in a row the webhook is switched
off and a ``webhook_disabled`` event published.
"""

import hashlib
import hmac
import logging
import random
import time
from typing import Any

import orjson
import urllib3

from service.accounts.events import publish_account_event
from service.accounts.hook_queue import enqueue_attempt
from service.accounts.webhook_targets import Target, TargetRefused, check_url
from service.runtime.services import Services
from service.storage import webhooks as stored

log = logging.getLogger(__name__)

USER_AGENT = "Tabula-Webhooks/1"
RESPONSE_READ_MAX = 1024


def signature(secret: str, timestamp: int, body: bytes) -> str:
    """The ``Tabula-Signature`` header: ``t=<unix s>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>``."""
    mac = hmac.new(secret.encode(), str(timestamp).encode() + b"." + body, hashlib.sha256)
    return f"t={timestamp},v1={mac.hexdigest()}"


def request_body(delivery: dict[str, Any]) -> bytes:
    return orjson.dumps(dict(delivery["event"], delivery_id=delivery["delivery_id"]))


def post(target: Target, body: bytes, headers: dict[str, str], timeout_s: float) -> int:
    """POST ``body`` to ``target``'s first checked address; the status code
    (no redirect followed, no retry). Raises urllib3's errors."""
    default_port = 443 if target.scheme == "https" else 80
    host_header = target.host if target.port == default_port else f"{target.host}:{target.port}"
    timeout = urllib3.Timeout(connect=timeout_s, read=timeout_s)
    pool_class: Any = urllib3.HTTPConnectionPool
    options: dict[str, Any] = {}
    if target.scheme == "https":
        pool_class = urllib3.HTTPSConnectionPool
        options = {"server_hostname": target.host, "assert_hostname": target.host}
    with pool_class(target.addresses[0], target.port, timeout=timeout, retries=False, **options) as pool:
        response = pool.urlopen(
            "POST",
            target.path,
            body=body,
            headers={**headers, "Host": host_header},
            redirect=False,
            preload_content=False,
        )
        response.read(RESPONSE_READ_MAX)
        response.release_conn()
        return int(response.status)


def _send(config: dict[str, Any], hook: dict[str, Any], delivery: dict[str, Any]) -> tuple[int | None, str]:
    """One POST: ``(status code or None, error text or "")``."""
    body = request_body(delivery)
    headers = {
        "Content-Type": "application/json",
        "User-Agent": USER_AGENT,
        "Tabula-Event": delivery["event"]["type"],
        "Tabula-Delivery": delivery["delivery_id"],
        "Tabula-Signature": signature(hook["secret"], int(time.time()), body),
    }
    try:
        target = check_url(
            hook["url"], bool(config["WEBHOOK_ALLOW_HTTP"]), bool(config["WEBHOOK_ALLOW_PRIVATE"])
        )
        status = post(target, body, headers, config["WEBHOOK_TIMEOUT_S"])
    except TargetRefused as exc:
        return None, f"refused: {exc}"
    except urllib3.exceptions.HTTPError as exc:
        return None, f"{type(exc).__name__}: {exc}"[:300]
    return status, "" if 200 <= status < 300 else f"HTTP {status}"


def retry_delays(config: dict[str, Any]) -> list[float]:
    return [float(s) for s in str(config["WEBHOOK_RETRY_S"]).split(",") if s.strip()]


def _after_failure(services: Services, aid: str, delivery: dict[str, Any], attempt: int) -> float | None:
    """Count the failure; switch the webhook off after the run, or schedule
    the next attempt. Returns the next attempt's unix time, or None."""
    run = stored.count_failure(services.redis, aid)
    if run >= services.config["WEBHOOK_DISABLE_AFTER"]:
        reason = f"{run} failed attempts in a row"
        stored.disable_webhook(services.redis, aid, reason)
        if run == services.config["WEBHOOK_DISABLE_AFTER"]:  # exactly one attempt says so
            publish_account_event(services, aid, "webhook_disabled", {"reason": reason})
        return None
    delays = retry_delays(services.config)
    if attempt > len(delays):
        return None
    delay = delays[attempt - 1] * random.uniform(1 - services.config["WEBHOOK_JITTER"], 1)
    enqueue_attempt(services, aid, delivery, attempt + 1, delay)
    return time.time() + delay


def deliver(services: Services, aid: str, delivery: dict[str, Any], attempt: int) -> str:
    """Make attempt ``attempt`` of ``delivery`` and log it; returns its outcome
    (``delivered``, ``failed``, ``dropped``: no webhook or switched off)."""
    hook = stored.read_webhook(services.redis, aid)
    if hook is None or not (hook["enabled"] or delivery["event"]["type"] == "ping"):
        return "dropped"
    started = time.monotonic()
    status, error = _send(services.config, hook, delivery)
    duration_ms = round((time.monotonic() - started) * 1000, 1)
    next_at = None
    if not error:
        stored.count_success(services.redis, aid)
    else:
        next_at = _after_failure(services, aid, delivery, attempt)
    stored.log_attempt(
        services.redis,
        aid,
        {
            "id": delivery["delivery_id"],
            "event_type": delivery["event"]["type"],
            "event_id": delivery["event"]["id"],
            "attempt": attempt,
            "status_code": status,
            "error": error or None,
            "duration_ms": duration_ms,
            "at": _iso(time.time()),
            "next_attempt_at": _iso(next_at) if next_at is not None else None,
        },
    )
    return "failed" if error else "delivered"


def _iso(unix: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(unix))
