"""Playing: list a seat's legal actions, post one."""

from typing import Any

from flask.views import MethodView

from service.http.guards import deferred_charge
from service.http.routes.common import BEARER, Blueprint, documents_errors, services, token
from service.play.listing import list_moves
from service.play.moves import play_move
from service.spec.play_schemas import (
    ActionHeadersSchema,
    ActionListSchema,
    ActionResultSchema,
    PostActionSchema,
)

blp = Blueprint(
    "playing", __name__, url_prefix="/v1/matches", description="The legal actions of your seat; post one."
)


@blp.route("/<match_id>/actions")
class Actions(MethodView):
    defers_rate_limit = True

    @blp.doc(operationId="listActions", security=BEARER)
    @blp.response(200, ActionListSchema)
    @documents_errors(blp, 410, 401, 403, 404)
    def get(self, match_id: str) -> dict[str, Any]:
        """Every legal action of your seat now (empty when you have nothing to decide)."""
        return list_moves(services(), token(), deferred_charge(), match_id)

    @blp.doc(operationId="postAction", security=BEARER)
    @blp.arguments(ActionHeadersSchema(), location="headers")
    @blp.arguments(PostActionSchema())
    @blp.response(200, ActionResultSchema)
    @documents_errors(
        blp,
        410,
        400,
        401,
        403,
        404,
        409,
        412,
        413,
        conflict=(
            "`illegal_action` (`details.reason` names the rule; `other_game_action`: a well-formed "
            "action of another game), `not_your_turn` (also while the match waits for players), "
            "`game_over`, `version_conflict` (`details.current_version`)."
        ),
    )
    def post(self, headers: dict[str, Any], body: dict[str, Any], match_id: str) -> Any:
        """Play one action; every element of the action list can be posted unchanged."""
        # A plain request never gets here: service/http/move_lane.py answers it
        # with the same operation, without Flask's request machinery.
        return play_move(services(), token(), deferred_charge(), headers, body, match_id)
