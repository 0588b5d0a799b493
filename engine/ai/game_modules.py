"""How to get a game's own players: through its registry entry's AI package.

Its own module so that both ``engine.ai`` (the level players) and
``engine.ai.bot_api`` (sampling and evaluation for bots) can reach a game's
AI without importing each other.
"""

from typing import Any

from ..core import Player
from ..errors import UnknownGameError
from ..registry import get_entry, resolve


def make_game_player(game_id: str, level: str, **options: Any) -> Player | None:
    """The game's own player of ``level``, or None for a game without an AI package."""
    try:
        module = get_entry(game_id).ai
    except UnknownGameError:
        return None
    if module is None:
        return None
    player: Player = resolve(module).make_player(level, **options)
    return player
