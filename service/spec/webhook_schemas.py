"""The schemas of the webhook routes (service/http/routes/webhooks.py)."""

import marshmallow as ma
from marshmallow import validate

from service.model.webhooks import WEBHOOK_EVENT_TYPES
from service.spec.schemas import describe

EVENTS_TEXT = "Any of: " + ", ".join(f"`{t}`" for t in WEBHOOK_EVENT_TYPES) + "."


def _events(**kwargs: object) -> ma.fields.List:
    return ma.fields.List(
        ma.fields.String(validate=validate.OneOf(WEBHOOK_EVENT_TYPES)),
        validate=validate.Length(1, len(WEBHOOK_EVENT_TYPES) * 2),
        **kwargs,  # type: ignore[arg-type]
    )


class WebhookSetSchema(ma.Schema):
    url = ma.fields.String(
        required=True,
        validate=validate.Length(8, 2048),
        metadata=describe(
            "https:// (http:// only where the operator allows it); every address its host resolves "
            "to must be public (no loopback, private, link-local, CGNAT or metadata address), or 422."
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
