"""Seats held by accounts: which seat of a match an account token acts for.

A seat bound to an account keeps the account's id in the match document
(``account_id``, never shown) and its public face (``account``: ``{"name",
"kind"}``, shown in ``Match.seats``). An account holds at most one seat of a
match, so an account token names one seat on every match route. A seat token
(``tab_`` without ``pat_``) is resolved exactly as before
(service/model/tokens.py), with no extra round trip; an account token costs
one more (its ``pat:`` lookup).

    stored, viewer = load_for_viewer(services, match_id, bearer)   # match:read
    seat = seat_in(services, stored, match_id, bearer, "match:play")
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from service.accounts.auth import Principal, require
from service.model import tokens
from service.model.accounts import PAT_PREFIX
from service.model.errors import ApiError, forbidden, not_found
from service.storage import accounts as stored_accounts

if TYPE_CHECKING:
    from service.runtime.services import Services
    from service.storage.records import StoredMatch

READ, PLAY, CREATE = "match:read", "match:play", "match:create"


def is_account_token(bearer: str | None) -> bool:
    return bool(bearer) and str(bearer).startswith(PAT_PREFIX)


def account_seat(doc: dict, aid: str) -> int | None:
    """The seat of ``doc`` account ``aid`` holds, or None."""
    for seat in doc["seats"]:
        if seat.get("account_id") == aid:
            return int(seat["seat"])
    return None


def bound_seats(doc: dict) -> list[tuple[int, str]]:
    """``[(seat, account id)]`` of the seats bound to accounts."""
    return [(int(s["seat"]), s["account_id"]) for s in doc["seats"] if s.get("account_id")]


def bind_seat(services: Services, seat: dict, principal: Principal) -> None:
    """Bind the seat document ``seat`` to the principal's account (in place)."""
    account = stored_accounts.read_account(services.redis, principal.aid)
    if account is None or account["status"] != "active":
        raise ApiError(401, "unauthorized", "unknown or revoked token")
    seat["account_id"] = principal.aid
    seat["account"] = {"name": account["name"], "kind": account["kind"]}


def check_not_seated(doc: dict, aid: str) -> None:
    """409 ``already_seated`` when account ``aid`` holds a seat of ``doc``."""
    seat = account_seat(doc, aid)
    if seat is not None:
        raise ApiError(409, "already_seated", f"your account holds seat {seat} of this match", seat=seat)


def _account_viewer(
    services: Services, stored: StoredMatch | None, match_id: str, bearer: str | None, scope: str
) -> int:
    principal = require(services, bearer, scope)
    if stored is None:
        raise not_found("match", match_id=match_id)
    seat = account_seat(stored.doc, principal.aid)
    if seat is None:
        raise forbidden("your account holds no seat of this match")
    if scope == PLAY and stored.doc["seats"][seat].get("resigned"):
        raise forbidden("your seat was handed to the AI")
    return seat


def load_for_viewer(services: Services, match_id: str, bearer: str | None) -> tuple[Any, int | None]:
    """``tokens.load_for_viewer`` for either kind of token (match:read for an account's)."""
    if not is_account_token(bearer):
        return tokens.load_for_viewer(services.store, match_id, bearer)
    stored = services.store.load(match_id)
    return stored, _account_viewer(services, stored, match_id, bearer, READ)


def seat_in(
    services: Services, stored: StoredMatch | None, match_id: str, bearer: str | None, scope: str
) -> int:
    """``tokens.seat_in`` for either kind of token (``scope``: an account token's)."""
    if not is_account_token(bearer):
        return tokens.seat_in(services.store, stored, match_id, bearer)
    return _account_viewer(services, stored, match_id, bearer, scope)


def require_seat(services: Services, match_id: str, bearer: str | None, scope: str = PLAY) -> int:
    """``tokens.require_seat`` for either kind of token."""
    if not is_account_token(bearer):
        return tokens.require_seat(services.store, match_id, bearer)
    return _account_viewer(services, services.store.load(match_id), match_id, bearer, scope)


def seat_of_grant(services: Services, doc: dict, token_hash: str) -> int | None:
    """The seat of ``doc`` held by the account whose token hashes to
    ``token_hash`` (a stream ticket's), if it is live and may read; else None."""
    grant = stored_accounts.read_grant(services.redis, token_hash)
    if grant is None or READ not in grant["scopes"]:
        return None
    if grant["exp"] is not None and grant["exp"] <= time.time():
        return None
    return account_seat(doc, grant["aid"])
