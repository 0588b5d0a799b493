"""Seeks ("Play now"): an account waits in a rating pool to be paired.

A seek names its pool, the player counts it accepts, rated or not, an
optional range of opponents' ratings (mu), and optionally "fill the empty
seats with AI of level L after S seconds". The account's rating in the pool
is read once, when the seek is made (rating.current_rating). An account has
at most one waiting seek per pool (a second is 409 ``conflict`` naming it).

A seek lives while it is renewed: its account's open stream renews it at
every keep-alive (service/live/account_stream.py), and so does each
``GET /v1/seeks``; one not renewed for ``SEEK_TTL_S`` is dropped by the
next wave (``expired``). The workers' waves (waves.py) pair the waiting
seeks; a paired seek reads ``matched`` with its ``match_id`` and ``seat``,
and its account gets ``match_started`` (service/play/follow.py).
"""

from __future__ import annotations

import secrets
import time
from typing import TYPE_CHECKING, Any

import engine
from service.meet.rating import pool_game, rating_or_default
from service.meet.starting import start_claimed
from service.model.clock import iso_utc
from service.model.errors import ApiError, not_found, validation
from service.storage import accounts as stored_accounts
from service.storage import meet as stored

if TYPE_CHECKING:
    from service.accounts.auth import Principal
    from service.runtime.services import Services

SCOPE, READ = "match:play", "match:read"


def _now_ms() -> int:
    return int(time.time() * 1000)


def _counts(pool: str, counts: list[int]) -> list[int]:
    game = engine.get_game(pool_game(pool)[0])
    wrong = [n for n in counts if not game.min_players <= n <= game.max_players]
    if wrong:
        raise validation(
            "player count out of range",
            fields={"counts": [f"{game.id} takes {game.min_players} to {game.max_players} players"]},
        )
    return sorted(set(counts))


def create_seek(services: Services, principal: Principal, body: dict[str, Any]) -> dict[str, Any]:
    """POST /v1/seeks -> the Seek (201)."""
    account = stored_accounts.read_account(services.redis, principal.aid)
    if account is None or account["status"] != "active":
        raise ApiError(401, "unauthorized", "unknown or revoked token")
    pool = body["pool"]
    low, high = body.get("rating_min"), body.get("rating_max")
    if low is not None and high is not None and low > high:
        raise validation("empty rating range", fields={"rating_min": ["at most rating_max"]})
    mu, sigma = rating_or_default(services, pool, principal.aid)
    fill = body.get("ai_fill")
    now = _now_ms()
    doc = {
        "id": secrets.token_hex(8),
        "aid": principal.aid,
        "name": account["name"],
        "account_kind": account["kind"],
        "pool": pool,
        "counts": _counts(pool, body["counts"]),
        "rated": body["rated"],
        "rating_min": low,
        "rating_max": high,
        "ai_level": None if fill is None else fill["level"],
        "ai_after_ms": None if fill is None else fill["after_s"] * 1000,
        "created_ms": now,
        "mu": mu,
        "sigma": sigma,
    }
    outcome, sid = stored.add_seek(services.redis, pool, doc, now, services.config["SEEK_TTL_S"] * 1000)
    if outcome == "DUP":
        raise ApiError(409, "conflict", "the account already seeks in this pool", seek_id=sid)
    return public(doc, None)


def public(doc: dict[str, Any], done: dict[str, Any] | None) -> dict[str, Any]:
    """The Seek as its account sees it."""
    fill = (
        None if doc["ai_level"] is None else {"level": doc["ai_level"], "after_s": doc["ai_after_ms"] // 1000}
    )
    return {
        "id": doc["id"],
        "pool": doc["pool"],
        "counts": doc["counts"],
        "rated": doc["rated"],
        "rating_min": doc["rating_min"],
        "rating_max": doc["rating_max"],
        "ai_fill": fill,
        "rating": {"mu": doc["mu"], "sigma": doc["sigma"]},
        "status": "waiting" if done is None else done["status"],
        "match_id": None if done is None else done.get("match_id"),
        "seat": None if done is None else done.get("seat"),
        "created_at": iso_utc(doc["created_ms"]),
    }


def _done_record(
    doc: dict[str, Any], status: str, match_id: str | None = None, seat: int | None = None
) -> dict:
    """What a seek that left the pool reads as: its doc and how it left."""
    return {"doc": doc, "status": status, "match_id": match_id, "seat": seat}


def cancel_seek(services: Services, principal: Principal, sid: str) -> dict[str, Any]:
    """DELETE /v1/seeks/{id} -> the Seek, ``cancelled`` (409 once matched)."""
    pool = stored.account_seeks(services.redis, principal.aid).get(sid)
    if pool is None:
        raise not_found("seek", seek_id=sid)
    doc, _, done = stored.read_seek(services.redis, pool, sid)
    if doc is not None:
        gone = stored.take_seeks(
            services.redis, pool, [(sid, principal.aid, _done_record(doc, "cancelled"))], _now_ms(), 0
        )
        if gone is None:
            return public(doc, {"status": "cancelled"})
        _, _, done = stored.read_seek(services.redis, pool, sid)
    if done is None:
        raise not_found("seek", seek_id=sid)
    if done["status"] == "cancelled":
        return public(done["doc"], done)
    raise ApiError(
        409, "conflict", f"the seek is {done['status']}", state=done["status"], match_id=done.get("match_id")
    )


def _ensure_started(services: Services, pool: str, match_id: str) -> None:
    """A wave claims a table, then creates its match: a seek read in between
    creates it first, so a seek that reads ``matched`` names a match that
    exists (as a challenge's read does: docs/matchmaking.md)."""
    table = stored.pending_table(services.redis, pool, match_id)
    if table is not None:
        start_claimed(services, pool, match_id, table)


def my_seeks(services: Services, principal: Principal) -> list[dict[str, Any]]:
    """GET /v1/seeks: the account's waiting seeks and those that left their
    pool in the last hour; renews the waiting ones."""
    stored.renew_seeks(services.redis, principal.aid, _now_ms())
    items, forgotten = [], []
    for sid, pool in stored.account_seeks(services.redis, principal.aid).items():
        doc, _, done = stored.read_seek(services.redis, pool, sid)
        if doc is not None:
            items.append(public(doc, None))
        elif done is not None:
            if done["status"] == "matched":
                _ensure_started(services, pool, done["match_id"])
            items.append(public(done["doc"], done))
        else:
            forgotten.append(sid)
    stored.forget_account_seeks(services.redis, principal.aid, forgotten)
    return sorted(items, key=lambda item: item["created_at"], reverse=True)
