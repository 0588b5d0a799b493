"""The rating operations of ``Client`` (docs/ratings.md), as a mixin:
leaderboards and rating histories (public reads)."""

from typing import Any, cast

from .models import LeaderboardEntry, RatingHistory

# operationId (openapi.yaml) -> method, merged into ``OPERATIONS``.
RATING_OPERATIONS: dict[str, str] = {
    "getLeaderboard": "leaderboard",
    "getRatingHistory": "rating_history",
}


class RatingsMixin:
    """Needs ``_json`` (``Client`` has it)."""

    def _json(self, method: str, path: str, **kwargs: Any) -> Any:
        raise NotImplementedError

    def leaderboard(
        self,
        pool: str,
        kind: str | None = None,
        provisional: str | None = None,
        page: int | None = None,
        page_size: int | None = None,
    ) -> list[LeaderboardEntry]:
        """One page of a pool's leaderboard, best first; ``kind`` ``human`` or
        ``bot``; ``provisional`` ``include`` (default) or ``exclude``."""
        params = {"kind": kind, "provisional": provisional, "page": page, "page_size": page_size}
        return cast(list[LeaderboardEntry], self._json("GET", f"/v1/leaderboards/{pool}", params=params))

    def rating_history(self, name: str, pool: str, limit: int | None = None) -> RatingHistory:
        """An account's rating in ``pool`` now and its last ``limit`` changes, oldest first."""
        params = {"limit": limit}
        return cast(RatingHistory, self._json("GET", f"/v1/accounts/{name}/ratings/{pool}", params=params))
