"""Making accounts: sign-up (open, or closed to all but the operator) and the
accounts an app makes for its own users.

An account's name is claimed first (``SET accountname:<key> NX``), so of
racing sign-ups of one name exactly one wins; an app user's account is
claimed first by ``SET app:<app>:user:<id> NX``, so racing calls for one app
user make one account: the others wait (briefly) for its hash and find it.
"""

import base64
import hashlib
import hmac
import secrets
import time
from typing import Any

from service.accounts.auth import now_iso
from service.accounts.names import normalize_name
from service.accounts.tokens import mint_token
from service.model.accounts import SCOPES
from service.model.errors import ApiError, unauthorized
from service.runtime.services import Services
from service.storage import accounts as stored
from service.storage.rate_limit import RateCharge, Window

# How long a racing app call waits for the winner's account hash.
_FIND_TRIES, _FIND_PAUSE_S = 100, 0.01


def new_aid() -> str:
    """``a`` + 20 lowercase base32 characters (100 random bits)."""
    return "a" + base64.b32encode(secrets.token_bytes(15)).decode().lower()[:20]


def sign_up(services: Services, body: dict[str, Any], bearer: str | None, address: str) -> dict[str, Any]:
    """``POST /v1/accounts``: the new account and its first token (all scopes).

    403 when sign-up is closed and ``bearer`` is not the operator key; 429
    over the address's sign-up window (the operator is not counted); 422 for
    a refused name, 409 ``name_taken`` for a taken one."""
    operator = is_operator(services.config, bearer)
    if services.config["TABULA_SIGNUP"] == "closed" and not operator:
        raise ApiError(
            403, "forbidden", "sign-up is closed on this server: only the operator creates accounts"
        )
    if not operator:
        window = Window(
            services.config["SIGNUP_RATE_LIMIT"], services.config["SIGNUP_RATE_WINDOW_S"], "signups"
        )
        charge = RateCharge.configured(window, address)
        if charge is not None:
            charge.enforce(charge.count_with(services.store))
    name, key = normalize_name(body["name"])
    account = create_account(services, new_aid(), name, key, body["kind"])
    return _with_token(services, account, "sign-up", SCOPES)


def app_account(
    services: Services, bearer: str | None, external_id: str, body: dict[str, Any]
) -> tuple[dict, int]:
    """``PUT /v1/apps/accounts/{external_id}``: ``(answer, 201 | 200)``, the
    app user's account (made on the first call) and a new token for it."""
    app = app_for_key(services.config, bearer)
    if app is None:
        raise unauthorized("an app key is required")
    account, status = _find_or_create(services, app, external_id, body)
    if account["status"] != "active":
        raise ApiError(409, "conflict", "this app user's account is closed")
    scopes = body.get("scopes") or SCOPES
    return _with_token(services, account, body.get("label") or f"app {app}", scopes), status


def _find_or_create(services: Services, app: str, external_id: str, body: dict[str, Any]) -> tuple[dict, int]:
    claim_key = stored.app_user_key(app, external_id)
    for _ in range(_FIND_TRIES):
        aid = new_aid()
        holder = stored.claim(services.redis, claim_key, aid)
        if holder is None:
            try:
                name, key = normalize_name(body["name"])
                return create_account(services, aid, name, key, body["kind"], app, external_id), 201
            except ApiError:
                stored.release(services.redis, claim_key)
                raise
        account = stored.read_account(services.redis, holder)
        if account is not None:
            return account, 200
        time.sleep(_FIND_PAUSE_S)  # the winner is between its claim and its hash
    raise ApiError(503, "unavailable", "the app user's account is being made: retry", retry=True)


def create_account(
    services: Services, aid: str, name: str, key: str, kind: str, app: str = "", external_id: str = ""
) -> dict[str, str]:
    """Claim ``key`` for ``aid`` (409 ``name_taken`` if held) and write the account."""
    if stored.claim(services.redis, stored.name_claim_key(key), aid) is not None:
        raise ApiError(409, "name_taken", f"the name {name} is taken", name=name)
    account = {
        "id": aid,
        "name": name,
        "name_key": key,
        "kind": kind,
        "created_at": now_iso(),
        "status": "active",
        "app": app,
        "external_id": external_id,
    }
    stored.write_account(services.redis, account)
    return account


def _with_token(services: Services, account: dict[str, str], label: str, scopes: Any) -> dict[str, Any]:
    minted = mint_token(services, account["id"], label, scopes, None)
    return {"account": account_view(account), "token": minted["token"], "token_id": minted["token_id"]}


def account_view(account: dict[str, str]) -> dict[str, Any]:
    """The account as its owner sees it (``GET /v1/account``)."""
    return {
        "id": account["id"],
        "name": account["name"],
        "kind": account["kind"],
        "status": account["status"],
        "created_at": account["created_at"],
        "app": account["app"] or None,
        "external_id": account["external_id"] or None,
    }


def is_operator(config: dict[str, Any], bearer: str | None) -> bool:
    key = config.get("TABULA_OPERATOR_KEY") or ""
    return bool(key and bearer) and hmac.compare_digest(_digest(bearer or ""), _digest(key))


def app_for_key(config: dict[str, Any], bearer: str | None) -> str | None:
    """The app whose key ``bearer`` is (``TABULA_APP_KEYS``: ``app=secret,...``),
    compared by SHA-256 in constant time; None for no app's."""
    if not bearer:
        return None
    presented, found = _digest(bearer), None
    for app, secret in parse_app_keys(config.get("TABULA_APP_KEYS") or ""):
        if hmac.compare_digest(presented, _digest(secret)):
            found = app
    return found


def parse_app_keys(raw: str) -> list[tuple[str, str]]:
    pairs = (item.strip().partition("=") for item in raw.split(",") if item.strip())
    return [(app.strip(), secret.strip()) for app, _, secret in pairs if app.strip() and secret.strip()]


def _digest(value: str) -> bytes:
    return hashlib.sha256(value.encode("utf-8")).digest()
