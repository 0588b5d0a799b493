"""One match behind both environments: the engine state, the acting seat,
its legal actions as indices, observations, rewards and the board picture.

A match is its variant, options, seed and action list, exactly as for
``engine.runner``: ``history`` is ``[(seat, action)]`` and
``engine.runner.replay(game, num_players, options, seed, history)`` re-runs it.
An action given as an index is kept as that int and decoded when ``history``
is read: a dict kept per step would make the garbage collector run every few
hundred steps (with the bare engine it never runs), a few % of a step.
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any

import numpy as np
import resvg_py
from PIL import Image

import engine
from engine.action_index import ActionIndex
from engine.render import board_svg

from .codec import codec_for
from .masks import MaskBuffers
from .observations import encoder_for
from .variants import get_variant

if TYPE_CHECKING:
    from engine.core import Action
    from tabula_env.variants import Variant


def rasterize(svg):
    """An SVG document as an RGB ``uint8`` array (height, width, 3)."""
    png = bytes(resvg_py.svg_to_bytes(svg_string=svg, background="white"))
    with Image.open(io.BytesIO(png)) as image:
        return np.asarray(image.convert("RGB"))


def outcome_rewards(outcome, num_players: int):
    """+1 for each winner, -1 for the others; 0 for everyone when no one wins."""
    winners = set(outcome.get("winners") or ())
    if not winners:
        return [0.0] * num_players
    return [1.0 if seat in winners else -1.0 for seat in range(num_players)]


class Match:
    """The engine side of an environment (no PettingZoo / Gymnasium here)."""

    def __init__(self, variant: Variant | str, extra_options: Any = None) -> None:
        self.variant = get_variant(variant)
        self.game: Any = engine.get_game(self.variant.game)
        self.codec: Any = codec_for(self.variant)
        self.encoder: Any = encoder_for(self.variant)
        # The masks: shared by all matches in a small space, this match's own in a
        # large one (typed: compiled, the call is a direct one, as for the lookup).
        masks = self.codec.masks
        self._buffers: MaskBuffers | None = None if masks.cached else MaskBuffers(self.codec.size)
        self._masks: Any = masks if self._buffers is None else self._buffers
        self.options = {**self.variant.options, **(extra_options or {})}
        self.num_players: int = self.variant.num_players
        self.state: Any = None
        self.seed: Any = None  # an int once reset
        self._seats: list[Any] = []  # who took each action so far
        self._moves: list[Any] = []  # each action: its JSON, or its index when it was given as one
        self.outcome: Any = None
        self.seat_to_act: Any = None  # an int while the match runs
        self._legal: list[Any] = []
        self._indices: list[Any] = []
        self._flags: Any = b""
        self._mask: Any = None
        self._size: int = self.codec.size
        # legal actions -> their indices (``indices``: ``ValueError`` outside the space).
        self._lookup: ActionIndex = self.codec._lookup

    def start(self, seed) -> None:
        """A new match with this engine seed (the same seed, the same match)."""
        self.seed = int(seed)
        self.load(self.game.setup(self.num_players, self.options, self.seed), [])

    def load(self, state, history) -> None:
        """Continue from ``state`` (e.g. for analysis); ``history`` led to it."""
        self.state = state
        self._seats = [seat for seat, _ in history]
        self._moves = [action for _, action in history]
        self._changed()

    @property
    def history(self) -> list[tuple[int, Any]]:
        """``[(seat, action JSON)]`` so far, a new list (``engine.runner.replay`` input)."""
        decode = self.codec.decode
        return [
            (seat, decode(move) if type(move) is int else move)
            for seat, move in zip(self._seats, self._moves)
        ]

    @property
    def num_actions(self) -> int:
        """``len(history)``, without building it."""
        return len(self._seats)

    def _changed(self) -> None:
        """A new state: everything a step reads about it, computed once here as
        plain attributes (a learner asks for all of it on every step; lazy
        getters cost more in calls than they would ever save)."""
        state, game = self.state, self.game
        #: ``game.outcome`` of the current state (None while it goes on).
        self.outcome = outcome = game.outcome(state)
        #: The seat whose decision is next (the runner's order), None when over.
        seat: Any = None if outcome is not None else game.to_act(state)[0]
        self.seat_to_act = seat
        legal: Any = [] if seat is None else game.legal_actions(state, seat)
        self._legal = legal
        self._indices = indices = self._lookup.indices(legal)
        buffers = self._buffers
        if buffers is None:
            self._flags, self._mask = self._masks.legal(indices)
            return
        # Let go of the last mask first: unless a learner holds it, its buffer
        # is this step's, still in the CPU's cache.
        self._flags = self._mask = None
        self._flags, self._mask = buffers.legal(indices)

    def legal_actions(self):
        """The acting seat's legal actions (shared until the next action: do not change it)."""
        return self._legal

    def legal_indices(self):
        """The acting seat's legal actions as indices, in ``legal_actions`` order."""
        return self._indices

    def mask(self, seat: int):
        """The acting seat's action mask; all zeros for any other seat.
        Read-only (in a small space shared with every state of the same legal set): copy it to change it."""
        return self._mask if seat == self.seat_to_act else self.codec.no_actions

    def apply(self, action: Action) -> Any:
        """Apply an action JSON for the acting seat; returns the events."""
        seat = self.seat_to_act
        self.state, events = self.game.apply(self.state, seat, action)
        self._applied(seat, action)
        return events

    def _applied(self, seat: Any, move: Any) -> None:
        """Record an applied action (its JSON, or its index), then the new state."""
        self._seats.append(seat)
        self._moves.append(move)
        self._changed()

    def checked_index(self, index: Any) -> Any:
        """``index`` as an int; ``ValueError`` unless it is a legal action of the acting seat now."""
        if type(index) is not int:
            index = int(index)
        at: int = index  # compared unboxed when compiled
        if not (0 <= at < self._size and self._flags[index] == 1):
            raise ValueError(f"action index {index} is not legal now (see the action mask)")
        return index

    def apply_index(self, index: Any) -> Any:
        """Apply the action at ``index`` of the space; ``ValueError`` when masked out
        (nothing changed then). Returns the events."""
        index = self.checked_index(index)
        # One of the legal actions: the engine need not check it again, and it gets
        # its own object for it, as from a runner (the codec's copy is cold in the
        # CPU cache: 1-2 µs a step in Anno 1452). The engine takes a null optional
        # parameter as left out; the history keeps the index.
        action = self._legal[self._indices.index(index)]  # where in legal_actions
        seat = self.seat_to_act
        self.state, events = self.game.apply_legal(self.state, seat, action)
        self._applied(seat, index)
        return events

    def view(self, seat: int | None):
        return self.game.view(self.state, seat)

    def observation(self, seat: int, flat=True):
        """The seat's observation groups (or their flat vector)."""
        groups = self.encoder.encode_view(self.view(seat), seat)
        return self.encoder.flatten(groups) if flat else groups

    def score_lead(self, seat: int):
        """Public victory points of ``seat`` minus the best other seat's."""
        points = [p["victory_points"] for p in self.view(None)["players"]]
        return float(points[seat] - max(p for s, p in enumerate(points) if s != seat))

    def svg(self, viewer=None):
        """The board as ``viewer`` sees it: the same document as ``board.svg``."""
        return board_svg(self.view(viewer), viewer)
