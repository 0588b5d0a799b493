"""The account operations of ``Client`` (docs/accounts.md), as a mixin.

A first cut (plain JSON answers) so every operation of the spec has a
method; typed models come with the client's own accounts work.
"""

from typing import Any

import httpx

from .models import JSON

ACCOUNT_OPERATIONS: dict[str, str] = {
    "createAccount": "create_account",
    "putAppAccount": "put_app_account",
    "getOwnAccount": "get_own_account",
    "closeAccount": "close_account",
    "getProfile": "get_profile",
    "listTokens": "list_tokens",
    "createToken": "create_token",
    "revokeToken": "revoke_token",
}


class AccountsMixin:
    """Needs ``_call`` and ``_json`` (``Client`` has them)."""

    def _call(self, method: str, path: str, **kwargs: Any) -> httpx.Response:
        raise NotImplementedError

    def _json(self, method: str, path: str, **kwargs: Any) -> Any:
        raise NotImplementedError

    def create_account(self, name: str, kind: str = "human") -> JSON:
        """Sign up: ``{"account", "token", "token_id"}`` (the token shown once)."""
        return dict(self._json("POST", "/v1/accounts", json={"name": name, "kind": kind}))

    def put_app_account(self, external_id: str, name: str, kind: str = "human", **extra: Any) -> JSON:
        """With an app key as the token: the app user's account and a new token."""
        body = {"name": name, "kind": kind, **extra}
        return dict(self._json("PUT", f"/v1/apps/accounts/{external_id}", json=body))

    def get_own_account(self) -> JSON:
        return dict(self._json("GET", "/v1/account"))

    def close_account(self) -> None:
        self._call("DELETE", "/v1/account")

    def get_profile(self, name: str) -> JSON:
        return dict(self._json("GET", f"/v1/accounts/{name}"))

    def list_tokens(self) -> list[JSON]:
        return list(self._json("GET", "/v1/account/tokens"))

    def create_token(self, label: str, scopes: list[str], expires_in_s: int | None = None) -> JSON:
        body: JSON = {"label": label, "scopes": scopes}
        if expires_in_s is not None:
            body["expires_in_s"] = expires_in_s
        return dict(self._json("POST", "/v1/account/tokens", json=body))

    def revoke_token(self, token_id: str) -> None:
        self._call("DELETE", f"/v1/account/tokens/{token_id}")
