"""What every game's AI package shares: the greedy choice and player's
shape, and the factory that maps a level to a player (the searching
``hard`` player is in ``search``).

A game's package supplies only what is game-specific: how to rebuild a state
from a view (``sample_dump``), how to pick greedily on such a state, and
what to do when a view cannot be completed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..rng import Rng, mix_seed
from .random_player import RandomPlayer

if TYPE_CHECKING:
    from typing import Any

    from ..core import Action, Game, View
    from ..rng import Rng


def sampler(sample_dump):
    """``sample_state(game, view, seat, rng)`` built on a game's dump sampler:
    a state consistent with the view, or None when it cannot be built."""

    def sample_state(game: Game[Any], view: View, seat: int, rng: Rng):
        try:
            return game.load(sample_dump(view, seat, rng))
        except (KeyError, ValueError, TypeError, IndexError):
            return None

    return sample_state


class GreedyPlayer:
    """``medium`` (noise 0) or ``easy`` (noisy scores, some random moves).

    Subclasses set ``sample_state``, ``greedy_choice`` (``(game, world, seat,
    actions, noise, rng) -> action``) and ``fallback`` (``(actions, rng) ->
    action``) as static methods, and may scale the noise per view.
    """

    sample_state: Any = None
    greedy_choice: Any = None
    fallback: Any = None

    def __init__(self, level="medium", noise=0.0, blunder_rate=0.0):
        self.level = level
        self.noise = noise
        self.blunder_rate = blunder_rate

    def noise_scale(self, view: View):
        return 1.0

    def choose(self, game: Game[Any], seat: int, view: View, actions: list[Action], seed=0):
        if len(actions) == 1:
            return actions[0]
        rng = Rng(mix_seed(seed, seat, "greedy"))
        if self.blunder_rate and rng.below(1000) < self.blunder_rate * 1000:
            return RandomPlayer().choose(game, seat, view, actions, seed=seed)
        world = self.sample_state(game, view, seat, rng)
        if world is None:
            return self.fallback(actions, rng)
        noise = self.noise * self.noise_scale(view)
        return self.greedy_choice(game, world, seat, actions, noise, rng)


def greedy(score_actions):
    """``greedy_choice(game, state, seat, actions, noise=0.0, rng=None)`` for a
    game's ``score_actions``: the best-scoring action, the first on ties;
    ``noise`` adds uniform jitter to every score (the easy level)."""

    def greedy_choice(game, state, seat, actions, noise=0.0, rng=None):
        if len(actions) == 1:
            return actions[0]
        scored = score_actions(game, state, seat, actions)
        if noise and rng is not None:
            scored = [(s + noise * rng.below(1000) / 1000.0, i) for s, i in scored]
        best = max(scored, key=lambda si: (si[0], -si[1]))
        return actions[best[1]]

    return greedy_choice


def level_factory(game_id, greedy_player, search_player, easy_options):
    """``make_player(level, **options)`` for one game; ``options`` other than
    easy's and medium's go to ``hard``'s search player (``simulations``,
    ``step_cap``, ``candidates``...)."""

    def make_player(level, **options):
        if level == "easy":
            return greedy_player("easy", **{**easy_options, **options})
        if level == "medium":
            return greedy_player("medium", **options)
        if level == "hard":
            return search_player(**options)
        raise ValueError(f"no {level!r} player for {game_id}")

    return make_player
