"""Reading ratings: the leaderboards, an account's rating in each pool, and
its rating history (docs/ratings.md). All public: nothing here is private
(a rating, its history and the matches it came from are public already).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from service.accounts.profiles import public_account
from service.model.errors import not_found
from service.ratings import ai_accounts, skill
from service.ratings.pools import POOLS
from service.storage import accounts as stored_accounts
from service.storage import ratings as stored

if TYPE_CHECKING:
    from service.runtime.services import Services


def check_pool(pool: str) -> None:
    if pool not in POOLS:
        raise not_found("rating pool", pool=pool, pools=list(POOLS))


def leaderboard(
    services: Services, pool: str, kind: str | None, provisional: str, page: int, page_size: int
) -> tuple[list[dict[str, Any]], int]:
    """``GET /v1/leaderboards/{pool}`` -> ``(entries best first, total)``:
    by conservative rating, ``kind`` human|bot (None: both), ``provisional``
    ``include`` (marked) or ``exclude``."""
    check_pool(pool)
    offset = (page - 1) * page_size
    entries, total = stored.board_page(
        services.redis, pool, kind, provisional == "exclude", offset, page_size
    )
    aids = [aid for aid, _ in entries]
    ratings = stored.read_ratings(services.redis, pool, aids)
    names = _names(services.redis, aids)
    items = []
    for position, aid in enumerate(aids):
        rating = ratings[aid] or {}
        name, account_kind = names.get(aid) or (aid, rating.get("kind", "human"))
        items.append(
            {
                "rank": offset + position + 1,
                "name": name,
                "kind": account_kind,
                "ai": aid.startswith(ai_accounts.AI_PREFIX),
                **skill.rating_view(ratings[aid]),
            }
        )
    return items, total


def _names(client: Any, aids: list[str]) -> dict[str, tuple[str, str]]:
    """``{aid: (name, kind)}`` of the accounts (one pipeline; a cluster groups it by node)."""
    pipe = client.pipeline(transaction=False)
    for aid in aids:
        pipe.hmget(stored_accounts.account_key(aid), "name", "kind")
    found = {}
    for aid, (name, kind) in zip(aids, pipe.execute() if aids else []):
        if name is not None:
            found[aid] = (stored_accounts.text(name), stored_accounts.text(kind))
    return found


def _account(services: Services, name: str) -> dict[str, str]:
    level = ai_accounts.ai_level_of_name(name)
    if level is not None:  # an AI level's account exists before its first rated match
        ai_accounts.ensure_ai_account(services.redis, level)
    return public_account(services, name)


def account_ratings(services: Services, aid: str) -> dict[str, dict[str, Any]]:
    """``{pool: rating}`` of the pools the account was rated in."""
    ratings = stored.read_in_pools(services.redis, POOLS, aid)
    return {pool: skill.rating_view(rating) for pool, rating in ratings.items() if rating is not None}


def with_ratings(services: Services, profile: dict[str, Any], name: str) -> dict[str, Any]:
    """The public profile ``profile`` of account ``name`` with its ``ratings``."""
    return {**profile, "ratings": account_ratings(services, public_account(services, name)["id"])}


def profile_account(services: Services, name: str) -> None:
    """Make sure an AI level's account exists before its profile is read."""
    _account(services, name)


def rating_history(services: Services, name: str, pool: str, limit: int) -> dict[str, Any]:
    """``GET /v1/accounts/{name}/ratings/{pool}``: the rating now and its last
    ``limit`` changes, oldest first (the initial rating when never rated)."""
    check_pool(pool)
    account = _account(services, name)
    rating = stored.read_ratings(services.redis, pool, [account["id"]])[account["id"]]
    history, total = stored.read_history(services.redis, pool, account["id"], limit)
    return {
        "name": account["name"],
        "kind": account["kind"],
        "pool": pool,
        "rating": skill.rating_view(rating),
        "total": total,
        "history": history,
    }
