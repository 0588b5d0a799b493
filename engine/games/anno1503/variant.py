"""The base game as a variant: the hook points the base rules call.

The base rules reach the match's variant as ``state.variant`` (chosen from
the options at setup and load, see ``variants``) and call it at a few named
points; ``BaseGame``'s hooks do nothing or give the base game's answer, and
a variant (``expansion.hooks.Expansion``) overrides them. The points, by
where the base rules call them (DESIGN.md "Expansion"):

Board and cards (attributes)
    ``geometry`` (the board set), ``hand_keys`` (the card kinds of a hand
    and the stacks), ``space_choices`` (choice kinds whose options are
    island spaces), ``closed_spaces`` (never take a reserve tile),
    ``ship_starts`` (squares a new ship may start on besides the start
    square), ``office_kinds`` (tile kinds that go on a gray bridge).
Vocabulary (game, variants)
    ``action_types`` (every type of a match, in DESIGN.md order: the one
    place the order is written), ``specs`` (the variant's own action specs),
    ``widen(spec)`` (a base action in the variant's vocabulary),
    ``option_text`` (the variant in the ``expansion`` option's description),
    ``tiles`` (the ``data.TileSet`` of the match).
Decisions (game): the phase is the decision point, as the decision kind is in anno1452
    ``decision_members`` (phase -> the action types offered), from which
    ``decision_types`` (phase -> those types in ``action_types`` order, a turn's
    end last) is derived; ``active_phases`` (the phases where the active seat
    acts, not a choice's seat).
State part (setup, state)
    ``set_up(state, backs)``, ``load_match_part(data)``, ``load_player_part(data)``.
Turn (turn, actions_market)
    ``on_turn_started(state, player)``, ``on_end_turn(state, seat, events)``,
    ``branch_counts_twice(tile)``, ``owns_tile(tile)``,
    ``lose_own_tile(state, seat, tile, events)``,
    ``place_own_tile(state, seat, space, events)``, ``price_of(player, commodity)``.
Sea (actions_sea)
    ``ship_problem(player, ship)``, ``on_ship_moved(state, seat, ship, events)``,
    ``on_discover(player)``, ``bridges_for(island, kind)``, ``take_problem(kind)``.
Scoring and views (turn, game, view)
    ``has_won(player)``, ``goals(player)``, ``scores(state)``, ``win_reason``,
    ``view_player(player, own, out)``,
    ``view_match(state, out)``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ...core import ActionSpec
from .data import BASE_GEO, BASE_TILE_SET, COMMODITIES
from .rules import buy_price, goals, has_won, scores

if TYPE_CHECKING:
    from ...core import Event
    from .state import Player, State


# DESIGN.md "Actions" order: legal actions are listed by type in this order.
ACTION_TYPES = (
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
)
_MAIN = frozenset(ACTION_TYPES[3:10] + ("big_branch_office", "end_turn"))
# phase -> the action types offered (their order comes from ACTION_TYPES)
DECISION_MEMBERS = {
    "production": frozenset(("choose_commodity",)),
    "golden_times": frozenset(("choose_commodity",)),
    "pirates": frozenset(("lose_tile",)),
    "reserve_placement": frozenset(("place_reserve_tile",)),
    "main": _MAIN,
    "tile_decision": frozenset(("take_tile", "return_tile")),
    "discard": frozenset(("discard",)),
    "over": frozenset(),
}
# The types that close a phase: listed after every other type offered with them.
_LAST = ("end_turn",)


def decision_order(action_types, decision_members):
    """``{phase: types}``: each phase's members in ``action_types`` order, ``end_turn`` last."""
    return {
        phase: tuple(t for t in action_types if t in members and t not in _LAST)
        + tuple(t for t in _LAST if t in members)
        for phase, members in decision_members.items()
    }


class BaseGame:
    """Anno 1503 as printed: every hook is a no-op or the base answer."""

    name = "none"
    option_text = "'none' is the base game"
    action_types: tuple[str, ...] = ACTION_TYPES
    specs: Sequence[ActionSpec[Any]] = ()
    tiles = BASE_TILE_SET
    geometry = BASE_GEO
    hand_keys = COMMODITIES
    space_choices: tuple[str, ...] = ("reserve_placement",)
    closed_spaces: frozenset[int] = frozenset()
    ship_starts: tuple[tuple[int, int], ...] = ()
    office_kinds: tuple[str, ...] = ("branch_office",)
    decision_members = DECISION_MEMBERS
    decision_types = decision_order(ACTION_TYPES, DECISION_MEMBERS)
    active_phases = frozenset(("main", "tile_decision", "discard"))
    win_reason = "three_victory_points"

    def widen(self, spec):
        """``spec`` (a base action) as a match of this variant takes it."""
        return spec

    # --- state part ---------------------------------------------------------

    def set_up(self, state: State, backs) -> None:
        """After the base layout, before the start rolls: add the variant's part."""
        state.part = None

    def load_match_part(self, data):
        return None

    def load_player_part(self, player_data):
        return None

    # --- turn -----------------------------------------------------------------

    def on_turn_started(self, state: State, player: Player):
        """The active player's ships have their full AP again."""

    def on_end_turn(self, state: State, seat: int, events: list[Event]):
        """True when the seat must do something before the turn may end."""
        return False

    def branch_counts_twice(self, tile):
        return False

    def owns_tile(self, tile):
        """Whether a lost ``tile`` goes back to the variant, not the base reserve."""
        return False

    def lose_own_tile(self, state: State, seat: int, tile, events: list[Event]):
        raise AssertionError("the base game owns every tile")

    def place_own_tile(self, state: State, seat: int, space, events: list[Event]):
        raise AssertionError("the base game asks only for reserve placements")

    def price_of(self, player: Player, commodity):
        """What buying one ``commodity`` card costs."""
        return buy_price(player)

    # --- sea ----------------------------------------------------------------

    def ship_problem(self, player: Player, ship):
        """Why a ship on the board may not move or discover (None: it may)."""
        return None

    def on_ship_moved(self, state: State, seat: int, ship, events: list[Event]):
        """After a ship moved one square (its event is out)."""

    def on_discover(self, player: Player):
        """A ship discovers; True when the discovery costs no AP."""
        return False

    def bridges_for(self, island, kind):
        """The bridges a tile of an office ``kind`` may go on."""
        return island["gray_bridges"]

    def take_problem(self, kind):
        """Why a discovered tile of ``kind`` may not be taken (None: it may)."""
        return None

    # --- scoring and views ------------------------------------------------------

    def has_won(self, player: Player) -> bool:
        return has_won(player)

    def goals(self, player: Player):
        return goals(player)

    def scores(self, state: State):
        return scores(state)

    def view_player(self, player: Player, own, out):
        """Add the variant's part of ``player`` to his view entry ``out``."""

    def view_match(self, state: State, out):
        """Add the variant's public match state to the view ``out``."""


BASE_GAME = BaseGame()
