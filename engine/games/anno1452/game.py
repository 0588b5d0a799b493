"""``Anno1452``: the Game definition wiring data, flow and actions together.

>>> from engine.games.anno1452 import Anno1452
>>> game = Anno1452()
>>> state = game.setup(3, {}, seed=1)
>>> game.view(state, game.to_act(state)[0])["decision"]["kind"]
'place_initial'
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core import Game
from ...errors import InvalidOptionsError
from ...kit import specs_by_name
from . import actions_battle, actions_cards, actions_er, actions_round, actions_special, trade
from .data import PLAYERS
from .flow import DECISION_TYPES, advance
from .setup import OPTIONS, check_options, new_state
from .state import State, copy_data
from .view import build_view

if TYPE_CHECKING:
    from ...core import Event


class Anno1452(Game):
    """Anno 1452 (Piatnik 1999); rules in DESIGN.md beside this file."""

    id = "anno1452"
    title = "Anno 1452"
    min_players = PLAYERS[0]  # two lines: mypyc compiles no tuple assignment in a class body
    max_players = PLAYERS[1]
    version = 1
    options = OPTIONS
    action_specs = specs_by_name(
        actions_round.SPECS,
        actions_battle.SPECS,
        actions_cards.SPECS,
        actions_special.SPECS,
        actions_er.SPECS,
        trade.SPECS,
    )

    def setup_with_events(self, num_players, options=None, seed=0):
        """A new match and its set-up events: the turn order drawn, Ottokar's
        pieces, each seat's five cards (private to it) and the first
        decision. Raises ``InvalidOptionsError``."""
        if type(seed) is not int:
            raise InvalidOptionsError("seed must be an integer", field="seed")
        return new_state(num_players, options, seed)

    def resolve_options(self, num_players, options=None):
        """The options with their defaults (``setup.check_options``)."""
        return check_options(num_players, options)

    def to_act(self, state):
        d = state.data
        if d["result"] is not None or d["decision"] is None:
            return []
        return list(d["decision"]["seats"])

    def outcome(self, state):
        return state.data["result"]

    def view(self, state, viewer):
        return build_view(state.data, viewer)

    def dump(self, state):
        return copy_data(state.data)

    def load(self, data):
        return State(copy_data(data))

    def _available_types(self, state, seat):
        decision = state.data["decision"]
        return DECISION_TYPES[decision["kind"]] if decision else ()

    def _after_apply(self, state, events: list[Event]) -> None:
        advance(state.data, events)


__all__ = ["Anno1452"]
