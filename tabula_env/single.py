"""A Gymnasium single-agent environment: the learner holds one seat, the
built-in AI (``engine.ai``, any level) plays the others.

    >>> from tabula_env import single_agent_env
    >>> env = single_agent_env("anno1503-base-2p", opponent="random")
    >>> obs, info = env.reset(seed=1)
    >>> int(obs["action_mask"].sum()) == len(info["legal_actions"])
    True

Reward: +1 when the match ends with the learner among the winners, -1 when
it ends otherwise, 0 on every other step; with ``reward_shaping=w``, plus
``w`` times the change of the learner's public score lead (its victory
points minus the best opponent's) over the step, opponents' moves included.
An action outside the mask ends the episode with reward -1 and
``info["illegal_action"]`` (``illegal_action="raise"`` raises ``ValueError``
instead).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import gymnasium as gym
import numpy as np
from gymnasium import spaces

import engine
from engine.rng import mix_seed

from .match import Match, outcome_rewards, rasterize

if TYPE_CHECKING:
    from engine.core import Action


ILLEGAL_REWARD = -1.0


class TabulaSingleAgentEnv(gym.Env):
    """One seat for the learner, AI opponents for the rest (see the module doc)."""

    metadata = {"render_modes": ["svg", "rgb_array"]}  # noqa: RUF012  (gymnasium declares it an instance attribute)

    def __init__(
        self,
        variant,
        seat=0,
        opponent="medium",
        opponent_options=None,
        obs_type="flat",
        reward_shaping=0.0,
        illegal_action="lose",
        extra_options=None,
        max_steps=None,
        render_mode=None,
    ):
        if illegal_action not in ("lose", "raise"):
            raise ValueError("illegal_action is 'lose' or 'raise'")
        self.match = Match(variant, extra_options)
        if not 0 <= seat < self.match.num_players:
            raise ValueError(f"seat must be 0..{self.match.num_players - 1}")
        self.seat = seat
        self.opponent = engine.ai.get_player(opponent, **(opponent_options or {}))
        self.flat = obs_type == "flat"
        self.reward_shaping = float(reward_shaping)
        self.illegal_action = illegal_action
        self.max_steps = max_steps
        self.render_mode = render_mode
        self.codec = self.match.codec
        inner = self.match.encoder.flat_space if self.flat else self.match.encoder.dict_space
        self.observation_space = spaces.Dict(
            {
                "observation": inner,
                "action_mask": spaces.Box(0, 1, shape=(self.codec.size,), dtype=np.int8),
            }
        )
        self.action_space = spaces.Discrete(self.codec.size)

    def action_mask(self):
        """The learner's action mask (read-only, shared until the next action)."""
        return self.match.mask(self.seat)

    def _obs(self):
        # A copy: the caller keeps it, the match's mask is shared until the next action.
        return {
            "observation": self.match.observation(self.seat, self.flat),
            "action_mask": self.match.mask(self.seat).copy(),
        }

    def _info(self):
        return {
            "legal_actions": list(self.match.legal_actions()) if self.match.seat_to_act == self.seat else [],
            "match_seed": self.match.seed,
        }

    def _play_opponents(self) -> None:
        """AI moves until the learner is to act or the match is over."""
        match = self.match
        while (seat := match.seat_to_act) is not None and seat != self.seat:
            actions = match.legal_actions()
            # The runner's seeding (engine.runner.play_match): the same match, the same choices.
            choice = self.opponent.choose(
                match.game, seat, match.view(seat), actions, seed=mix_seed(match.seed, match.num_actions)
            )
            match.apply(choice)

    def reset(self, seed=None, options=None):
        """A new match; its engine seed is drawn from ``np_random`` (seeded by ``seed``)."""
        super().reset(seed=seed)
        self.match.start(int(self.np_random.integers(2**62)))
        self.num_steps = 0
        self._play_opponents()
        return self._obs(), self._info()

    def step(self, action: Action):
        match = self.match
        if match.seat_to_act != self.seat:
            raise RuntimeError("the match is over: call reset()")
        try:
            action = match.checked_index(action)
        except ValueError:
            if self.illegal_action == "raise":
                raise
            return self._obs(), ILLEGAL_REWARD, True, False, {**self._info(), "illegal_action": True}
        lead = match.score_lead(self.seat) if self.reward_shaping else 0.0
        match.apply_index(action)
        self._play_opponents()
        self.num_steps += 1
        reward = self.reward_shaping * (match.score_lead(self.seat) - lead) if self.reward_shaping else 0.0
        outcome = match.outcome
        terminated = outcome is not None
        if terminated:
            reward += outcome_rewards(outcome, match.num_players)[self.seat]
        truncated = not terminated and self.max_steps is not None and self.num_steps >= self.max_steps
        return self._obs(), float(reward), terminated, truncated, self._info()

    def render(self):
        """``svg``: the learner's board.svg; ``rgb_array``: it rasterized."""
        if self.render_mode is None:
            return None
        svg = self.match.svg(self.seat)
        return svg if self.render_mode == "svg" else rasterize(svg)
