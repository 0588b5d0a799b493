"""The uniform random player."""

from typing import Any

from ..core import Action, Game, Seat, View
from ..rng import Rng, mix_seed


class RandomPlayer:
    """Picks uniformly among the legal actions, reproducibly for a seed."""

    level = "random"

    def choose(
        self, game: Game[Any], seat: Seat, view: View | None, actions: list[Action], seed: int = 0
    ) -> Action:
        """One of ``actions``; the same seed and actions give the same pick. The
        view is not read (callers that play without views pass None)."""
        if not actions:
            raise ValueError("no legal action to choose from")
        return actions[Rng(mix_seed(seed, seat, len(actions))).below(len(actions))]
