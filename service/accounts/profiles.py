"""Reading an account (its owner's view, the public profile) and closing it.

Closing marks the account ``closed``, renames it ``closed-<last 8 of its
id>`` (its results stay, under that neutral name) and revokes every token.
The old name's claim is never released: nobody can sign up as a closed
account's player later.
"""

from typing import Any

from service.accounts import history, tokens
from service.accounts.auth import Principal
from service.accounts.names import name_key
from service.accounts.signup import account_view
from service.model.errors import not_found, unauthorized
from service.runtime.services import Services
from service.storage import accounts as stored


def own_account(services: Services, principal: Principal) -> dict[str, Any]:
    """``GET /v1/account``."""
    return account_view(_read(services, principal.aid))


def close_account(services: Services, principal: Principal) -> None:
    """``DELETE /v1/account``: closed, renamed, every token revoked at once."""
    account = _read(services, principal.aid)
    neutral = f"closed-{account['id'][-8:]}"
    stored.write_account(
        services.redis, {**account, "status": "closed", "name": neutral, "name_key": neutral}
    )
    stored.set_claim(services.redis, stored.name_claim_key(neutral), account["id"])
    tokens.revoke_all(services, account["id"])


def profile(services: Services, name: str) -> dict[str, Any]:
    """``GET /v1/accounts/{name}``: the public profile (404 for no account of
    that name now, a closed account's former name included)."""
    account = public_account(services, name)
    return {
        "name": account["name"],
        "kind": account["kind"],
        "since": account["created_at"],
        "status": account["status"],
        **history.figures(services, account["id"]),
    }


def public_account(services: Services, name: str) -> dict[str, str]:
    """The account now named ``name`` (404 for none)."""
    key = name_key(name)
    aid = None if key is None else stored.holder(services.redis, stored.name_claim_key(key))
    account = None if aid is None else stored.read_account(services.redis, aid)
    if account is None or account["name_key"] != key:
        raise not_found("account", name=name)
    return account


def _read(services: Services, aid: str) -> dict[str, str]:
    account = stored.read_account(services.redis, aid)
    if account is None:  # a token outliving its account: treated as revoked
        raise unauthorized("unknown or revoked token")
    return account
