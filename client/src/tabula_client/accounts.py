"""The account operations of ``Client`` (docs/accounts.md), as a mixin:
sign-up, yourself, profiles, personal access tokens, your matches, an
account's history and the account stream."""

from collections.abc import Iterator
from typing import Any, cast

import httpx

from .account_stream import AccountStream
from .models import (
    JSON,
    Account,
    MatchSummary,
    NewToken,
    Profile,
    Scope,
    SignedUp,
    StreamTicket,
    TokenInfo,
)
from .stream import read_messages

# operationId (openapi.yaml) -> method, merged into ``OPERATIONS``.
ACCOUNT_OPERATIONS: dict[str, str] = {
    "createAccount": "sign_up",
    "putAppAccount": "put_app_account",
    "getOwnAccount": "account",
    "closeAccount": "close_account",
    "getProfile": "profile",
    "listTokens": "tokens",
    "createToken": "create_token",
    "revokeToken": "revoke_token",
    "listOwnMatches": "my_matches",
    "listAccountHistory": "account_matches",
    "streamAccount": "account_stream",
    "createAccountStreamTicket": "create_account_stream_ticket",
    "putWebhook": "set_webhook",
    "getWebhook": "webhook",
    "deleteWebhook": "delete_webhook",
    "pingWebhook": "ping_webhook",
    "listWebhookDeliveries": "webhook_deliveries",
}

NDJSON = "application/x-ndjson"
SSE = "text/event-stream"


class AccountsMixin:
    """Needs ``_call``, ``_json`` and ``timeout`` (``Client`` has them)."""

    timeout: float

    def _call(self, method: str, path: str, **kwargs: Any) -> httpx.Response:
        raise NotImplementedError

    def _json(self, method: str, path: str, **kwargs: Any) -> Any:
        raise NotImplementedError

    # -- accounts --

    def sign_up(self, name: str, kind: str = "human") -> SignedUp:
        """A new account (``kind`` ``human`` or ``bot``) and its first token,
        shown this once (all scopes). 409 ``NameTaken``; 422 for a refused name."""
        return cast(SignedUp, self._json("POST", "/v1/accounts", json={"name": name, "kind": kind}))

    def put_app_account(self, external_id: str, name: str, kind: str = "human", **extra: Any) -> SignedUp:
        """With an app key as the token: the app user's account (made on the
        first call) and a new token (``label``, ``scopes`` in ``extra``)."""
        body = {"name": name, "kind": kind, **extra}
        return cast(SignedUp, self._json("PUT", f"/v1/apps/accounts/{external_id}", json=body))

    def account(self) -> Account:
        """The token's account (scope ``account:read``)."""
        return cast(Account, self._json("GET", "/v1/account"))

    def close_account(self) -> None:
        """Close the token's account: every token revoked, the name kept reserved."""
        self._call("DELETE", "/v1/account")

    def profile(self, name: str) -> Profile:
        """An account's public profile (no token needed)."""
        return cast(Profile, self._json("GET", f"/v1/accounts/{name}"))

    # -- tokens --

    def create_token(
        self, label: str, scopes: list[Scope] | list[str], expires_in_s: int | None = None
    ) -> NewToken:
        """A new personal access token (``token`` shown this once);
        ``expires_in_s`` None: never expires."""
        body: JSON = {"label": label, "scopes": list(scopes)}
        if expires_in_s is not None:
            body["expires_in_s"] = expires_in_s
        return cast(NewToken, self._json("POST", "/v1/account/tokens", json=body))

    def tokens(self) -> list[TokenInfo]:
        """The account's live tokens, oldest first (never the tokens themselves)."""
        return cast(list[TokenInfo], self._json("GET", "/v1/account/tokens"))

    def revoke_token(self, token_id: str) -> None:
        """Revoke at once: the token is 401 from then on."""
        self._call("DELETE", f"/v1/account/tokens/{token_id}")

    # -- matches and history --

    def my_matches(
        self,
        status: str | None = None,
        to_act: bool | None = None,
        page: int | None = None,
        page_size: int | None = None,
    ) -> list[MatchSummary]:
        """The account's matches, newest first, one page (``page`` from 1);
        ``to_act=True``: only those where it is to act."""
        params = {
            "status": status,
            "to_act": None if to_act is None else str(to_act).lower(),
            "page": page,
            "page_size": page_size,
        }
        return cast(list[MatchSummary], self._json("GET", "/v1/account/matches", params=params))

    def account_matches(
        self, name: str, page: int | None = None, page_size: int | None = None
    ) -> list[MatchSummary]:
        """An account's finished matches (public), newest first, one page."""
        params = {"page": page, "page_size": page_size}
        body = self._json("GET", f"/v1/accounts/{name}/matches", params=params)
        return cast(list[MatchSummary], body)

    def export_history(self, name: str) -> Iterator[MatchSummary]:
        """Every finished match of the account, read as one NDJSON stream."""
        response = self._call(
            "GET", f"/v1/accounts/{name}/matches", headers={"Accept": NDJSON}, stream=True, timeout=None
        )
        try:
            for message in read_messages(response):
                yield cast(MatchSummary, message.data)
        finally:
            response.close()

    # -- the account stream --

    def account_stream_response(
        self, *, last_event_id: str | None = None, sse: bool = False, timeout: httpx.Timeout | None = None
    ) -> httpx.Response:
        """One open connection of ``GET /v1/account/stream`` (unread: close it)."""
        headers = {"Accept": SSE if sse else NDJSON}
        if last_event_id is not None:
            headers["Last-Event-ID"] = last_event_id
        return self._call("GET", "/v1/account/stream", headers=headers, stream=True, timeout=timeout)

    def create_account_stream_ticket(self) -> StreamTicket:
        """A short-lived, single-use ``?ticket=`` for a browser's account
        stream (scope ``match:read``)."""
        return cast(StreamTicket, self._json("POST", "/v1/account/stream-ticket"))

    def account_stream(
        self, last_event_id: str | None = None, sse: bool = False, read_timeout: float = 45.0
    ) -> AccountStream:
        """The account's events, for ever: an iterator of ``AccountEvent``
        that reconnects and resumes with ``Last-Event-ID`` (scope
        ``match:read``). See ``tabula_client.account_stream``."""
        return AccountStream(self, last_event_id, sse, read_timeout)

    # -- the webhook (docs/webhooks.md; tabula_client.webhooks.verify checks a delivery) --

    def set_webhook(self, url: str, events: list[str] | None = None, secret: str | None = None) -> JSON:
        """Set the account's webhook (scope ``account:write``); without
        ``secret`` the server makes one and answers it this once. A target the
        server's policy refuses is ``WebhookTargetForbidden`` (403, ``reason``);
        a malformed URL ``ValidationError`` (422)."""
        body: JSON = {"url": url}
        if events is not None:
            body["events"] = list(events)
        if secret is not None:
            body["secret"] = secret
        return cast(JSON, self._json("PUT", "/v1/account/webhook", json=body))

    def webhook(self) -> JSON:
        """The account's webhook, without its secret (scope ``account:read``)."""
        return cast(JSON, self._json("GET", "/v1/account/webhook"))

    def delete_webhook(self) -> None:
        """Remove the account's webhook (scope ``account:write``)."""
        self._call("DELETE", "/v1/account/webhook")

    def ping_webhook(self) -> JSON:
        """Send a signed ``ping`` delivery now; answers its delivery id."""
        return cast(JSON, self._json("POST", "/v1/account/webhook/ping"))

    def webhook_deliveries(self, limit: int | None = None) -> list[JSON]:
        """The latest delivery attempts, newest first (scope ``account:read``)."""
        params = {"limit": limit} if limit is not None else None
        return cast(list[JSON], self._json("GET", "/v1/account/webhook/deliveries", params=params))
