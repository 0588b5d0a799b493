"""The Anno 1452 players: ``easy`` and ``medium`` (greedy) and ``hard`` (search).

Every player sees only its view: it samples one full state consistent with
the view (``sample``) and runs the policy or the search on such samples.
"""

import time

from ...rng import Rng, mix_seed
from .. import levels
from ..levels import sampler
from .evaluate import relative_value
from .policy import greedy_choice, score_actions
from .sample import sample_dump

# Simulations per second of budget, by player count. Measured on the 2-core
# box under load: a rollout to the seat's next turn takes ~5 ms with 2
# players, ~6.5 ms with 3 and ~14 ms with 4 (max ~22); 280 / n^1.5 per second
# (99, 54, 35) fills about half the budget and stays inside the 90% cap.
_CALIBRATION = 280
_COST_EXPONENT = 1.5


sample_state = sampler(sample_dump)


def _any_but_pass(actions, rng):
    """For a view the sampler cannot complete: any action but a pass."""
    return next((a for a in actions if a["type"] != "pass"), actions[0])


class GreedyPlayer(levels.GreedyPlayer):
    """``medium`` (noise 0) or ``easy`` (noisy scores, some random moves)."""

    sample_state = staticmethod(sample_state)
    greedy_choice = staticmethod(greedy_choice)
    fallback = staticmethod(_any_but_pass)


def _searchable(view):
    """Turn decisions outside a battle: there the sampled queue is exact."""
    decision = view["decision"]
    return view["phase"] == "action" and view["battle"] is None and decision["kind"] == "action_turn"


class SearchPlayer:
    """``hard``: determinized flat Monte Carlo over the policy's best moves.

    On each of ``worlds`` sampled states (other hands and deck order drawn
    consistently with the view, fresh dice) every candidate is applied and
    the match continued with the medium policy for every seat until this
    seat's next turn (or ``max_rollout`` actions); the leaf is scored by
    ``relative_value``. Candidates share the worlds (common random numbers).
    The simulation count is ``time_budget * sims_per_second`` (default a
    calibration by player count), so a decision is reproducible for a seed;
    the wall clock (90% of the budget) only stops a search on a much slower
    machine. Decisions outside an action turn are the medium player's.
    """

    level = "hard"

    def __init__(self, time_budget=1.0, sims_per_second=None, candidates=4, max_rollout=200):
        self.time_budget = time_budget
        self.sims_per_second = sims_per_second
        self.candidates = candidates
        self.max_rollout = max_rollout
        self.medium = GreedyPlayer()

    def choose(self, game, seat, view, actions, seed=0):
        if len(actions) == 1:
            return actions[0]
        deadline = time.perf_counter() + self.time_budget * 0.9
        first = sample_state(game, view, seat, Rng(mix_seed(seed, seat, 0)))
        if first is None or not _searchable(view):
            return self.medium.choose(game, seat, view, actions, seed=seed)
        ranked = sorted(score_actions(game, first, seat, actions), key=lambda si: (-si[0], si[1]))
        picks = [i for _, i in ranked[: self.candidates]]
        worlds = max(1, round(self.time_budget * self._rate(view) / len(picks)))
        totals = dict.fromkeys(picks, 0.0)
        for w in range(worlds):
            world = first if w == 0 else sample_state(game, view, seat, Rng(mix_seed(seed, seat, w)))
            values = [self._simulate(game, world, seat, actions[i], deadline) for i in picks]
            if None in values:
                break  # over the safety cap: this world is dropped (not reproducible)
            for i, value in zip(picks, values):
                totals[i] += value
        best = max(picks, key=lambda i: (totals[i], -picks.index(i)))
        return actions[best]

    def _rate(self, view):
        if self.sims_per_second is not None:
            return self.sims_per_second
        return _CALIBRATION / view["num_players"] ** _COST_EXPONENT

    def _simulate(self, game, world, seat, action, deadline):
        """The leaf value after ``action`` and medium play; None past the deadline."""
        state, _ = game.apply(world, seat, action)
        for _ in range(self.max_rollout):
            d = state.data
            decision = d["decision"]
            if d["result"] is not None or decision is None:
                break
            if decision["kind"] == "action_turn" and decision["seats"] == [seat]:
                break
            if time.perf_counter() > deadline:
                return None
            actor = decision["seats"][0]
            legal = game.legal_actions(state, actor)
            state, _ = game.apply(state, actor, greedy_choice(game, state, actor, legal))
        return relative_value(state.data, seat)
