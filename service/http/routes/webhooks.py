"""An account's webhook (docs/webhooks.md): thin routes over service/accounts/webhooks.py."""

from typing import Any

from flask.views import MethodView

from service.accounts import webhooks
from service.accounts.auth import require
from service.http.routes.common import SCOPED, Blueprint, documents_errors, scoped, services, token
from service.spec.webhook_schemas import (
    DeliveriesQuerySchema,
    DeliverySchema,
    PingSchema,
    WebhookSchema,
    WebhookSetAnswerSchema,
    WebhookSetSchema,
)

blp = Blueprint(
    "webhooks",
    __name__,
    url_prefix="/v1/account/webhook",
    description="The account's webhook: its events POSTed, signed, to a URL of the account's.",
)

NO_WEBHOOK = {**SCOPED, 404: "`not_found`: the account has no webhook."}
REFUSED = "`validation_error`: a field fails its schema (the URL: its pattern, an http(s) URL)."
TARGET_FORBIDDEN = (
    f"{SCOPED[403]} `webhook_target_forbidden`: the server's policy refuses the target (http:// where "
    "it is off, a host resolving to no address or to one that is not public): `details.reason`."
)


@blp.route("")
class Webhook(MethodView):
    @blp.doc(operationId="putWebhook", **scoped("account:write"))
    @blp.arguments(WebhookSetSchema)
    @blp.response(200, WebhookSetAnswerSchema)
    @documents_errors(blp, 400, 401, 403, 413, 422, texts={**SCOPED, 403: TARGET_FORBIDDEN, 422: REFUSED})
    def put(self, body: dict[str, Any]) -> dict[str, Any]:
        """Set the webhook (enabled again); the secret is answered this once."""
        return webhooks.put_webhook(services(), require(services(), token(), "account:write"), body)

    @blp.doc(operationId="getWebhook", **scoped("account:read"))
    @blp.response(200, WebhookSchema)
    @documents_errors(blp, 401, 403, 404, texts=NO_WEBHOOK)
    def get(self) -> dict[str, Any]:
        """The webhook, without its secret."""
        return webhooks.get_webhook(services(), require(services(), token(), "account:read"))

    @blp.doc(operationId="deleteWebhook", **scoped("account:write"))
    @blp.response(204)
    @documents_errors(blp, 401, 403, 404, texts=NO_WEBHOOK)
    def delete(self) -> None:
        """Delete the webhook and its delivery log."""
        webhooks.delete_webhook(services(), require(services(), token(), "account:write"))


@blp.route("/ping")
class Ping(MethodView):
    @blp.doc(operationId="pingWebhook", **scoped("account:write"))
    @blp.response(202, PingSchema)
    @documents_errors(blp, 401, 403, 404, texts=NO_WEBHOOK)
    def post(self) -> Any:
        """Queue a `ping` delivery (it is not an account event)."""
        return webhooks.ping(services(), require(services(), token(), "account:write")), 202


@blp.route("/deliveries")
class Deliveries(MethodView):
    @blp.doc(operationId="listWebhookDeliveries", **scoped("account:read"))
    @blp.arguments(DeliveriesQuerySchema, location="query")
    @blp.response(200, DeliverySchema(many=True))
    @documents_errors(blp, 400, 401, 403, texts=SCOPED)
    def get(self, query: dict[str, Any]) -> list[dict[str, Any]]:
        """The latest delivery attempts, newest first."""
        principal = require(services(), token(), "account:read")
        return webhooks.deliveries(services(), principal, query["limit"])
