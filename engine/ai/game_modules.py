"""Which module holds each game's strategic AI, and how to get its players.

Its own module so that both ``engine.ai`` (the level players) and
``engine.ai.bot_api`` (sampling and evaluation for bots) can reach a game's
AI without importing each other.
"""

import importlib
from typing import Any

from ..core import Player

# game id -> module with ``make_player(level, **options)``; a new game plugs in
# with one line here.
GAME_MODULES: dict[str, str] = {
    "anno1503": "engine.ai.anno1503",
    "anno1452": "engine.ai.anno1452",
}


def make_game_player(game_id: str, level: str, **options: Any) -> Player | None:
    """The game's own player of ``level``, or None for a game without an AI module."""
    module = GAME_MODULES.get(game_id)
    if module is None:
        return None
    player: Player = importlib.import_module(module).make_player(level, **options)
    return player
