"""AI players behind one call, ``get_player(level)``.

A player is given the game definition, its seat, that seat's view and its
legal actions; never the state. Levels, weakest first, are ``LEVELS``.
Strategic levels come from a per-game module ``engine.ai.<game id>``
registered in ``GAME_MODULES``; a new game plugs in with one line there.
"""

import importlib

from .random_player import RandomPlayer

LEVELS = ("random", "easy", "medium", "hard")
# game id -> module with ``make_player(level, **options)``
GAME_MODULES = {
    "anno1503": "engine.ai.anno1503",
    "anno1452": "engine.ai.anno1452",
}


class LevelPlayer:
    """Dispatches each decision to the player of ``level`` for the game."""

    def __init__(self, level, options):
        self.level = level
        self.options = options
        self._by_game = {}

    def for_game(self, game_id):
        if game_id not in self._by_game:
            module = GAME_MODULES.get(game_id)
            if module is None:
                self._by_game[game_id] = RandomPlayer()
            else:
                make = importlib.import_module(module).make_player
                self._by_game[game_id] = make(self.level, **self.options)
        return self._by_game[game_id]

    def choose(self, game, seat, view, actions, seed=0):
        if not actions:
            raise ValueError("no legal action to choose from")
        if len(actions) == 1:
            return actions[0]
        return self.for_game(game.id).choose(game, seat, view, actions, seed=seed)


def get_player(level, **options):
    """The AI player of ``level``; raises ``ValueError`` for an unknown level.

    ``random`` is uniform over the legal actions. ``easy``/``medium`` play a
    greedy strategy (easy with deliberate mistakes); ``hard`` searches
    sampled worlds. Options: ``time_budget`` (seconds per decision for
    ``hard``, default 1.0). For a game without an AI module in
    ``GAME_MODULES`` every level falls back to the random player.

    Every level is deterministic for a given view, legal actions and seed.
    ``hard`` runs a number of simulations derived from its budget; only when
    the wall-clock safety cap (90% of the budget) cuts a search short, e.g.
    on a heavily loaded machine, may a replay choose differently.
    """
    if level not in LEVELS:
        raise ValueError(f"unknown AI level {level!r}; one of {', '.join(LEVELS)}")
    if level == "random":
        return RandomPlayer()
    return LevelPlayer(level, options)


__all__ = ["GAME_MODULES", "LEVELS", "get_player", "LevelPlayer", "RandomPlayer"]
