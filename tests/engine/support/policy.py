"""Seeded weighted-random play for the invariant matches.

A uniform random player wanders: in Anno 1503 most legal actions are ship
moves and purchases, so matches run to tens of thousands of actions. Giving
each legal action a weight by its type (per game, in the game's support
module) keeps play random and reproducible, with every action type still
possible, but brings matches to an end within the suite's time budget.
"""

from engine.rng import Rng, mix_seed

_SCALE = 1_000_000  # weights become integers so the draw is exact and portable


class WeightedRandomPlayer:
    """Picks a legal action with probability proportional to its type's weight.

    Types missing from ``weights`` weigh 1.0. ``refine`` optionally maps a
    type to ``factor(action)``, a positive multiplier by parameters (e.g.
    ship moves toward a far board). The same seed, seat and actions give
    the same pick (the generator is ``engine.rng.Rng``, never the global
    ``random``).
    """

    level = "weighted_random"

    def __init__(self, weights, refine=None):
        bad = {t: w for t, w in weights.items() if not w > 0}
        if bad:
            raise ValueError(f"weights must be positive, or the type could never be chosen: {bad}")
        self.weights = dict(weights)
        self.refine = dict(refine or {})

    def weight(self, action):
        kind = action["type"]
        weight = self.weights.get(kind, 1.0)
        if kind in self.refine:
            weight *= self.refine[kind](action)
        return max(1, round(weight * _SCALE))

    def choose(self, game, seat, view, actions, seed=0):
        if not actions:
            raise ValueError("no legal action to choose from")
        cumulative, total = [], 0
        for action in actions:
            total += self.weight(action)
            cumulative.append(total)
        pick = Rng(mix_seed(seed, seat, len(actions))).below(total)
        return actions[_first_above(cumulative, pick)]


def _first_above(cumulative, pick):
    """Index of the first running total greater than ``pick`` (binary search)."""
    lo, hi = 0, len(cumulative) - 1
    while lo < hi:
        mid = (lo + hi) // 2
        if cumulative[mid] > pick:
            hi = mid
        else:
            lo = mid + 1
    return lo
