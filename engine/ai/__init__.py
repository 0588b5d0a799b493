"""AI players behind one call, ``get_player(level)``.

A player is given the game definition, its seat, that seat's view and its
legal actions; never the state. Levels, weakest first, are ``LEVELS``.
Strategic levels come from the AI package named by the game's registry
entry (``engine.registry.GameEntry.ai``, e.g. ``engine.ai.anno1503``).

For bot authors (``bot_api``): ``sample_state(game, view, seat, seed)``, a
full state consistent with a seat's view, and ``evaluate(game, state,
seat)``, the seat's standing relative to the others.
"""

# The compiled modules (engine.native) when a build matches their sources.
from ..native import package_path

__path__ = package_path(__name__, __path__)

from collections.abc import Mapping
from typing import Any

from ..core import Action, Game, Player, Seat, View
from .bot_api import WIN_VALUE, evaluate, sample_state
from .game_modules import make_game_player
from .random_player import RandomPlayer

LEVELS = ("random", "easy", "medium", "hard")


class LevelPlayer:
    """Dispatches each decision to the player of ``level`` for the game."""

    def __init__(self, level: str, options: Mapping[str, Any]) -> None:
        self.level = level
        self.options = options
        self._by_game: dict[str, Player] = {}

    def for_game(self, game_id: str) -> Player:
        if game_id not in self._by_game:
            player = make_game_player(game_id, self.level, **self.options)
            self._by_game[game_id] = player if player is not None else RandomPlayer()
        return self._by_game[game_id]

    def choose(self, game: Game[Any], seat: Seat, view: View, actions: list[Action], seed: int = 0) -> Action:
        if not actions:
            raise ValueError("no legal action to choose from")
        if len(actions) == 1:
            return actions[0]
        return self.for_game(game.id).choose(game, seat, view, actions, seed=seed)


def get_player(level: str, **options: Any) -> Player:
    """The AI player of ``level``; raises ``ValueError`` for an unknown level.

    ``random`` is uniform over the legal actions. ``easy``/``medium`` play a
    greedy strategy (easy with deliberate mistakes); ``hard`` searches
    sampled worlds. Options for ``hard``: ``simulations`` (rollouts per
    decision; default the game's count for the variant and player count)
    and two caps, ``step_cap`` (rollout steps per decision: work, not
    seconds; default the game's own) and ``wall_cap`` (wall-clock seconds,
    default 5.0, for an overloaded machine only). For a game whose registry entry names no AI package every level
    falls back to the random player.

    Every level is deterministic for a given view, legal actions and seed,
    whatever the machine or its load: ``hard`` runs a fixed number of
    simulations, and its step cap counts work. Only when the wall-clock cap
    cuts a search short (a machine loaded many times over) may a replay
    choose differently.
    """
    if level not in LEVELS:
        raise ValueError(f"unknown AI level {level!r}; one of {', '.join(LEVELS)}")
    if level == "random":
        return RandomPlayer()
    return LevelPlayer(level, options)


__all__ = [
    "LEVELS",
    "WIN_VALUE",
    "LevelPlayer",
    "RandomPlayer",
    "evaluate",
    "get_player",
    "sample_state",
]
