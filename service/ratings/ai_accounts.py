"""The built-in AI levels as rated accounts: ``ai-random``, ``ai-easy``,
``ai-medium``, ``ai-hard`` (engine.ai.LEVELS; names reserved in
service/accounts/names.py), kind ``bot``.

Each has a fixed id (``ai-<level>``: a signed-up account's id is ``a`` and
20 base32 characters, never with a ``-``), so making one is idempotent:
the name's claim is ``SET NX`` and the hash is written only when missing;
two racing makers write the same account. An AI account has no token:
nobody acts as it, it only anchors the rating scale.
"""

from typing import Any

from engine.ai import LEVELS
from service.accounts.auth import now_iso
from service.storage import accounts as stored

AI_PREFIX = "ai-"


def ai_aid(level: str) -> str:
    return f"{AI_PREFIX}{level}"


def ai_level_of_name(name: str) -> str | None:
    """The level an AI account's name stands for (``ai-hard`` -> ``hard``), or None."""
    key = name.casefold()
    level = key[len(AI_PREFIX) :] if key.startswith(AI_PREFIX) else None
    return level if level in LEVELS else None


def ensure_ai_account(client: Any, level: str) -> str:
    """Make the account of AI ``level`` unless it exists; returns its id."""
    if level not in LEVELS:
        raise ValueError(f"unknown AI level {level!r}")
    aid = ai_aid(level)
    if stored.read_account(client, aid) is None:
        stored.claim(client, stored.name_claim_key(aid), aid)
        account = {
            "id": aid,
            "name": aid,
            "name_key": aid,
            "kind": "bot",
            "created_at": now_iso(),
            "status": "active",
            "app": "",
            "external_id": "",
        }
        stored.write_account(client, account)
    return aid


def ensure_all(client: Any) -> list[str]:
    """Every level's account (at start-up, or on first use)."""
    return [ensure_ai_account(client, level) for level in LEVELS]
