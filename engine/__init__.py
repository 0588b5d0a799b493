"""Tabula's rules engine: games as pure, seeded, JSON-serializable rules.

    >>> import engine
    >>> "anno1503" in engine.list_games()
    True

See ``engine.core.Game`` for the interface every game implements and
``../shared/specs/api-contract.md`` ("The engine as a Python library").
No Flask, no Redis, no I/O beyond reading each game's data files, no global
random.
"""

# The compiled modules (engine.native) when a build matches their sources.
from .native import package_path

__path__ = package_path(__name__, __path__)

from . import (
    ai,
    games,  # noqa: F401  (registers the bundled games)
)
from .core import ActionSpec, Game, redact_event
from .errors import (
    EngineError,
    GameOverError,
    IllegalActionError,
    InvalidActionError,
    InvalidOptionsError,
    NotYourTurnError,
    UnknownGameError,
)
from .registry import get_game, list_games, register

__all__ = [
    "ActionSpec",
    "EngineError",
    "Game",
    "GameOverError",
    "IllegalActionError",
    "InvalidActionError",
    "InvalidOptionsError",
    "NotYourTurnError",
    "UnknownGameError",
    "ai",
    "get_game",
    "list_games",
    "redact_event",
    "register",
]
