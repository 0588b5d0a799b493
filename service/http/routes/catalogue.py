"""Catalogue: the games on offer."""

from typing import Any

from flask.views import MethodView
from flask_smorest import Blueprint

import engine
from engine.ai import LEVELS
from service.http.routes.common import documents_errors
from service.spec.actions import component_name
from service.spec.schemas import GameSchema

blp = Blueprint("catalogue", __name__, url_prefix="/v1/games", description="The games on offer.")


def _describe(game: Any) -> dict[str, Any]:
    return {**game.describe(), "ai_levels": list(LEVELS), "action_schema": component_name(game.id)}


@blp.route("")
class Games(MethodView):
    @blp.doc(operationId="listGames")
    @blp.response(200, GameSchema(many=True))
    @documents_errors(blp)
    def get(self) -> list[dict[str, Any]]:
        """List the games."""
        return [_describe(engine.get_game(g)) for g in engine.list_games()]


@blp.route("/<game_id>")
class GameById(MethodView):
    @blp.doc(operationId="getGame")
    @blp.response(200, GameSchema)
    @documents_errors(blp, 404)
    def get(self, game_id: str) -> dict[str, Any]:
        """One game: players, options, AI levels."""
        return _describe(engine.get_game(game_id))
