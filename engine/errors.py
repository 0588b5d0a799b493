"""Typed errors raised by the engine.

The service maps each class once to the HTTP contract's status and code
(see ``service/errors.py``); bots catch them when simulating offline.
"""

from typing import Any, ClassVar


class EngineError(Exception):
    """Base of every error the engine raises on purpose."""

    code: ClassVar[str] = "engine_error"

    def __init__(self, message: str, **details: Any) -> None:
        super().__init__(message)
        self.message = message
        self.details = details


class UnknownGameError(EngineError, KeyError):
    """``get_game`` was given an id that is not registered."""

    code = "not_found"

    def __str__(self) -> str:
        return self.message


class InvalidOptionsError(EngineError, ValueError):
    """``setup`` got a player count or option the game does not offer."""

    code = "validation_error"


class InvalidActionError(EngineError, ValueError):
    """The action is malformed: unknown type, missing or unexpected fields."""

    code = "validation_error"


class IllegalActionError(EngineError, ValueError):
    """The action is well-formed but not legal now; ``reason`` names the rule."""

    code = "illegal_action"

    def __init__(self, reason: str, message: str | None = None, **details: Any) -> None:
        super().__init__(message or reason.replace("_", " "), reason=reason, **details)
        self.reason = reason


class NotYourTurnError(EngineError):
    """The seat has no decision pending."""

    code = "not_your_turn"


class GameOverError(EngineError):
    """The match has finished; nothing more can be applied."""

    code = "game_over"
