"""The Anno 1503 players: ``easy`` and ``medium`` (greedy) and ``hard`` (search).

``hard`` values positions with its own inhabitant table
(``values.HARD_INHABITANT``) and its leaves one production roll ahead
(``outlook``); in the expansion its value is medium's.

Every player sees only its view: it samples one full state consistent with
the view (``sample``) and runs the policy or the search on such samples.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import levels, search
from ..levels import sampler
from .outlook import hard_leaf_value
from .policy import greedy_choice, hard_greedy_choice, hard_score_actions
from .sample import sample_dump
from .variant import SIMULATIONS
from .variants import ai_of_view

if TYPE_CHECKING:
    from ...core import Action, View
    from ...rng import Rng


# Simulations per decision: _SIMULATIONS / n^0.25 (84 with 2 players, 72
# with 4). A rollout only finishes the seat's own turn (see
# ``_rollout_over``), so its length hardly depends on the player count. The
# former 1 s wall-clock budget paid for 600 / n^0.25 per second, but on
# this shared machine the clock cut 126 of 133 such searches short (2
# players, 0.8 s), so hard really ran far fewer. At these counts a decision
# took 130-150 ms of CPU (median; p95 220-260 ms), the expansion's (longer
# turns, hence its lower count) about 105 ms; since the value's reuse
# (issue 45: the leaf values only the hand again per card, hand values and
# ship values remembered) the base game's take 15-30 ms (p95 60-120 ms),
# the expansion's 25-50 ms. Decision times: bench/README.md ("hard's
# decisions").
_COST_EXPONENT = 0.25
# Rollouts to the end of the own turn vary little between worlds: a wider
# choice of first moves pays more than more worlds per move.
_CANDIDATES = 6
_SEARCH_PHASES = frozenset(("main", "tile_decision", "discard"))


sample_state = sampler(sample_dump)


# When no state can be sampled from the view (a variant this module does not
# model, or an inconsistent view), actions are picked by type in this order;
# unknown types sit in the middle, neutral, before ending the turn.
_FALLBACK_ORDER = (
    "take_tile",
    "develop",
    "place_pioneer",
    "sell",
    "discover",
    "build_ship",
    "choose_commodity",
    "lose_tile",
    "place_reserve_tile",
    "discard",
    None,
    "move_ship",
    "end_turn",
    "buy",
    "big_branch_office",
    "return_tile",
)


def fallback_choice(actions: list[Action], rng: Rng):
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

    def noise_scale(self, view: View):
        return ai_of_view(view).noise_scale


class HardGreedyPlayer(GreedyPlayer):
    """``hard``'s decisions outside its searched turns: medium's rule with
    hard's inhabitant values (``values.HARD_INHABITANT``)."""

    greedy_choice = staticmethod(hard_greedy_choice)


def _searchable(view: View):
    """Turns, tile decisions and discards: elsewhere medium's rule is as good."""
    return view["phase"] in _SEARCH_PHASES


def _rollout_over(view: View, seat: int):
    """A rollout ends with a winner or when this seat's turn is over.

    Not at its next turn: the other seats' turns and the dice added more
    noise than signal with the few worlds the budget pays for (hard lost to
    medium), while the rest of the own turn is what one-step greedy misses
    (a buy that pays for a development, a move that reaches a tile)."""
    horizon = view["turn"] + 1
    return lambda state: state.winner is not None or state.turn >= horizon


class SearchPlayer(search.SearchPlayer):
    """``hard``: determinized flat Monte Carlo over the policy's best moves
    (``search``), valued after the next production roll (``outlook``)."""

    sample_state = staticmethod(sample_state)
    score_actions = staticmethod(hard_score_actions)
    greedy_choice = staticmethod(hard_greedy_choice)
    leaf_value = staticmethod(hard_leaf_value)
    searchable = staticmethod(_searchable)
    rollout_over = staticmethod(_rollout_over)
    simulations = SIMULATIONS
    cost_exponent = _COST_EXPONENT
    medium = HardGreedyPlayer
    # Rollout steps a decision may take (``search``: the cap counts work, so
    # a cut search replays alike on any machine). Uncapped hard-vs-medium
    # searches in the base game (3 matches each, 2026-11-29) took at most 644
    # steps with 2 players (p95 294) and 585 with 4 (p95 356), the heaviest
    # 335 ms of CPU here (150 ms since issue 45's reuse); 1,500 bound a
    # search near 0.7 s (0.3 s). (It replaced a cap of 0.8 x 1 s of CPU time.)
    step_cap = 1500

    def __init__(
        self, simulations=None, step_cap=None, candidates=_CANDIDATES, max_rollout=400, wall_cap=5.0
    ):
        super().__init__(simulations, step_cap, candidates, max_rollout, wall_cap)

    def simulations_for(self, view: View):
        base = ai_of_view(view).simulations
        return base / view["num_players"] ** _COST_EXPONENT
