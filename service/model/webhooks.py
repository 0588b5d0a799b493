"""What a webhook is, as values every layer shares (docs/webhooks.md)."""

# The account events a webhook may subscribe to (service/accounts/events.py);
# a `ping` (POST /v1/account/webhook/ping) is always delivered.
WEBHOOK_EVENT_TYPES = (
    "match_started",
    "your_turn",
    "match_finished",
    "seat_handed_to_ai",
    "webhook_disabled",
    "challenge",
)
PING = "ping"
# Delivery ids: `d` + 24 hex characters, stable across a delivery's retries.
DELIVERY_ID_PREFIX = "d"
