"""The Anno 1503 players: ``easy`` and ``medium`` (greedy) and ``hard`` (search).

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


class SearchPlayer:
    """``hard``: determinized flat Monte Carlo over the policy's best moves.

    For each of ``worlds`` sampled states (hands, tiles, dice drawn
    consistently with the view) every candidate action is applied and the
    match continued with the medium policy for every seat until the seat's
    next turn; the leaf is scored by ``relative_value``. All candidates are
    tried on the same worlds (common random numbers). The number of
    simulations is about ``time_budget * sims_per_second`` (default: a
    calibration by player count, ``200 / n**1.25`` per second), so a decision is
    reproducible for a seed; the wall clock only stops the search early if a
    machine is much slower than the calibration (then it is not reproducible).
    """

    level = "hard"

    def __init__(self, time_budget=1.0, sims_per_second=None, candidates=4, max_rollout=400):
        self.time_budget = time_budget
        self.sims_per_second = sims_per_second
        self.candidates = candidates
        self.max_rollout = max_rollout
        self.medium = GreedyPlayer()

    def choose(self, game, seat, view, actions, seed=0):
        if len(actions) == 1:
            return actions[0]
        # Rollouts stop at the cap; the margin covers sampling and scoring.
        deadline = time.perf_counter() + self.time_budget * 0.9
        first = sample_state(game, view, seat, Rng(mix_seed(seed, seat, 0)))
        if first is None or view["phase"] not in _SEARCH_PHASES:
            return self.medium.choose(game, seat, view, actions, seed=seed)
        ranked = sorted(score_actions(game, first, seat, actions), key=lambda si: (-si[0], si[1]))
        picks = [i for _, i in ranked[: self.candidates]]
        if len(picks) == 1:
            return actions[picks[0]]
        worlds = max(1, round(self.time_budget * self._rate(view) / len(picks)))
        totals = dict.fromkeys(picks, 0.0)
        for w in range(worlds):
            world = first if w == 0 else sample_state(game, view, seat, Rng(mix_seed(seed, seat, w)))
            values = self._try_all(game, world, seat, [actions[i] for i in picks], view["turn"], deadline)
            if values is None:
                break  # over the safety cap: this world is dropped (not reproducible)
            for i, value in zip(picks, values):
                totals[i] += value
        best = max(picks, key=lambda i: (totals[i], -picks.index(i)))
        return actions[best]

    def _try_all(self, game, world, seat, candidates, turn, deadline):
        """Each candidate's rollout value on one world, or None past the deadline."""
        values = []
        for action in candidates:
            value = self._simulate(game, world, seat, action, turn, deadline)
            if value is None:
                return None
            values.append(value)
        return values

    def _rate(self, view):
        """Simulations per second of budget, by player count."""
        if self.sims_per_second is not None:
            return self.sims_per_second
        return _CALIBRATION / view["num_players"] ** _COST_EXPONENT

    def _simulate(self, game, world, seat, action, turn, deadline):
        """The leaf value after ``action`` and medium play; None past the deadline."""
        state, _ = game.apply(world, seat, action)
        horizon = turn + world.num_players  # until this seat's next turn begins
        for _ in range(self.max_rollout):
            if state.winner is not None or state.turn >= horizon:
                break
            if time.perf_counter() > deadline:
                return None
            actor = game.to_act(state)[0]
            legal = game.legal_actions(state, actor)
            state, _ = game.apply(state, actor, greedy_choice(game, state, actor, legal))
        return relative_value(state, seat)
