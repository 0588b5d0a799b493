"""The registry of games by id."""

from .errors import UnknownGameError

_GAMES = {}


def register(game):
    """Add a game instance under its ``id``; returns it."""
    _GAMES[game.id] = game
    return game


def get_game(game_id):
    """The game with this id; raises ``UnknownGameError``."""
    try:
        return _GAMES[game_id]
    except (KeyError, TypeError):
        raise UnknownGameError(f"unknown game {game_id!r}", game=game_id) from None


def list_games():
    """Registered game ids, sorted."""
    return sorted(_GAMES)
