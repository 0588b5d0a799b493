"""The ``Anno1503`` game definition: wires setup, actions, turn flow, view."""

from ...core import Game
from ...errors import InvalidOptionsError
from . import actions_decisions, actions_island, actions_sea, xactions
from .rules import scores
from .setup import check_options, new_state
from .state import RULES_VERSION, dump_state, load_state
from .turn import check_win
from .view import build_view
from .xrules import x_points

_SPECS = actions_decisions.SPECS + actions_island.SPECS + actions_sea.SPECS + xactions.SPECS
# DESIGN.md order: legal actions are listed by type in this order.
_ORDER = (
    "choose_commodity", "lose_tile", "place_reserve_tile", "build_ship", "place_pioneer",
    "develop", "sell", "buy", "move_ship", "discover", "take_tile", "return_tile",
    "big_branch_office", "end_turn", "discard",
    # expansion (pirates_aristocrats) only
    "buy_cannon", "build_manor", "build_aristocrat", "sell_luxury", "repair_ship", "play_card",
    "exchange_card", "respond", "discard_card", "attack_lair",
)
_BY_NAME = {spec.name: spec for spec in _SPECS}

_TYPES_BY_PHASE = {
    "production": ("choose_commodity",),
    "golden_times": ("choose_commodity",),
    "pirates": ("lose_tile",),
    "reserve_placement": ("place_reserve_tile",),
    "main": (
        "build_ship", "place_pioneer", "develop", "sell", "buy", "move_ship", "discover",
        "big_branch_office", "end_turn",
    ),
    "tile_decision": ("take_tile", "return_tile"),
    "discard": ("discard",),
    "over": (),
    "sea_battle": ("respond",),
    "card_discard": ("discard_card",),
}
_X_MAIN = _TYPES_BY_PHASE["main"][:-1] + (
    "buy_cannon", "build_manor", "build_aristocrat", "sell_luxury", "repair_ship", "play_card",
    "exchange_card", "end_turn",
)
# S3 §6.3: a discovered lair may also be revealed and fought.
_X_TILE_DECISION = _TYPES_BY_PHASE["tile_decision"] + ("attack_lair",)
_SEAT_DECIDES = frozenset(("main", "tile_decision", "discard", "card_discard"))


class Anno1503(Game):
    """Anno 1503 (Kosmos 2003), base game; see the package docstring."""

    id = "anno1503"
    title = "Anno 1503"
    min_players = 2
    max_players = 4
    version = RULES_VERSION
    options = {
        "expansion": {
            "type": "enum",
            "default": "none",
            "choices": ["none", "pirates_aristocrats"],
            "description": (
                "Expansion to play with. 'none' is the base game; "
                "'pirates_aristocrats' adds Aristokraten und Piraten (pirate sea, "
                "aristocrat island, luxury goods; see DESIGN.md)."
            ),
        }
    }
    action_specs = {name: _BY_NAME[name] for name in _ORDER}

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
        if phase in _SEAT_DECIDES:
            return [state.active]
        return [state.choice["seat"]]

    def _available_types(self, state, seat):
        if state.x is not None:
            if state.phase == "main":
                return _X_MAIN
            if state.phase == "tile_decision":
                return _X_TILE_DECISION
        return _TYPES_BY_PHASE[state.phase]

    def _after_apply(self, state, events):
        check_win(state, events)

    def outcome(self, state):
        if state.winner is None:
            return None
        if state.x is not None:
            points = {str(i): x_points(p) for i, p in enumerate(state.players)}
            return {"winners": [state.winner], "reason": "expansion_goals", "scores": points}
        return {"winners": [state.winner], "reason": "three_victory_points", "scores": scores(state)}

    def view(self, state, seat=None):
        return build_view(state, seat, self.to_act(state))

    def dump(self, state):
        return dump_state(state)

    def load(self, data):
        return load_state(data)
