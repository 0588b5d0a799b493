"""One match behind both environments: the engine state, the acting seat,
its legal actions as indices, observations, rewards and the board picture.

A match is its variant, options, seed and action list, exactly as for
``engine.runner``: ``history`` is ``[(seat, action)]`` and
``engine.runner.replay(game, num_players, options, seed, history)`` re-runs it.
"""

import io

import numpy as np
import resvg_py
from PIL import Image

import engine
from engine.render import board_svg

from .codec import codec_for
from .observations import encoder_for
from .variants import get_variant


def rasterize(svg):
    """An SVG document as an RGB ``uint8`` array (height, width, 3)."""
    png = bytes(resvg_py.svg_to_bytes(svg_string=svg, background="white"))
    with Image.open(io.BytesIO(png)) as image:
        return np.asarray(image.convert("RGB"))


def outcome_rewards(outcome, num_players):
    """+1 for each winner, -1 for the others; 0 for everyone when no one wins."""
    winners = set(outcome.get("winners") or ())
    if not winners:
        return [0.0] * num_players
    return [1.0 if seat in winners else -1.0 for seat in range(num_players)]


class Match:
    """The engine side of an environment (no PettingZoo / Gymnasium here)."""

    def __init__(self, variant, extra_options=None):
        self.variant = get_variant(variant)
        self.game = engine.get_game(self.variant.game)
        self.codec = codec_for(self.variant)
        self.encoder = encoder_for(self.variant)
        self.options = {**self.variant.options, **(extra_options or {})}
        self.num_players = self.variant.num_players
        self.state = None
        self.seed = None
        self.history = []

    def start(self, seed):
        """A new match with this engine seed (the same seed, the same match)."""
        self.seed = int(seed)
        self.load(self.game.setup(self.num_players, self.options, self.seed), [])

    def load(self, state, history):
        """Continue from ``state`` (e.g. for analysis); ``history`` led to it."""
        self.state = state
        self.history = list(history)
        self._changed()

    def _changed(self):
        self._legal = None
        self._mask = None
        self._indices = None
        self._seat = False  # not computed yet (None is "nobody": the match is over)
        self._outcome = False

    @property
    def outcome(self):
        """``game.outcome`` of the current state (None while it goes on)."""
        if self._outcome is False:
            self._outcome = self.game.outcome(self.state)
        return self._outcome

    @property
    def seat_to_act(self):
        """The seat whose decision is next (the runner's order), None when over."""
        if self._seat is False:
            self._seat = None if self.outcome is not None else self.game.to_act(self.state)[0]
        return self._seat

    def legal_actions(self):
        if self._legal is None:
            seat = self.seat_to_act
            self._legal = [] if seat is None else self.game.legal_actions(self.state, seat)
        return self._legal

    def mask(self, seat):
        """The acting seat's action mask; all zeros for any other seat.
        Read-only (shared until the next action): copy it to change it."""
        if seat != self.seat_to_act:
            return self.codec.no_actions
        if self._mask is None:
            self._mask = np.zeros(self.codec.size, dtype=np.int8)
            self._mask[self.legal_indices()] = 1
            self._mask.flags.writeable = False
        return self._mask

    def legal_indices(self):
        """The acting seat's legal actions as indices, in ``legal_actions`` order."""
        if self._indices is None:
            self._indices = self.codec.indices(self.legal_actions())
        return self._indices

    def is_legal_index(self, index):
        if self._mask is not None:
            return bool(self._mask[index])
        return index in self.legal_indices()

    def apply(self, action):
        """Apply an action JSON for the acting seat; returns the events."""
        seat = self.seat_to_act
        self.state, events = self.game.apply(self.state, seat, action)
        self.history.append((seat, action))
        self._changed()
        return events

    def checked_index(self, index):
        """``index`` as an int; ``ValueError`` unless it is legal now."""
        index = int(index)
        if not 0 <= index < self.codec.size or not self.is_legal_index(index):
            raise ValueError(f"action index {index} is not legal now (see the action mask)")
        return index

    def apply_index(self, index):
        """Apply the action at ``index`` of the space; ``ValueError`` when masked out."""
        return self.apply(self.codec.decode(self.checked_index(index)))

    def view(self, seat):
        return self.game.view(self.state, seat)

    def observation(self, seat, flat=True):
        """The seat's observation groups (or their flat vector)."""
        groups = self.encoder.encode_view(self.view(seat), seat)
        return self.encoder.flatten(groups) if flat else groups

    def score_lead(self, seat):
        """Public victory points of ``seat`` minus the best other seat's."""
        points = [p["victory_points"] for p in self.view(None)["players"]]
        return float(points[seat] - max(p for s, p in enumerate(points) if s != seat))

    def svg(self, viewer=None):
        """The board as ``viewer`` sees it: the same document as ``board.svg``."""
        return board_svg(self.view(viewer), viewer)
