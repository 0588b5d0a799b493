"""The schemas of the webhook routes (service/http/routes/webhooks.py)."""

import re
from typing import cast

import marshmallow as ma
from marshmallow import validate

from service.model.webhooks import WEBHOOK_EVENT_TYPES
from service.spec.schemas import describe

EVENTS_TEXT = "Any of: " + ", ".join(f"`{t}`" for t in WEBHOOK_EVENT_TYPES) + "."

# A webhook URL's shape (RFC 3986, ASCII): http or https (any case), a host (a
# registered name or an IPv4 literal; an IPv6 literal in brackets), a port up
# to 65535, no user or password; then a path, query or fragment without
# spaces. What the server's policy refuses (http where it is off, a host that
# resolves to no public address) is 403, not this (docs/webhooks.md).
_OCTET = r"(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])"
_LS32 = rf"(?:H:H|(?:{_OCTET}\.){{3}}{_OCTET})"
# RFC 3986's IPv6address, its nine forms ("H": h16): a literal Python's
# ipaddress (and so urlsplit) accepts too.
_IPV6 = "|".join(
    (
        rf"(?:H:){{6}}{_LS32}",
        rf"::(?:H:){{5}}{_LS32}",
        *(rf"(?:(?:H:){{0,{k}}}H)?::(?:H:){{{4 - k}}}{_LS32}" for k in range(5)),
        r"(?:(?:H:){0,5}H)?::H",
        r"(?:(?:H:){0,6}H)?::",
    )
).replace("H", "[0-9A-Fa-f]{1,4}")
_PORT = r"(?::(?:[0-9]{0,4}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5]))?"
WEBHOOK_URL_PATTERN = (
    rf"^[Hh][Tt][Tt][Pp][Ss]?://(?:[A-Za-z0-9._~!$&'()*+,;=%-]+|\[(?:{_IPV6})\]){_PORT}(?:[/?#][!-~]*)?$"
)


class WholeMatch(validate.Regexp):
    """``validate.Regexp`` over the whole value, as JSON Schema reads an
    anchored ``pattern`` (Python's ``$`` would also pass a trailing newline)."""

    def __call__(self, value: str) -> str:  # type: ignore[override]
        if cast("re.Pattern[str]", self.regex).fullmatch(value) is None:
            raise ma.ValidationError(self._format_error(value))
        return value


def _events(**kwargs: object) -> ma.fields.List:
    return ma.fields.List(
        ma.fields.String(validate=validate.OneOf(WEBHOOK_EVENT_TYPES)),
        validate=validate.Length(1, len(WEBHOOK_EVENT_TYPES) * 2),
        **kwargs,  # type: ignore[arg-type]
    )


class WebhookSetSchema(ma.Schema):
    url = ma.fields.String(
        required=True,
        validate=[validate.Length(8, 2048), WholeMatch(WEBHOOK_URL_PATTERN, error="not an http(s) URL")],
        metadata=describe(
            "An http(s) URL with a host and no user or password (the pattern; 422 otherwise). The "
            "server's policy (403 `webhook_target_forbidden`): https:// only (http:// where the "
            "operator allows it), and every address the host resolves to public (no loopback, private, "
            "link-local, CGNAT or metadata address; a host that resolves to none is refused too)."
        ),
    )
    events = _events(metadata=describe(f"The event types to deliver (default: all). {EVENTS_TEXT}"))
    secret = ma.fields.String(
        validate=validate.Length(16, 256),
        metadata=describe("The signing secret (16 to 256 characters); absent: generated, answered once."),
    )


class WebhookSchema(ma.Schema):
    url = ma.fields.String(required=True)
    events = ma.fields.List(ma.fields.String(), required=True)
    enabled = ma.fields.Boolean(required=True, metadata=describe("False once switched off after failures."))
    created_at = ma.fields.String(required=True, metadata=describe("ISO 8601 UTC."))
    consecutive_failures = ma.fields.Integer(required=True, metadata=describe("Failed attempts in a row."))
    disabled_reason = ma.fields.String(
        required=True, allow_none=True, metadata=describe("Why it was switched off, or null.")
    )


class WebhookSetAnswerSchema(WebhookSchema):
    secret = ma.fields.String(required=True, metadata=describe("The signing secret, answered this once."))


class PingSchema(ma.Schema):
    delivery_id = ma.fields.String(required=True, metadata=describe("The `Tabula-Delivery` of the ping."))
    event_id = ma.fields.String(required=True)


class DeliveriesQuerySchema(ma.Schema):
    limit = ma.fields.Integer(
        load_default=20, validate=validate.Range(1, 100), metadata=describe("How many (1 to 100).")
    )


class DeliverySchema(ma.Schema):
    id = ma.fields.String(required=True, metadata=describe("The delivery id, the same on every retry."))
    event_type = ma.fields.String(required=True)
    event_id = ma.fields.String(required=True)
    attempt = ma.fields.Integer(required=True, metadata=describe("1 for the first."))
    status_code = ma.fields.Integer(required=True, allow_none=True, metadata=describe("null: no answer."))
    error = ma.fields.String(required=True, allow_none=True, metadata=describe("null: delivered (2xx)."))
    duration_ms = ma.fields.Float(required=True)
    at = ma.fields.String(required=True, metadata=describe("ISO 8601 UTC."))
    next_attempt_at = ma.fields.String(
        required=True,
        allow_none=True,
        metadata=describe("When it is retried, or null (delivered, or given up)."),
    )
