"""GET /v1/matches/{id}/board.svg: the match as a picture, drawn from the view.

The picture comes from ``engine.render.board_svg`` on the same view the
Match carries (``documents.view_for``), so it is redacted exactly as the
view is. ``step`` draws a finished match after its first ``step`` actions,
re-run from the replay (the web client's step-through): once a match is
over its replay is public, so an earlier position reveals nothing new.
"""

from typing import Any

import engine
from engine.render import board_svg
from engine.runner import replay
from service.accounts.seats import load_for_viewer
from service.model.documents import view_for
from service.model.errors import ApiError, validation
from service.runtime.state_cache import engine_state


def board_tag(version: int, step: int | None = None) -> str:
    """The picture's entity tag (unquoted): the match version, and the step when one is drawn."""
    return str(version) if step is None else f"{version}.{step}"


def get_board(
    services: Any, match_id: str, token: str | None, step: int | None = None, cached_tags: Any = ()
) -> tuple[str, str | None]:
    """``(ETag, svg or None)``: None when ``cached_tags`` (If-None-Match, as
    ``model.etags.entity_tags`` reads it) holds the picture's tag or is ``"*"``."""
    stored, viewer = load_for_viewer(services, match_id, token)
    doc = stored.doc
    tag = board_tag(doc["version"], step)
    etag = f'"{tag}"'
    if cached_tags == "*" or tag in cached_tags:
        return etag, None
    game = engine.get_game(doc["game"])
    state = engine_state(services, game, stored) if step is None else _state_at(services, game, doc, step)
    return etag, board_svg(view_for(game, doc, state, viewer), viewer)


def _state_at(services: Any, game: Any, doc: dict, step: int) -> Any:
    if doc["status"] != "finished":
        raise ApiError(
            409,
            "illegal_action",
            "earlier positions are shown once the match is finished",
            reason="match_not_finished",
        )
    actions = services.store.read_actions(doc["id"])
    if step > len(actions):
        raise validation("no such step", fields={"step": [f"the match has {len(actions)} actions"]})
    state, _ = replay(
        game,
        len(doc["seats"]),
        doc["options"],
        doc["seed"],
        [(entry["seat"], entry["action"]) for entry in actions[:step]],
    )
    return state
