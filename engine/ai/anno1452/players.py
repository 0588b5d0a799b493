"""The Anno 1452 players: ``easy`` and ``medium`` (greedy) and ``hard`` (search,
and a bargainer in the expert game's trade).

Every player sees only its view: it samples one full state consistent with
the view (``sample``) and runs the policy or the search on such samples.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import levels, search
from ..levels import sampler
from . import bargain
from .evaluate import relative_value
from .policy import distinct_scores, greedy_choice
from .sample import sample_dump

if TYPE_CHECKING:
    from ...core import Action, View
    from ...rng import Rng


# Simulations per decision, by player count: _SIMULATIONS / n^1.5 (49 and 27
# for 2 and 3 players; 4 players see ``_RATE_FACTOR``). The former 1 s
# wall-clock budget paid for 420 / n^1.5 per second, but on this shared
# machine the clock cut most of those searches short (2 players: 10 of 10 at
# 0.7 s), so hard really ran fewer. As a count, 99 simulations with 2
# players took 577 ms of CPU (median, p95 702 ms: 6 of 35 searches hit the
# 0.7 s CPU cap) once the match was under way, ~6 ms per rollout to the
# seat's next turn; 140 keeps the median near 300 ms of CPU.
_SIMULATIONS = 140
_COST_EXPONENT = 1.5
# Rollout steps a decision may take (``search``: the cap counts work, so a
# cut search replays alike on any machine). Uncapped hard-vs-medium searches
# (3 matches each, 2026-11-29) took at most 1,623 steps with 4 players
# (expert; median 32, p95 1,158), 508 and 435 in ottokar_a and ottokar_b;
# the heaviest took 258 ms of CPU here, and 2,500 steps bound a search near
# 0.4 s. (It replaced a cap of 0.7 x 1 s of CPU time.)
_STEP_CAP = 2500


sample_state = sampler(sample_dump)


def _any_but_pass(actions: list[Action], rng: Rng):
    """For a view the sampler cannot complete: any action but a pass."""
    return next((a for a in actions if a["type"] != "pass"), actions[0])


class GreedyPlayer(levels.GreedyPlayer):
    """``medium`` (noise 0) or ``easy`` (noisy scores, some random moves)."""

    sample_state = staticmethod(sample_state)
    greedy_choice = staticmethod(greedy_choice)
    fallback = staticmethod(_any_but_pass)


class BargainingPlayer(GreedyPlayer):
    """``hard``'s decisions outside its searched turns: medium's, except
    that pacts are sold (``bargain``)."""

    greedy_choice = staticmethod(bargain.greedy_choice)


def _searchable(view: View):
    """Turn decisions outside a battle: there the sampled queue is exact."""
    decision = view["decision"]
    return view["phase"] == "action" and view["battle"] is None and decision["kind"] == "action_turn"


# Opponent turns a rollout plays after the seat's move, by player count
# (absent: up to the seat's next turn). With 4 players a rollout to the next
# turn crosses 3 opponent turns of medium play and their dice; that noise
# swamped the few worlds the 0.2 s budget paid for, and 42% of the searches
# ran into the wall-clock line (0.7 x 0.2 s; median 128 ms, p90 145 ms).
# Stopping after one opponent turn (at a doubled rate): median 83 ms, p90
# 132 ms, 8% at the line, so the simulation count, not the clock, decides.
# Strength is unchanged within the noise: hard won 47/160 4-player matches
# (seeds 9001, 7777, 4242) against 45/160 before, same seeds. At 3 players
# neither this horizon nor fewer candidates measured better (35-48% against
# 40-47% before, 60 matches each), so 3 players is unchanged.
_HORIZON = {4: 1}
# Where the horizon makes a rollout cheaper than ``_SIMULATIONS`` assumes,
# the simulations per decision are multiplied by this. 4 players: 140 / 4^1.5
# = 17.5 becomes 35, which took 77 ms of CPU (median) in the expert standard
# game; twice that (70) took 300-700 ms (up to 10 ms per rollout step with
# hundreds of legal settles).
_RATE_FACTOR = {4: 2}


# Moves the search weighs: the policy's best eight distinct ones. The
# policy's one-step score misses what the opponents' replies do to a move, so
# the best move was often outside its top four (which could also hold one
# settle in several places). Hard against mediums at a 0.2 s budget, 200
# matches each on seeds 1000-1199, basic rules (one hard seat, rotating):
# - 4 players: 63 and 64 wins with four candidates, clones included; 89, 97
#   and 91 with 6, 8 and 12 of them; 90 and 91 with 6 and 8 distinct ones;
# - 3 players (ottokar_a): 103, 109 and 112 wins with 6, 8 and 10 distinct.
_CANDIDATES = 8


def _turns_after(order, seat, other):
    """How many turns after ``seat``'s in the turn order ``other``'s comes."""
    return (order.index(other) - order.index(seat)) % len(order)


def _rollout_over(view: View, seat):
    """A rollout ends with the match, when this seat's next turn begins, or
    (``_HORIZON``) when the turn after the last opponent turn it plays begins."""
    horizon = _HORIZON.get(view["num_players"])
    order = view["order"]

    def over(state):
        d = state.data
        decision = d["decision"]
        if d["result"] is not None or decision is None:
            return True
        if decision["kind"] != "action_turn":
            return False
        actor = decision["seats"][0]
        if actor == seat:
            return True
        # The order only changes in an evaluation round; then stop there too.
        if horizon is None or d["order"] != order:
            return horizon is not None
        return _turns_after(order, seat, actor) > horizon

    return over


def _leaf_value(state, seat):
    return relative_value(state.data, seat)


class SearchPlayer(search.SearchPlayer):
    """``hard``: determinized flat Monte Carlo over the policy's best moves
    (``search``); decisions outside an action turn are the medium player's,
    except in trade, where it sells its pacts (``bargain``)."""

    sample_state = staticmethod(sample_state)
    # The candidates are distinct moves: the policy follows each Citizen
    # count's best-placed settle with its other placements at almost the same
    # score, and those filled three of the four candidates in 4-player
    # positions full of settles.
    score_actions = staticmethod(distinct_scores)
    greedy_choice = staticmethod(greedy_choice)
    leaf_value = staticmethod(_leaf_value)
    searchable = staticmethod(_searchable)
    rollout_over = staticmethod(_rollout_over)
    simulations = _SIMULATIONS
    cost_exponent = _COST_EXPONENT
    # Where hard does not search, it plays as medium but trades as a bargainer.
    medium = BargainingPlayer

    # Battle dice make a handful of worlds noisy: each world also counts the
    # policy's one-step score of the candidate (the search's prior).
    policy_weight = 1.0
    step_cap = _STEP_CAP

    def __init__(
        self, simulations=None, step_cap=None, candidates=_CANDIDATES, max_rollout=200, wall_cap=5.0
    ):
        super().__init__(simulations, step_cap, candidates, max_rollout, wall_cap)

    def simulations_for(self, view: View):
        n = view["num_players"]
        return _SIMULATIONS * _RATE_FACTOR.get(n, 1) / n**_COST_EXPONENT
