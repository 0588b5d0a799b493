"""Provably fair dice: the server commits to a secret before the first action.

A match's engine seed fixes every die and deck order. Were it the creator's
``seed`` (or a hash of it), the creator would know the whole match in
advance, and a small seed would be found from its commitment by brute force.
So, by default (``fair``):

- at creation the server draws a 256-bit secret and publishes
  ``seed_commitment = sha256(secret_hex)`` in the Match;
- the engine seed is ``HMAC-SHA256(key=secret, msg="tabula-dice:" + seed)``
  (its first 8 bytes, big-endian, top bit cleared), where ``seed`` is the
  creator's decimal seed or empty: a client seed is mixed in, never enough;
- the replay reveals the secret and the client seed, so anyone can check the
  commitment, derive the engine seed and re-run the match with the engine.

``reproducible`` dice are the old way, asked for explicitly (tests, bots,
research): the client's seed is the engine seed and the commitment is
``sha256(str(seed))``; every viewer sees ``dice: reproducible``.

Standard library only, so a verifier can copy ``engine_seed`` as it is.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from typing import Any

FAIR = "fair"
REPRODUCIBLE = "reproducible"
SEED_BITS = 63


def new_secret() -> str:
    """A fresh server secret, as 64 hex digits."""
    return secrets.token_hex(32)


def sha256_hex(text: str) -> str:
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def engine_seed(secret_hex: str, client_seed: int | None = None) -> int:
    """The engine seed of a fair match from its secret and the creator's seed."""
    message = b"tabula-dice:" + (b"" if client_seed is None else str(client_seed).encode("ascii"))
    digest = hmac.new(bytes.fromhex(secret_hex), message, hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") >> (64 - SEED_BITS)


class Dice:
    """How one match's dice were made: what the doc stores and the replay shows."""

    def __init__(
        self, mode: str, seed: int, commitment: str, secret: str | None = None, client_seed: int | None = None
    ) -> None:
        self.mode = mode
        self.seed = seed  # the engine's seed
        self.commitment = commitment
        self.secret = secret
        self.client_seed = client_seed

    @classmethod
    def fair(cls, client_seed: int | None = None) -> Dice:
        secret = new_secret()
        return cls(FAIR, engine_seed(secret, client_seed), sha256_hex(secret), secret, client_seed)

    @classmethod
    def reproducible(cls, seed: int) -> Dice:
        return cls(REPRODUCIBLE, seed, sha256_hex(str(seed)))

    def doc_fields(self) -> dict[str, Any]:
        """The match document's fields (``dice_secret`` is never shown before the end)."""
        return {
            "dice": self.mode,
            "seed": self.seed,
            "seed_commitment": self.commitment,
            "dice_secret": self.secret,
            "client_seed": self.client_seed,
        }


def proof(doc: dict) -> dict[str, Any] | None:
    """What the replay reveals to check a fair match's dice (None: reproducible)."""
    if doc.get("dice", REPRODUCIBLE) != FAIR:
        return None
    return {"server_secret": doc["dice_secret"], "client_seed": doc.get("client_seed")}


def verify(replay: dict) -> bool:
    """True when a replay's dice are the ones committed to before its first action."""
    found: Any = replay.get("proof")
    if replay["dice"] == REPRODUCIBLE:
        return found is None and sha256_hex(str(replay["seed"])) == replay["seed_commitment"]
    secret = found["server_secret"]
    return (
        sha256_hex(secret) == replay["seed_commitment"]
        and engine_seed(secret, found["client_seed"]) == replay["seed"]
    )
