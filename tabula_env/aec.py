"""The PettingZoo AEC environment: one agent per seat, ``player_0`` ...

    >>> from tabula_env import aec_env
    >>> env = aec_env("anno1452-basic-ottokar_a-2p", extra_options={"end_year": 1314})
    >>> env.reset(seed=3)
    >>> obs, reward, terminated, truncated, info = env.last()
    >>> sorted(obs)
    ['action_mask', 'observation']

Observations are ``{"observation": ..., "action_mask": int8 vector}``: the
flat vector (``obs_type="flat"``) or the ``Dict`` of groups
(``obs_type="dict"``), from the agent's own seat view. The action is an
index of the variant's space (``env.codec``). Rewards: +1 to each winner and
-1 to the others when the match ends, plus, with ``reward_shaping=w``, ``w``
times the change of the agent's public score lead after each of its actions.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv

from .match import Match, outcome_rewards, rasterize

if TYPE_CHECKING:
    from typing import Any

    from engine.core import Action


if TYPE_CHECKING:
    pass


RENDER_MODES = ["svg", "rgb_array"]


def agent_name(seat: int):
    return f"player_{seat}"


class TabulaAECEnv(AECEnv):
    """A Tabula variant as a PettingZoo AEC environment (see the module doc)."""

    metadata: ClassVar[dict] = {"render_modes": RENDER_MODES, "name": "tabula_v0", "is_parallelizable": False}

    def __init__(
        self,
        variant,
        obs_type="flat",
        render_mode=None,
        render_viewer=None,
        extra_options=None,
        max_steps=None,
        reward_shaping=0.0,
    ):
        super().__init__()
        if obs_type not in ("flat", "dict"):
            raise ValueError("obs_type is 'flat' or 'dict'")
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode is one of {RENDER_MODES} or None")
        self.match = Match(variant, extra_options)
        self.variant = self.match.variant
        self.codec = self.match.codec
        self.flat = obs_type == "flat"
        self.render_mode = render_mode
        self.render_viewer = render_viewer
        self.max_steps = max_steps
        self.reward_shaping = float(reward_shaping)
        self.possible_agents = [agent_name(s) for s in range(self.match.num_players)]
        self._agent = dict(enumerate(self.possible_agents))  # seat -> agent name
        self._seat = {agent: s for s, agent in enumerate(self.possible_agents)}
        inner = self.match.encoder.flat_space if self.flat else self.match.encoder.dict_space
        observation_space = spaces.Dict(
            {
                "observation": inner,
                "action_mask": spaces.Box(0, 1, shape=(self.codec.size,), dtype=np.int8),
            }
        )
        self._observation_spaces = dict.fromkeys(self.possible_agents, observation_space)
        self._action_spaces = {a: spaces.Discrete(self.codec.size) for a in self.possible_agents}
        self._np_random = None

    # --- spaces and observations ------------------------------------------------

    def observation_space(self, agent):
        return self._observation_spaces[agent]

    def action_space(self, agent):
        return self._action_spaces[agent]

    def action_mask(self, agent):
        """The agent's action mask alone (cheaper than ``observe``); read-only."""
        return self.match.mask(self._seat[agent])

    def legal_indices(self, agent):
        """The agent's legal action indices (the mask's ones), [] when it is not to act.
        Shared until the next action: do not change the list."""
        if self._seat[agent] != self.match.seat_to_act:
            return []
        return self.match.legal_indices()

    def observe(self, agent):
        seat = self._seat[agent]
        # A copy of the mask: the caller keeps the observation; action_mask() is the zero-copy one.
        return {
            "observation": self.match.observation(seat, self.flat),
            "action_mask": self.match.mask(seat).copy(),
        }

    # --- the loop -----------------------------------------------------------------

    def reset(self, seed=None, options=None) -> None:
        """A new match. ``seed`` is the engine seed (``match_seed``); without
        one, a seed is drawn from the generator the last seeded reset set up."""
        if seed is not None:
            self._np_random, _ = seeding.np_random(seed)
            match_seed = int(seed)
        else:
            if self._np_random is None:
                self._np_random, _ = seeding.np_random()
            match_seed = int(self._np_random.integers(2**62))
        self.match.start(match_seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._paid = False  # whether self.rewards holds a reward other than 0
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.num_steps = 0
        self.agent_selection = agent_name(self.match.seat_to_act)

    @property
    def match_seed(self):
        return self.match.seed

    @property
    def history(self):
        """``[(seat, action JSON)]`` so far: ``engine.runner.replay`` input."""
        return self.match.history

    def step(self, action: Action) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        match, shaping = self.match, self.reward_shaping
        lead = match.score_lead(self._seat[agent]) if shaping else 0.0
        match.apply_index(action)  # a masked-out index: ValueError, nothing changed
        self.num_steps += 1
        self._cumulative_rewards[agent] = 0.0
        outcome = match.outcome
        if outcome is None and not shaping:
            # Every reward 0: the last step's dict still says so unless it paid out.
            if self._paid:
                self.rewards = dict.fromkeys(self.agents, 0.0)
                self._paid = False
        else:
            self._pay(agent, self._seat[agent], outcome, lead)
        if outcome is not None:
            self.terminations = dict.fromkeys(self.agents, True)
        elif self.max_steps is not None and self.num_steps >= self.max_steps:
            self.truncations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self._agent[match.seat_to_act]

    def _pay(self, agent, seat: int, outcome, lead) -> None:
        """A step's rewards: the shaped score change, and the outcome's when it ends."""
        match = self.match
        self.rewards = rewards = dict.fromkeys(self.agents, 0.0)
        self._paid = True
        if self.reward_shaping:
            rewards[agent] += self.reward_shaping * (match.score_lead(seat) - lead)
        if outcome is not None:
            for s, value in enumerate(outcome_rewards(outcome, match.num_players)):
                rewards[self._agent[s]] += value
        self._accumulate_rewards()

    # --- pictures -------------------------------------------------------------------

    def render(self):
        """``svg``: the board SVG for ``render_viewer`` (a seat; None = spectator),
        the same document as the API's ``board.svg``; ``rgb_array``: it rasterized."""
        if self.render_mode is None:
            return None
        svg = self.match.svg(self.render_viewer)
        return svg if self.render_mode == "svg" else rasterize(svg)

    def close(self) -> None:
        pass
