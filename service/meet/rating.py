"""What pairing knows of pools and ratings.

A pool (service/ratings/pools.py) is one game and the options that make its
rule set; a seek's match is created with those options (the others take
their defaults). ``current_rating`` is the one read of an account's rating
that pairing does (once, when the seek is made): the account's (mu, sigma)
in the pool, or the default of an unrated account.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from service.ratings import pools
from service.ratings.skill import INITIAL_MU, INITIAL_SIGMA
from service.storage import ratings as stored_ratings

if TYPE_CHECKING:
    from service.runtime.services import Services

POOL_GAMES: dict[str, tuple[str, dict[str, Any]]] = {
    pools.ANNO1503_BASE: ("anno1503", {"expansion": "none"}),
    pools.ANNO1503_EXPANSION: ("anno1503", {"expansion": "pirates_aristocrats"}),
    pools.ANNO1452_BASIC: ("anno1452", {"rules": "basic"}),
    pools.ANNO1452_EXPERT: ("anno1452", {"rules": "expert"}),
}
POOLS = tuple(pools.POOLS)


def pool_game(pool: str) -> tuple[str, dict[str, Any]]:
    """``(game id, options)`` of a pool's matches."""
    game, options = POOL_GAMES[pool]
    return game, dict(options)


def current_rating(services: Services, pool: str, aid: str) -> tuple[float, float] | None:
    """Account ``aid``'s ``(mu, sigma)`` in ``pool``, or None when unrated."""
    rating = stored_ratings.read_ratings(services.redis, pool, [aid])[aid]
    if rating is None:
        return None
    return float(rating["mu"]), float(rating["sigma"])


def rating_or_default(services: Services, pool: str, aid: str) -> tuple[float, float]:
    return current_rating(services, pool, aid) or (INITIAL_MU, INITIAL_SIGMA)
