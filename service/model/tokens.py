"""Bearer tokens: random, opaque, stored only as SHA-256 hashes.

A token is bound to one seat of one match: the match's hash maps
``tok:<sha256>`` to the seat. Resigning deletes the mapping (the token is
revoked). A global ``token:<sha256>`` index only serves to answer 403 rather
than 401 for a valid token presented to another match.
"""

import hashlib
import secrets
from typing import Any, cast

from service.model.errors import forbidden, not_found, unauthorized

# Every token starts with this: never with "-" (1 in 64 random URL-safe
# tokens did, which a command line then read as an option: `--token -x...`),
# and a secret scanner can recognise a leaked one.
TOKEN_PREFIX = "tab_"


def new_token() -> tuple[str, str]:
    """``(token, sha256 hex)``; only the hash is ever stored."""
    token = TOKEN_PREFIX + secrets.token_urlsafe(32)
    return token, hash_token(token)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def bearer_token(headers: Any) -> str | None:
    """The token of an ``Authorization: Bearer`` header, or None."""
    value = headers.get("Authorization", "")
    scheme, _, token = value.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


def _resolve(store: Any, match_id: str, token: str | None, required: bool, seat: int | None) -> int | None:
    """``seat`` is what the match maps the token to (None: unknown there)."""
    if token is None:
        if required:
            raise unauthorized()
        return None
    if seat is not None:
        return seat
    other = store.token_match(hash_token(token))
    if other is not None and other != match_id:
        raise forbidden()
    raise unauthorized("unknown or revoked token")


def load_for_viewer(store: Any, match_id: str, token: str | None) -> tuple[Any, int | None]:
    """``(stored match, seat or None)`` for a route open to spectators.

    404 for an unknown match; 401 for an unknown or revoked token (a bad
    token is never silently downgraded to a spectator); 403 for another
    match's token.
    """
    stored = store.load(match_id, hash_token(token) if token else None)
    if stored is None:
        raise not_found("match", match_id=match_id)
    return stored, _resolve(store, match_id, token, False, stored.token_seat)


def require_seat(store: Any, match_id: str, token: str | None) -> int:
    """The seat a bearer token acts for in ``match_id`` (404, 401, 403 otherwise)."""
    exists, seat = store.probe(match_id, hash_token(token) if token else "-")
    if not exists:
        raise not_found("match", match_id=match_id)
    return _required(store, match_id, token, seat)


def seat_in(store: Any, stored: Any, match_id: str, token: str | None) -> int:
    """``require_seat`` for a match already loaded with the token's hash
    (``stored`` None: 404); saves the probe's round trip."""
    if stored is None:
        raise not_found("match", match_id=match_id)
    return _required(store, match_id, token, stored.token_seat)


def _required(store: Any, match_id: str, token: str | None, seat: int | None) -> int:
    """``_resolve`` of a route that needs a seat: an int, or it raised."""
    return cast(int, _resolve(store, match_id, token, True, seat))
