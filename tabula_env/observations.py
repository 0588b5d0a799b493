"""Observations: numbers read from one seat's *view* only, never the state.

The encoder of a game (named by its registry entry's ``observation``:
``obs_anno1503``, ``obs_anno1452``) turns
``game.view(state, seat)`` into named groups of float32 arrays, seat-relative
(the observing seat is player 0, the next seat in turn order player 1, ...).
The structured form is a Gymnasium ``Dict`` of ``Box`` spaces, one per
group; the flat form is ``gymnasium.spaces.flatten`` of it (the groups
concatenated in sorted key order). What a view hides (other hands, face-down
tiles, deck orders) cannot reach an observation, because the view is the
encoder's only input.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

import numpy as np
from gymnasium import spaces

import engine
from engine.registry import get_entry, resolve

if TYPE_CHECKING:
    from tabula_env.variants import Variant


if TYPE_CHECKING:
    from engine.core import View


# Counts and scores are raw (not normalized); the bound only keeps float32 exact.
BOUND = float(2**24)


class ObservationEncoder:
    """The Dict and flat observation spaces of a variant, and the encoding."""

    def __init__(self, variant: Variant):
        self.variant = variant
        self.game = engine.get_game(variant.game)
        self._encode = resolve(get_entry(variant.game).observation)
        sample = self.encode_view(
            self.game.view(self.game.setup(variant.num_players, variant.options, 0), 0), 0
        )
        self.dict_space = spaces.Dict(
            {
                name: spaces.Box(-BOUND, BOUND, shape=array.shape, dtype=np.float32)
                for name, array in sample.items()
            }
        )
        self.flat_space = spaces.flatten_space(self.dict_space)

    def encode_view(self, view: View, seat: int):
        """``{group: float32 array}`` from ``view`` as seen by ``seat``."""
        groups = self._encode(view, seat, self.variant.num_players)
        return {name: np.asarray(values, dtype=np.float32) for name, values in sorted(groups.items())}

    def flatten(self, groups):
        return np.concatenate([groups[name].ravel() for name in self.dict_space.spaces])


@functools.cache
def encoder_for(variant: Variant):
    return ObservationEncoder(variant)
