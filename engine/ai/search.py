"""The ``hard`` level shared by every game: determinized flat Monte Carlo.

For each of a number of worlds sampled from the seat's view (other hands,
unseen tiles, deck orders, future dice drawn consistently with it), each of
the policy's best few candidates is applied and the match continued with the
medium policy for every seat until a game-defined horizon (the seat's next
turn); the leaf is scored by the game's relative value. All candidates are
tried on the same worlds (common random numbers), which makes the comparison
fair with few worlds.

The search is budgeted in simulations (rollouts), not in time: a decision
runs ``simulations`` of them (default: the game's count for the view's
variant and player count), so the same view, legal actions and seed give the
same choice on any machine and under any load. Every world is drawn from a
generator seeded by the decision's seed, the seat and the world's number;
nothing reads the global ``random`` or the clock to decide.

Two caps guard the service; past either, the remaining worlds are dropped
(``capped`` counts such decisions, ``capped_wall`` those the wall clock cut;
the ladder, ``python -m bench.ladder``, reports them):

- ``step_cap``: rollout steps (actions applied and chosen by the rollout
  policy) per decision, each game's own count. It counts work, not
  seconds, so a search it cuts short still chooses the same on any machine
  and under any load: a seeded match replays identically everywhere. It
  replaced a cap of 1 s of the thread's CPU time (issue 45), whose cut
  searches chose by the machine's speed; each game's count sits above its
  searches' heaviest measured and bounds a search's CPU well under 1 s here;
- ``wall_cap`` (5 s) of wall-clock time, only for a machine so overloaded
  that a player would wait too long (that decision alone is then not
  reproducible).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from ..rng import Rng, mix_seed

if TYPE_CHECKING:
    from typing import Any

    from ..core import Action, Game, View
    from ..rng import Rng


class SearchPlayer:
    """``hard``. A game's subclass supplies, as static methods:

    - ``sample_state(game, view, seat, rng)``: a state consistent with the view, or None;
    - ``score_actions(game, state, seat, actions)``: ``[(score, index)]``, the policy's ranking;
    - ``greedy_choice(game, state, seat, actions)``: the rollout policy (medium);
    - ``leaf_value(state, seat)``: the seat's value relative to the others;
    - ``searchable(view)``: whether to search this decision (else medium decides);
    - ``rollout_over(view, seat)``: a predicate on states that ends a rollout;

    and the class attributes ``simulations`` (per decision, before the
    player-count scaling ``simulations / n ** cost_exponent``),
    ``cost_exponent`` and ``medium`` (the greedy player class). Optional
    attributes:

    - ``policy_weight``: each world adds this times the policy's own score of
      a candidate to its rollout value, so that with few worlds one lucky
      roll of the dice does not outweigh a clearly better move;
    - ``step_cap``: the rollout steps a decision may take (see above).
    """

    level = "hard"
    sample_state: Any = None
    score_actions: Any = None
    greedy_choice: Any = None
    leaf_value: Any = None
    searchable: Any = None
    rollout_over: Any = None
    simulations = 100
    cost_exponent = 1.0
    medium: Any = None
    policy_weight = 0.0
    step_cap = 10_000

    def __init__(self, simulations=None, step_cap=None, candidates=4, max_rollout=400, wall_cap=5.0):
        self.simulations_per_decision = simulations
        if step_cap is not None:
            self.step_cap = step_cap
        self.wall_cap = wall_cap
        self.candidates = candidates
        self.max_rollout = max_rollout
        self.fallback = self.medium()
        self.searches = 0  # decisions searched by this player
        self.capped = 0  # ... of which a safety cap cut short
        self.capped_wall = 0  # ... by the wall-clock cap (the load on the machine)
        self.steps = 0  # rollout steps of all its searches (the work the cap counts)
        self.last_steps = 0  # ... of its last search

    def choose(self, game: Game[Any], seat: int, view: View, actions: list[Action], seed=0):
        if len(actions) == 1:
            return actions[0]
        deadline = _Budget(self.step_cap, self.wall_cap)
        first = self.sample_state(game, view, seat, Rng(mix_seed(seed, seat, 0)))
        if first is None or not self.searchable(view):
            return self.fallback.choose(game, seat, view, actions, seed=seed)
        picks, priors = self._candidates(game, first, seat, actions)
        if len(picks) == 1:
            return actions[picks[0]]
        self.searches += 1
        totals = dict.fromkeys(picks, 0.0)
        stop = self.rollout_over(view, seat)
        for w in range(self._worlds(view, len(picks))):
            world = first if w == 0 else self.sample_state(game, view, seat, Rng(mix_seed(seed, seat, w)))
            if world is None:
                continue  # no world this seed: the others decide (still reproducible)
            values = self._try_all(game, world, seat, [actions[i] for i in picks], stop, deadline)
            if values is None:
                self.capped += 1
                self.capped_wall += deadline.wall_passed
                break  # over the safety cap: this world is dropped (not reproducible)
            for i, value, prior in zip(picks, values, priors):
                totals[i] += value + self.policy_weight * prior
        self.last_steps = deadline.steps
        self.steps += deadline.steps
        best = max(picks, key=lambda i: (totals[i], -picks.index(i)))
        return actions[best]

    def _candidates(self, game: Game[Any], state, seat: int, actions: list[Action]):
        """``(indices, scores)`` of the policy's ``candidates`` best actions, best first."""
        ranked = sorted(self.score_actions(game, state, seat, actions), key=lambda si: (-si[0], si[1]))
        top = ranked[: self.candidates]
        return [i for _, i in top], [score for score, _ in top]

    def _worlds(self, view: View, candidates):
        """How many worlds the simulation count pays for, each trying every candidate."""
        count = self.simulations_per_decision
        if count is None:
            count = self.simulations_for(view)
        return max(1, round(count / candidates))

    def simulations_for(self, view: View):
        """Simulations per decision: ``simulations / n ** cost_exponent``; a
        game whose variants differ in rollout cost may override it."""
        return self.simulations / view["num_players"] ** self.cost_exponent

    def _try_all(self, game: Game[Any], world, seat: int, candidates, stop, deadline):
        """Each candidate's rollout value on one world, or None past the deadline."""
        values = []
        for action in candidates:
            value = self._simulate(game, world, seat, action, stop, deadline)
            if value is None:
                return None
            values.append(value)
        return values

    def _simulate(self, game: Game[Any], world, seat: int, action, stop, deadline):
        """The leaf value after ``action`` and medium play; None past the deadline."""
        state, _ = game.apply(world, seat, action)
        for _ in range(self.max_rollout):
            if stop(state):
                break
            if deadline.passed():
                return None
            actor = game.to_act(state)[0]
            legal = game.legal_actions(state, actor)
            state, _ = game.apply(state, actor, self.greedy_choice(game, state, actor, legal))
        return self.leaf_value(state, seat)


class _Budget:
    """Both caps of one search: rollout steps (work), wall seconds."""

    __slots__ = ("cap", "steps", "wall", "wall_passed")

    def __init__(self, steps, wall_seconds):
        self.cap = steps
        self.steps = 0
        self.wall = time.perf_counter() + wall_seconds
        self.wall_passed = False

    def passed(self):
        """Counts one rollout step; True once the steps or the clock are spent."""
        self.steps += 1
        if self.steps > self.cap:
            return True
        self.wall_passed = time.perf_counter() > self.wall
        return self.wall_passed
