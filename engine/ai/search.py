"""The ``hard`` level shared by every game: determinized flat Monte Carlo.

For each of a number of worlds sampled from the seat's view (other hands,
unseen tiles, deck orders, future dice drawn consistently with it), each of
the policy's best few candidates is applied and the match continued with the
medium policy for every seat until a game-defined horizon (the seat's next
turn); the leaf is scored by the game's relative value. All candidates are
tried on the same worlds (common random numbers), which makes the comparison
fair with few worlds.

The number of simulations is ``time_budget * sims_per_second`` (default a
calibration by player count, ``calibration / n ** cost_exponent``), so a
decision is reproducible for a seed; the wall clock (90% of the budget) only
stops a search early on a machine much slower than the calibration, and then
the decision is not reproducible.
"""

import time

from ..rng import Rng, mix_seed


class SearchPlayer:
    """``hard``. A game's subclass supplies, as static methods:

    - ``sample_state(game, view, seat, rng)``: a state consistent with the view, or None;
    - ``score_actions(game, state, seat, actions)``: ``[(score, index)]``, the policy's ranking;
    - ``greedy_choice(game, state, seat, actions)``: the rollout policy (medium);
    - ``leaf_value(state, seat)``: the seat's value relative to the others;
    - ``searchable(view)``: whether to search this decision (else medium decides);
    - ``rollout_over(view, seat)``: a predicate on states that ends a rollout;

    and the class attributes ``calibration``, ``cost_exponent`` and ``medium``
    (the greedy player class). Optional attributes:

    - ``policy_weight``: each world adds this times the policy's own score of
      a candidate to its rollout value, so that with few worlds one lucky
      roll of the dice does not outweigh a clearly better move;
    - ``deadline_share``: rollouts stop at this share of the budget; the rest
      covers sampling, scoring and the rollout step that crosses the line
      (long where a step weighs hundreds of actions).
    """

    level = "hard"
    sample_state = score_actions = greedy_choice = leaf_value = None
    searchable = rollout_over = None
    calibration = 100
    cost_exponent = 1.0
    medium = None
    policy_weight = 0.0
    deadline_share = 0.9

    def __init__(self, time_budget=1.0, sims_per_second=None, candidates=4, max_rollout=400):
        self.time_budget = time_budget
        self.sims_per_second = sims_per_second
        self.candidates = candidates
        self.max_rollout = max_rollout
        self.fallback = self.medium()

    def choose(self, game, seat, view, actions, seed=0):
        if len(actions) == 1:
            return actions[0]
        deadline = time.perf_counter() + self.time_budget * self.deadline_share
        first = self.sample_state(game, view, seat, Rng(mix_seed(seed, seat, 0)))
        if first is None or not self.searchable(view):
            return self.fallback.choose(game, seat, view, actions, seed=seed)
        picks, priors = self._candidates(game, first, seat, actions)
        if len(picks) == 1:
            return actions[picks[0]]
        totals = dict.fromkeys(picks, 0.0)
        stop = self.rollout_over(view, seat)
        for w in range(self._worlds(view, len(picks))):
            world = first if w == 0 else self.sample_state(game, view, seat, Rng(mix_seed(seed, seat, w)))
            if world is None:
                continue  # no world this seed: the others decide (still reproducible)
            values = self._try_all(game, world, seat, [actions[i] for i in picks], stop, deadline)
            if values is None:
                break  # over the safety cap: this world is dropped (not reproducible)
            for i, value, prior in zip(picks, values, priors):
                totals[i] += value + self.policy_weight * prior
        best = max(picks, key=lambda i: (totals[i], -picks.index(i)))
        return actions[best]

    def _candidates(self, game, state, seat, actions):
        """``(indices, scores)`` of the policy's ``candidates`` best actions, best first."""
        ranked = sorted(self.score_actions(game, state, seat, actions), key=lambda si: (-si[0], si[1]))
        top = ranked[: self.candidates]
        return [i for _, i in top], [score for score, _ in top]

    def _worlds(self, view, candidates):
        """How many worlds the budget pays for, each trying every candidate."""
        rate = self.sims_per_second
        if rate is None:
            rate = self.calibration_for(view) / view["num_players"] ** self.cost_exponent
        return max(1, round(self.time_budget * rate / candidates))

    def calibration_for(self, view):
        """Simulations per second of budget before the player-count scaling;
        a game whose variants differ in rollout cost may choose per view."""
        return self.calibration

    def _try_all(self, game, world, seat, candidates, stop, deadline):
        """Each candidate's rollout value on one world, or None past the deadline."""
        values = []
        for action in candidates:
            value = self._simulate(game, world, seat, action, stop, deadline)
            if value is None:
                return None
            values.append(value)
        return values

    def _simulate(self, game, world, seat, action, stop, deadline):
        """The leaf value after ``action`` and medium play; None past the deadline."""
        state, _ = game.apply(world, seat, action)
        for _ in range(self.max_rollout):
            if stop(state):
                break
            if time.perf_counter() > deadline:
                return None
            actor = game.to_act(state)[0]
            legal = game.legal_actions(state, actor)
            state, _ = game.apply(state, actor, self.greedy_choice(game, state, actor, legal))
        return self.leaf_value(state, seat)
