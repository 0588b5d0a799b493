"""Idempotency-Key records: a retried request gets its first response again.

A request with an ``Idempotency-Key`` (a move or a resign) stores its
response in the commit that applies it (storage.py, the commit script),
under a key of its match made from the hash of the bearer token and the hash
of the Idempotency-Key: only the caller holding that token can find it, and
it is found without resolving the token to a seat first. That is what a
retry needs when the first attempt revoked the token (a resign, a seat
handed to the AI) and its answer was lost or was a 503 (REDIS_WAIT_REPLICAS
unconfirmed, the change stored): the retry is answered from the record,
before the token check would refuse it with 401.

The record holds a fingerprint of the request (operation and body): the same
key with another body, or for another operation, is 422.
"""

from __future__ import annotations

import hashlib
import json
from typing import TYPE_CHECKING, Any

import orjson

from service.model.errors import validation
from service.model.tokens import hash_token
from service.storage.keys import idem_key

if TYPE_CHECKING:
    from service.storage.store import Store


def fingerprint(body: Any) -> str:
    """SHA-256 of the request body in a canonical form (sorted keys).

    stdlib json, not orjson: the body is not validated yet and may hold
    integers beyond 64 bits, which orjson refuses.
    """
    canonical = json.dumps(body, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


# A resign has no body; its fingerprint names the operation, so a key used
# for a move and then for a resign (or the other way) is refused.
RESIGN_FINGERPRINT = fingerprint({"operation": "resign"})


class Record:
    """The Idempotency-Key record of one request: where it is stored and the
    fingerprint a retry must match. The request's operation looks it up
    before anything else (``stored_response``), ``commits.change_match``
    again after a lost race, and the commit script stores it (``value``) or
    finds it there (``replayed``)."""

    __slots__ = ("fingerprint", "key")

    def __init__(self, key: str, fingerprint: str) -> None:
        self.key = key
        self.fingerprint = fingerprint

    @classmethod
    def of(cls, match_id: str, token: str | None, idempotency_key: str | None, body: Any) -> Record | None:
        """The record of ``idempotency_key`` sent with ``token`` in ``match_id``
        for a request of ``body`` (a ``fingerprint`` or the body to take one
        of); None without a key or a token."""
        if idempotency_key is None or not token:
            return None
        key_hash = hashlib.sha256(idempotency_key.encode("utf-8")).hexdigest()
        fp = body if isinstance(body, str) else fingerprint(body)
        return cls(idem_key(match_id, hash_token(token), key_hash), fp)

    def stored_response(self, store: Store) -> Any:
        """The first response of a retried request, or None when nothing is stored."""
        record = store.read_idempotency(self.key)
        return None if record is None else self.replayed(record)

    def replayed(self, record: dict) -> Any:
        """The stored response of ``record`` (the stored value); 422 when the
        key was used with another body."""
        if record["fp"] != self.fingerprint:
            raise validation(
                "Idempotency-Key was already used with another body",
                fields={"Idempotency-Key": ["reused with a different request body"]},
            )
        return record["response"]

    def value(self, response: Any) -> bytes:
        """What the commit stores: the fingerprint and the response."""
        return orjson.dumps({"fp": self.fingerprint, "response": response})


def change_fields(record: Record | None, response: Any) -> dict[str, Any]:
    """The ``idem_key`` and ``idem_value`` of a commit's Change (None, None without a record)."""
    if record is None:
        return {"idem_key": None, "idem_value": None}
    return {"idem_key": record.key, "idem_value": record.value(response)}
