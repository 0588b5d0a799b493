"""Ratings (docs/ratings.md): the leaderboards and an account's rating
history; thin routes over service/ratings. Public reads, no token."""

from typing import Any

from flask.views import MethodView

from service.http.routes.common import Blueprint, documents_errors, services
from service.ratings import boards
from service.spec.rating_schemas import (
    LeaderboardEntrySchema,
    LeaderboardQuerySchema,
    RatingHistoryQuerySchema,
    RatingHistorySchema,
)

blp = Blueprint(
    "ratings",
    __name__,
    url_prefix="/v1",
    description="Ratings per pool (OpenSkill), leaderboards and rating histories.",
)

POOL_PARAMETER = {
    "in": "path",
    "name": "pool",
    "required": True,
    "schema": {"$ref": "#/components/schemas/RatingPool"},
    "description": "A rating pool (unknown: 404 `not_found`).",
}
NOT_FOUND = {404: "`not_found`: no such pool, or no account of that name."}


@blp.route("/leaderboards/<pool>", parameters=[POOL_PARAMETER])
class Leaderboard(MethodView):
    @blp.doc(operationId="getLeaderboard")
    @blp.arguments(LeaderboardQuerySchema, location="query")
    @blp.response(200, LeaderboardEntrySchema(many=True))
    @blp.paginate()
    @documents_errors(blp, 404, texts=NOT_FOUND)
    def get(self, query: dict[str, Any], pool: str, pagination_parameters: Any) -> list[dict[str, Any]]:
        """A pool's leaderboard: best conservative rating (`mu - 3 sigma`) first."""
        items, total = boards.leaderboard(
            services(),
            pool,
            query.get("kind"),
            query["provisional"],
            pagination_parameters.page,
            pagination_parameters.page_size,
        )
        pagination_parameters.item_count = total
        return items


@blp.route("/accounts/<name>/ratings/<pool>", parameters=[POOL_PARAMETER])
class RatingHistory(MethodView):
    @blp.doc(operationId="getRatingHistory")
    @blp.arguments(RatingHistoryQuerySchema, location="query")
    @blp.response(200, RatingHistorySchema)
    @documents_errors(blp, 404, texts=NOT_FOUND)
    def get(self, query: dict[str, Any], name: str, pool: str) -> dict[str, Any]:
        """An account's rating in a pool now, and its last changes (oldest first)."""
        return boards.rating_history(services(), name, pool, query["limit"])
