"""Personal access tokens: mint, list, revoke.

A token is ``tab_pat_`` + 32 random bytes (URL-safe base64), shown once; only
its SHA-256 is stored. Its id (``t`` + 16 hex) names it in the listing and
in ``DELETE /v1/account/tokens/{id}``.
"""

import secrets
import time
from datetime import UTC, datetime
from typing import Any

from service.accounts.auth import Principal, now_iso
from service.model.accounts import PAT_PREFIX, SCOPES
from service.model.errors import not_found
from service.model.tokens import hash_token
from service.runtime.services import Services
from service.storage import accounts as stored


def mint_token(
    services: Services, aid: str, label: str, scopes: list[str] | tuple[str, ...], expires_in_s: int | None
) -> dict[str, Any]:
    """A new token of account ``aid``: ``{"token", "token_id", ...its listing}``."""
    token = PAT_PREFIX + secrets.token_urlsafe(32)
    tid = "t" + secrets.token_hex(8)
    exp = int(time.time()) + expires_in_s if expires_in_s else None
    ordered = [scope for scope in SCOPES if scope in set(scopes)]
    record = {
        "label": label,
        "scopes": ordered,
        "created_at": now_iso(),
        "expires_at": _iso(exp),
        "hash": hash_token(token),
    }
    stored.store_token(
        services.redis, aid, tid, record, {"aid": aid, "tid": tid, "scopes": ordered, "exp": exp}
    )
    return {"token": token, "token_id": tid, **_listed(tid, record, None)}


def list_tokens(services: Services, principal: Principal) -> list[dict[str, Any]]:
    """The account's live tokens, oldest first (expired ones are dropped)."""
    records, used = stored.read_tokens(services.redis, principal.aid)
    now = now_iso()
    expired = {tid: r for tid, r in records.items() if r["expires_at"] and r["expires_at"] <= now}
    stored.delete_tokens(services.redis, principal.aid, expired)
    live = [(tid, r) for tid, r in records.items() if tid not in expired]
    live.sort(key=lambda item: (item[1]["created_at"], item[0]))
    return [_listed(tid, record, used.get(tid)) for tid, record in live]


def revoke_token(services: Services, principal: Principal, tid: str) -> None:
    """Revoke one token of the account at once (404 if it has none by that id)."""
    records, _ = stored.read_tokens(services.redis, principal.aid)
    if tid not in records:
        raise not_found("token", token_id=tid)
    stored.delete_tokens(services.redis, principal.aid, {tid: records[tid]})


def revoke_all(services: Services, aid: str) -> None:
    records, _ = stored.read_tokens(services.redis, aid)
    stored.delete_tokens(services.redis, aid, records)


def _listed(tid: str, record: dict[str, Any], last_used_at: str | None) -> dict[str, Any]:
    return {
        "id": tid,
        "label": record["label"],
        "scopes": record["scopes"],
        "created_at": record["created_at"],
        "expires_at": record["expires_at"],
        "last_used_at": last_used_at,
    }


def _iso(epoch_s: int | None) -> str | None:
    if epoch_s is None:
        return None
    return datetime.fromtimestamp(epoch_s, UTC).isoformat(timespec="seconds").replace("+00:00", "Z")
