"""The ``Anno1503`` game definition: wires setup, actions, turn flow, view."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core import Game
from ...errors import InvalidOptionsError
from . import actions_decisions, actions_island, actions_market, actions_sea
from .data import PLAYERS
from .setup import new_state
from .state import RULES_VERSION, dump_state, load_state
from .turn import check_win
from .variants import OPTIONS, action_specs, check_options, variant_for
from .view import build_view

if TYPE_CHECKING:
    from ...core import Event
    from .state import State


# One table for every match: the base actions in every variant's vocabulary,
# then the variants' own (variants.action_specs).
ACTION_SPECS = action_specs(
    actions_decisions.SPECS + actions_island.SPECS + actions_market.SPECS + actions_sea.SPECS
)


class Anno1503(Game):
    """Anno 1503 (Kosmos 2003), base game; see the package docstring."""

    id = "anno1503"
    title = "Anno 1503"
    min_players, max_players = PLAYERS
    version = RULES_VERSION
    options = OPTIONS
    action_specs = ACTION_SPECS

    def setup_with_events(self, num_players, options=None, seed=0):
        """A new match and its set-up events (start rolls, the first roll);
        raises ``InvalidOptionsError``. The tile shuffles are face down: only
        what they deal is seen later, through the discoveries' events.

        >>> import engine
        >>> s, events = engine.get_game("anno1503").setup_with_events(2, {}, seed=1)
        >>> s.num_players, events[0]["data"]["purpose"]
        (2, 'start_player')
        """
        if type(seed) is not int:
            raise InvalidOptionsError("seed must be an integer", field="seed")
        return new_state(num_players, options, seed)

    def resolve_options(self, num_players, options=None):
        """The options with their defaults (none depends on the player count)."""
        return check_options(num_players, options)

    def to_act(self, state: State):
        phase = state.phase
        if state.winner is not None:
            return []
        if phase in state.variant.active_phases:
            return [state.active]
        return [state.choice["seat"]]

    def _available_types(self, state: State, seat: int):
        return state.variant.decision_types[state.phase]

    def _after_apply(self, state: State, events: list[Event]) -> None:
        check_win(state, events)

    def outcome(self, state: State):
        if state.winner is None:
            return None
        variant = state.variant
        return {"winners": [state.winner], "reason": variant.win_reason, "scores": variant.scores(state)}

    def view(self, state: State, seat: int | None = None):
        return build_view(state, seat, self.to_act(state))

    def dump(self, state: State):
        return dump_state(state)

    def load(self, data):
        return load_state(data, variant_for(data["options"]))
