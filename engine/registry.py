"""The registry of games by id."""

from typing import Any, TypeVar

from .core import Game
from .errors import UnknownGameError

GameT = TypeVar("GameT", bound=Game[Any])

_GAMES: dict[str, Game[Any]] = {}


def register(game: GameT) -> GameT:
    """Add a game instance under its ``id``; returns it."""
    _GAMES[game.id] = game
    return game


def get_game(game_id: str) -> Game[Any]:
    """The game with this id; raises ``UnknownGameError``."""
    try:
        return _GAMES[game_id]
    except (KeyError, TypeError):
        raise UnknownGameError(f"unknown game {game_id!r}", game=game_id) from None


def list_games() -> list[str]:
    """Registered game ids, sorted."""
    return sorted(_GAMES)
