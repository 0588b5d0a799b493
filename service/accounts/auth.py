"""Who a request is: one lookup of its personal access token, on every request.

``authenticate(services, bearer)`` reads ``pat:<sha256>`` (one GET, no
process-local cache), so a token revoked or expired on one API process is
refused by every other at once. A seat token (``tab_`` without ``pat_``) is
no account's: ``authenticate`` answers None without a round trip, and the
match routes go on treating it as they always have.

    principal = require(services, bearer, "account:read")  # 401 / 403, or the Principal
"""

import time
from dataclasses import dataclass
from datetime import UTC, datetime

from service.model.accounts import PAT_PREFIX
from service.model.errors import ApiError, unauthorized
from service.model.tokens import hash_token
from service.runtime.services import Services
from service.storage import accounts as stored


@dataclass(frozen=True)
class Principal:
    """An account acting through one of its tokens."""

    aid: str
    tid: str
    scopes: frozenset[str]
    token_hash: str  # the token's SHA-256: an open stream checks it is still live


def live_principal(services: Services, token_hash: str) -> Principal | None:
    """The account of the token whose hash is ``token_hash``, or None when
    it is unknown, revoked or expired."""
    grant = stored.read_grant(services.redis, token_hash)
    if grant is None or (grant["exp"] is not None and grant["exp"] <= time.time()):
        return None
    return Principal(grant["aid"], grant["tid"], frozenset(grant["scopes"]), token_hash)


def authenticate(services: Services, bearer: str | None) -> Principal | None:
    """The account behind ``bearer``, or None (no token, a seat token, or an
    unknown, revoked or expired personal access token)."""
    if not bearer or not bearer.startswith(PAT_PREFIX):
        return None
    principal = live_principal(services, hash_token(bearer))
    if principal is not None:
        stored.note_use(services.redis, principal.aid, principal.tid, now_iso())
    return principal


def require_scope(principal: Principal | None, scope: str) -> Principal:
    """``principal`` if it holds ``scope``: 401 without one, 403
    ``forbidden`` naming the scope (``details.missing_scope``) otherwise."""
    if principal is None:
        raise unauthorized("an account token is required (unknown, revoked or expired)")
    if scope not in principal.scopes:
        raise ApiError(403, "forbidden", f"this token lacks the scope {scope}", missing_scope=scope)
    return principal


def require(services: Services, bearer: str | None, scope: str) -> Principal:
    """``authenticate`` then ``require_scope``: what an account route starts with."""
    return require_scope(authenticate(services, bearer), scope)


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")
