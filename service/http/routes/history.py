"""Events (redacted per viewer) and the replay of a finished match."""

from typing import Any

from flask.views import MethodView
from flask_smorest import Blueprint

from service.http.routes.common import OPTIONAL_BEARER, documents_errors, services, token
from service.play import history
from service.spec.play_schemas import EventListSchema, EventsQuerySchema, ReplaySchema

blp = Blueprint(
    "events",
    __name__,
    url_prefix="/v1/matches",
    description="The event log, and the replay once a match is over.",
)


@blp.route("/<match_id>/events")
class Events(MethodView):
    @blp.doc(operationId="listEvents", security=OPTIONAL_BEARER)
    @blp.arguments(EventsQuerySchema, location="query")
    @blp.response(200, EventListSchema)
    @documents_errors(blp, 410, 401, 403, 404)
    def get(self, query: dict[str, Any], match_id: str) -> dict[str, Any]:
        """Events with `seq` > `after`, redacted for the bearer (or a spectator)."""
        return history.list_events(services(), match_id, token(), query["after"], query["limit"])


@blp.route("/<match_id>/replay")
class Replay(MethodView):
    @blp.doc(operationId="getReplay")
    @blp.response(200, ReplaySchema)
    @documents_errors(
        blp,
        410,
        404,
        409,
        conflict=("`illegal_action` with `details.reason` `match_not_finished`: the match is not over."),
    )
    def get(self, match_id: str) -> dict[str, Any]:
        """Seed, options, seats and every action: re-run it with the engine (finished matches only).

        Before the end: 409 `illegal_action` with `details.reason` `match_not_finished`.
        """
        return history.replay(services(), match_id)
