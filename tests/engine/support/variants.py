"""How a game's seeded invariant matches are played: its variants.

Each support module lists ``MATCH_VARIANTS``. A variant is a set of
options, the player counts to cycle through, the share of the game's
matches (``--engine-matches``) it gets (or a ``fixed`` list of matches), and the policy that plays it:
per-type ``weights`` for the seeded weighted-random player, or None for
the uniform random player. ``coverage`` names the group of variants whose
matches must, together, choose every action type the support module lists
for it in ``COVERAGE``.
"""

import math
from dataclasses import dataclass

import engine

from .policy import WeightedRandomPlayer


@dataclass(frozen=True)
class Variant:
    label: str
    options: dict
    player_counts: tuple
    share: float = 1.0  # of --engine-matches; ignored when ``matches`` is set
    weights: dict | None = None
    refine: dict | None = None  # type -> factor(action), see policy.WeightedRandomPlayer
    coverage: str | None = None
    first_seed: int = 1000
    fixed: tuple = ()  # ((num_players, seed), ...): exactly these matches, whatever --engine-matches says
    slow: bool = False  # its matches are marked slow: left out by `make test-fast`

    def matches(self, per_game):
        """``[(num_players, seed)]`` to play, cycling over the player counts."""
        if self.fixed:
            return list(self.fixed)
        counts = self.player_counts
        return [
            (counts[i % len(counts)], self.first_seed + i) for i in range(math.ceil(per_game * self.share))
        ]

    def player(self):
        if self.weights is None:
            return engine.ai.get_player("random")
        return WeightedRandomPlayer(self.weights, self.refine)
