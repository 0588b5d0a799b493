"""The registry of games by id: one entry per game.

An entry carries the game's rules (the ``Game`` instance) and names, as
dotted paths, what plugs into it elsewhere: its AI package (``engine.ai``),
its board renderer (``engine.render``) and its environment encoders
(``tabula_env``). Paths are resolved on first use, so the engine core never
imports the layers above it (``tabula_env`` is not even a dependency of
``engine``). A new game is one ``register`` call in ``engine.games``.
"""

import functools
import importlib
from dataclasses import dataclass
from typing import Any, TypeVar

from .core import Game
from .errors import UnknownGameError

GameT = TypeVar("GameT", bound=Game[Any])


@dataclass(frozen=True)
class GameEntry:
    """A registered game and where its other parts live (None: it has none).

    ``ai``: a module with ``make_player(level, **options)``;
    ``renderer``: ``"module:function"``, ``(view, viewer) -> SVG text``;
    ``observation``: ``"module:function"``, ``(view, seat, num_players) -> groups``;
    ``action_enumerators``: ``"module:NAME"``, ``{type: enumerator}`` for the
    action types whose plain parameter product is too big (``tabula_env.codec``).
    """

    game: Game[Any]
    ai: str | None = None
    renderer: str | None = None
    observation: str | None = None
    action_enumerators: str | None = None


_ENTRIES: dict[str, GameEntry] = {}


def register(
    game: GameT,
    *,
    ai: str | None = None,
    renderer: str | None = None,
    observation: str | None = None,
    action_enumerators: str | None = None,
) -> GameT:
    """Add a game instance under its ``id`` with the paths of its parts; returns it."""
    _ENTRIES[game.id] = GameEntry(game, ai, renderer, observation, action_enumerators)
    return game


def get_entry(game_id: str) -> GameEntry:
    """The registry entry of this game id; raises ``UnknownGameError``."""
    try:
        return _ENTRIES[game_id]
    except (KeyError, TypeError):
        raise UnknownGameError(f"unknown game {game_id!r}", game=game_id) from None


def get_game(game_id: str) -> Game[Any]:
    """The game with this id; raises ``UnknownGameError``."""
    return get_entry(game_id).game


def list_games() -> list[str]:
    """Registered game ids, sorted."""
    return sorted(_ENTRIES)


@functools.cache
def resolve(path: str) -> Any:
    """The object a ``"module:name"`` path names (a module for ``"module"``)."""
    module_name, _, name = path.partition(":")
    module = importlib.import_module(module_name)
    return getattr(module, name) if name else module
