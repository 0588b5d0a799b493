"""``Expansion``: the Pirates & Aristocrats answers at the base rules' hook
points (``variant.BaseGame`` lists them; DESIGN.md "Expansion")."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ....kit import event
from ..data import BRIDGES
from ..rules import buy_price
from ..variant import BaseGame, decision_order
from . import actions, actions_cards
from .combat import enter_pirate_square
from .data import (
    CARD_HAND_LIMIT,
    EXPANSION,
    GEOMETRY,
    HAND_KEYS,
    LUXURIES,
    PIRATE_SQUARES,
    PORT_INDEX,
    PORT_SEA,
    TILE_CROWN,
    TILE_SET,
)
from .rules import goals, has_won, lose_luxury_office, luxury_price, points, put_expansion_tile
from .setup import set_up_expansion
from .state import AristocratIsland, ExpansionPiles
from .view import aristocrat_view, expansion_view
from .vocabulary import widen

if TYPE_CHECKING:
    from ....core import Event
    from ..state import Player, State


# DESIGN.md "Expansion" order: after the base types.
OWN_TYPES = (
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
DECISION_MEMBERS = {
    **BaseGame.decision_members,
    "main": BaseGame.decision_members["main"] | frozenset(OWN_TYPES[:7]),
    "tile_decision": BaseGame.decision_members["tile_decision"] | {"attack_lair"},  # S3 §6.3
    "sea_battle": frozenset(("respond",)),
    "card_discard": frozenset(("discard_card",)),
}


class Expansion(BaseGame):
    """Aristokraten und Piraten: pirate sea, aristocrat island, luxuries."""

    name = EXPANSION
    option_text = "'pirates_aristocrats' adds Aristokraten und Piraten (pirate sea, aristocrat island, luxury goods; see DESIGN.md)"
    action_types = BaseGame.action_types + OWN_TYPES
    specs = actions.SPECS + actions_cards.SPECS
    tiles = TILE_SET
    geometry = GEOMETRY
    hand_keys = HAND_KEYS
    space_choices = BaseGame.space_choices + ("pirate_sea_placement",)
    closed_spaces = frozenset((PORT_INDEX,))  # the port covers its island space
    ship_starts = PORT_SEA  # new ships may start beside the port (§2.2)
    office_kinds = BaseGame.office_kinds + ("luxury_office",)
    decision_members = DECISION_MEMBERS
    decision_types = decision_order(action_types, DECISION_MEMBERS)
    active_phases = BaseGame.active_phases | {"card_discard"}
    win_reason = "expansion_goals"

    def widen(self, spec):
        return widen(spec)

    # --- state part ---------------------------------------------------------

    def set_up(self, state: State, backs) -> None:
        set_up_expansion(state, backs)

    def load_match_part(self, data):
        return ExpansionPiles.load(data)

    def load_player_part(self, player_data):
        return AristocratIsland.load(player_data)

    # --- turn -----------------------------------------------------------------

    def on_turn_started(self, state: State, player: Player) -> None:
        x = player.part
        x.reset_turn()
        # a damaged ship lies until repaired
        player.ship_ap = [0 if hurt else ap for hurt, ap in zip(x.damaged, player.ship_ap)]

    def on_end_turn(self, state: State, seat: int, events: list[Event]):
        cards = state.players[seat].part.cards
        if len(cards) <= CARD_HAND_LIMIT:
            return False
        state.phase = "card_discard"  # §2.10: 4 aristocrat cards at most
        event(events, "discard_required", seat, count=len(cards) - CARD_HAND_LIMIT, cards="aristocrat")
        return True

    def branch_counts_twice(self, tile):
        return TILE_CROWN[tile]  # a crowned branch office yields twice

    def owns_tile(self, tile):
        return TILE_CROWN[tile]

    def lose_own_tile(self, state: State, seat: int, tile, events: list[Event]):
        return lose_luxury_office(state, seat, tile, events)

    def place_own_tile(self, state: State, seat: int, space, events: list[Event]) -> None:
        put_expansion_tile(state, space, events, seat)

    def price_of(self, player: Player, commodity):
        """Luxury: 10 less lair/Theatre discounts; trade agreements count only
        for the six commodities (§2.12)."""
        return luxury_price(player) if commodity in LUXURIES else buy_price(player)

    # --- sea ----------------------------------------------------------------

    def ship_problem(self, player: Player, ship):
        return "ship_damaged" if player.part.damaged[ship] else None

    def on_ship_moved(self, state: State, seat: int, ship, events: list[Event]) -> None:
        state.players[seat].part.sailed = True
        # ruling §2.14 #3: only entering a pirate square triggers it
        if state.players[seat].ship_at[ship] in PIRATE_SQUARES:
            enter_pirate_square(state, seat, ship, events)

    def on_discover(self, player: Player):
        x = player.part
        x.sailed = True
        if x.free_discovery:
            x.free_discovery = False  # the Explorer's first discovery is free
            return True
        return False

    def bridges_for(self, island, kind):
        """A luxury office may also use the ``?`` number's bridge (§2.12: up to five offices)."""
        if kind != "luxury_office":
            return island["gray_bridges"]
        bridges = island["gray_bridges"]
        return tuple(n for n in range(1, BRIDGES + 1) if n in bridges or island["production"][n] == "?")

    def take_problem(self, kind):
        return "lair_is_fought_not_taken" if kind == "lair" else None  # S3 §6.3

    # --- scoring and views ------------------------------------------------------

    def has_won(self, player: Player) -> bool:
        return has_won(player)

    def goals(self, player: Player):
        return goals(player)

    def scores(self, state: State):
        return {str(i): points(p) for i, p in enumerate(state.players)}

    def view_player(self, player: Player, own, out) -> None:
        out["aristocrat"] = aristocrat_view(player, own)

    def view_match(self, state: State, out) -> None:
        out["expansion"] = expansion_view(state)


EXPANSION_RULES = Expansion()
