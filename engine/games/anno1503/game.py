"""The ``Anno1503`` game definition: wires setup, actions, turn flow, view."""

from ...core import Game
from ...errors import InvalidOptionsError
from ...kit import specs_by_name
from . import actions_decisions, actions_island, actions_sea
from .data import PLAYERS
from .expansion import actions as expansion_actions
from .setup import check_options, new_state
from .state import RULES_VERSION, dump_state, load_state
from .turn import check_win
from .variants import VARIANTS, variant_for
from .view import build_view

# One table for every match: the base actions in the vocabulary of an
# expansion match (luxuries, the pirate board), then the expansion's own.
_BASE_SPECS = actions_decisions.SPECS + actions_island.SPECS + actions_sea.SPECS
_BY_NAME = specs_by_name([expansion_actions.widen(spec) for spec in _BASE_SPECS], expansion_actions.SPECS)
# DESIGN.md order: legal actions are listed by type in this order.
_ORDER = (
    "choose_commodity",
    "lose_tile",
    "place_reserve_tile",
    "build_ship",
    "place_pioneer",
    "develop",
    "sell",
    "buy",
    "move_ship",
    "discover",
    "take_tile",
    "return_tile",
    "big_branch_office",
    "end_turn",
    "discard",
    # expansion (pirates_aristocrats) only
    "buy_cannon",
    "build_manor",
    "build_aristocrat",
    "sell_luxury",
    "repair_ship",
    "play_card",
    "exchange_card",
    "respond",
    "discard_card",
    "attack_lair",
)

ACTION_SPECS = {name: _BY_NAME[name] for name in _ORDER}
OPTIONS = {
    "expansion": {
        "type": "enum",
        "default": "none",
        "choices": list(VARIANTS),
        "description": (
            "Expansion to play with. 'none' is the base game; "
            "'pirates_aristocrats' adds Aristokraten und Piraten (pirate sea, "
            "aristocrat island, luxury goods; see DESIGN.md)."
        ),
    }
}


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

    def to_act(self, state):
        phase = state.phase
        if state.winner is not None:
            return []
        if phase in state.variant.active_phases:
            return [state.active]
        return [state.choice["seat"]]

    def _available_types(self, state, seat):
        return state.variant.phase_types[state.phase]

    def _after_apply(self, state, events):
        check_win(state, events)

    def outcome(self, state):
        if state.winner is None:
            return None
        variant = state.variant
        return {"winners": [state.winner], "reason": variant.win_reason, "scores": variant.scores(state)}

    def view(self, state, seat=None):
        return build_view(state, seat, self.to_act(state))

    def dump(self, state):
        return dump_state(state)

    def load(self, data):
        return load_state(data, variant_for(data["options"]))
