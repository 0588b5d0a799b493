"""Verifying a webhook delivery's signature (docs: the account's webhook).

Each delivery is a POST whose ``Tabula-Signature`` header is
``t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>``; while a
secret is being rotated, several ``v1=`` values may come (one per secret),
and any one that matches verifies. ``Tabula-Delivery`` (an id, the same on
every retry: de-duplicate with it) and ``Tabula-Event`` (the type) come
beside it.

    from tabula_client.webhooks import verify
    if not verify(SECRET, request_body_bytes, headers["Tabula-Signature"]):
        return 400
"""

import hashlib
import hmac
import time

DEFAULT_TOLERANCE_S = 300


def signature(secret: str | bytes, timestamp: int, body: bytes) -> str:
    """The hex ``v1`` of ``body`` sent at ``timestamp`` (what the server computes)."""
    key = secret.encode() if isinstance(secret, str) else secret
    return hmac.new(key, str(timestamp).encode() + b"." + body, hashlib.sha256).hexdigest()


def parse_header(header: str) -> tuple[int | None, list[str]]:
    """``(t, [v1, ...])`` of a ``Tabula-Signature`` header (t None: missing or not a number)."""
    timestamp: int | None = None
    values: list[str] = []
    for part in header.split(","):
        name, _, value = part.strip().partition("=")
        if name == "t":
            try:
                timestamp = int(value)
            except ValueError:
                return None, []
        elif name == "v1" and value:
            values.append(value.strip().lower())
    return timestamp, values


def verify(
    secret: str | bytes,
    body: bytes,
    signature_header: str | None,
    tolerance_s: float = DEFAULT_TOLERANCE_S,
    now: float | None = None,
) -> bool:
    """True when ``signature_header`` signs exactly ``body`` (the raw bytes
    as received, before any JSON parsing) with ``secret``, at a timestamp
    within ``tolerance_s`` seconds of ``now`` (default: the clock), so an
    old delivery replayed later is refused. Never raises on a malformed
    header: it is just False. Comparisons are constant-time."""
    if not signature_header:
        return False
    timestamp, values = parse_header(signature_header)
    if timestamp is None or not values:
        return False
    current = time.time() if now is None else now
    if abs(current - timestamp) > tolerance_s:
        return False
    expected = signature(secret, timestamp, body).encode()
    matched = False
    for value in values:  # every value compared: the time taken says nothing
        matched |= hmac.compare_digest(expected, value.encode("utf-8", "replace"))
    return matched
