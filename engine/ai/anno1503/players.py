"""The Anno 1503 players: ``easy`` and ``medium`` (greedy) and ``hard`` (search).

Every player sees only its view: it samples one full state consistent with
the view (``sample``) and runs the policy or the search on such samples.
"""

from .. import levels, search
from ..levels import sampler
from .evaluate import relative_value
from .policy import greedy_choice, score_actions
from .sample import sample_dump
from .xsample import is_expansion_view

# Measured on the 2-core build box (load ~2.5): a rollout takes ~2 ms with 2
# players (max ~6) and ~7.5 ms with 4 (max ~13). budget * 200 / n^1.25
# simulations (84/s with 2 players, 35/s with 4) fill about half the budget
# on average and stay inside the 90% cap in slow positions at moderate load.
_CALIBRATION = 200
_COST_EXPONENT = 1.25
_SEARCH_PHASES = frozenset(("main", "tile_decision", "discard"))
# The expansion's values between moves differ several times less than the
# base game's (gold is a means, not a goal): easy's jitter is scaled to match.
_EXPANSION_NOISE = 0.3


sample_state = sampler(sample_dump)


# When no state can be sampled from the view (a variant this module does not
# model, or an inconsistent view), actions are picked by type in this order;
# unknown types sit in the middle, neutral, before ending the turn.
_FALLBACK_ORDER = (
    "take_tile", "develop", "place_pioneer", "sell", "discover", "build_ship",
    "choose_commodity", "lose_tile", "place_reserve_tile", "discard", None,
    "move_ship", "end_turn", "buy", "big_branch_office", "return_tile",
)


def fallback_choice(actions, rng):
    """A sensible action from the action types alone (no state needed)."""
    rank = {kind: i for i, kind in enumerate(_FALLBACK_ORDER)}
    neutral = rank[None]
    best = min(rank.get(a["type"], neutral) for a in actions)
    top = [a for a in actions if rank.get(a["type"], neutral) == best]
    return top[rng.below(len(top))]


class GreedyPlayer(levels.GreedyPlayer):
    """``medium`` (noise 0) or ``easy`` (noisy scores, some random moves)."""

    sample_state = staticmethod(sample_state)
    greedy_choice = staticmethod(greedy_choice)
    fallback = staticmethod(fallback_choice)

    def noise_scale(self, view):
        return _EXPANSION_NOISE if is_expansion_view(view) else 1.0


def _searchable(view):
    """Turns, tile decisions and discards: elsewhere medium's rule is as good."""
    return view["phase"] in _SEARCH_PHASES


def _rollout_over(view, seat):
    """A rollout ends with a winner or when this seat's next turn begins."""
    horizon = view["turn"] + view["num_players"]
    return lambda state: state.winner is not None or state.turn >= horizon


class SearchPlayer(search.SearchPlayer):
    """``hard``: determinized flat Monte Carlo over the policy's best moves (``search``)."""

    sample_state = staticmethod(sample_state)
    score_actions = staticmethod(score_actions)
    greedy_choice = staticmethod(greedy_choice)
    leaf_value = staticmethod(relative_value)
    searchable = staticmethod(_searchable)
    rollout_over = staticmethod(_rollout_over)
    calibration = _CALIBRATION
    cost_exponent = _COST_EXPONENT
    medium = GreedyPlayer
