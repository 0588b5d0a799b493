"""AI players behind one call, ``get_player(level)``.

A player is given the game definition, its seat, that seat's view and its
legal actions; never the state. Levels, weakest first, are ``LEVELS``.
"""

from .random_player import RandomPlayer

LEVELS = ("random", "easy", "medium", "hard")


def get_player(level):
    """The AI player of ``level``; raises ``ValueError`` for an unknown level.

    Until the strategic players land, every level plays uniformly at random.
    """
    if level not in LEVELS:
        raise ValueError(f"unknown AI level {level!r}; one of {', '.join(LEVELS)}")
    return RandomPlayer()


__all__ = ["LEVELS", "get_player", "RandomPlayer"]
