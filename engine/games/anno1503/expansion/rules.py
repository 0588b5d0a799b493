"""Derived quantities and shared steps of the Pirates & Aristocrats expansion.

Prices, goals and the combat die roll live here so the action modules stay
small. Victory in the expansion (game-content §2.12): six goals, three on
the home island and three on the aristocrat island; the active player wins
with at least one of each group's required counts (1 home + 2 aristocrat).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ....kit import event
from ..turn import ask
from .data import (
    CANNON_PRICES,
    COMBAT_DIE,
    CONTENT,
    GEOMETRY,
    LUXURIES,
    MAX_LAIRS,
    PIRATE_SPACE_INDICES,
    TILE_DISCOUNT,
    UNIVERSITY_CANNONS,
    VICTORY,
)

if TYPE_CHECKING:
    from ....core import Event
    from ..state import Player, State


_HOME = VICTORY["home_goals"]
_ARISTO = VICTORY["aristocrat_goals"]
_SALE = CONTENT["aristocrat_sale"]


def owns_aristo(player: Player, building):
    return building in player.part.buildings


def luxury_price(player: Player):
    """10 gold less each defeated lair's discount and the Theatre's 2 (trade
    agreements do not count); never below the floor (ruling §2.14 #9)."""
    price = CONTENT["luxury_price"] - sum(TILE_DISCOUNT[t] for t in player.part.lairs)
    if owns_aristo(player, "theatre"):
        price -= CONTENT["theatre_discount"]
    return max(CONTENT["luxury_price_floor"], price)


def aristocrat_pays(player: Player):
    return _SALE["richest_price"] if owns_aristo(player, "richest_aristocrat") else _SALE["price"]


def cannons(player: Player):
    """Cannons of all the player's ships: the track plus the University's one."""
    return player.part.cannons + (UNIVERSITY_CANNONS if owns_aristo(player, "university") else 0)


def next_cannon_price(player: Player):
    n = player.part.cannons
    return CANNON_PRICES[n] if n < len(CANNON_PRICES) else None


def may_attack_lairs(player: Player) -> bool:
    return len(player.part.lairs) < MAX_LAIRS


def goals(player: Player):
    """``{goal: bool}`` of the six expansion goals."""
    x = player.part
    buildings = player.buildings
    return {
        "merchants": player.slots.count("merchant") >= _HOME["merchants"],
        "public_buildings": len(buildings) - buildings.count(None) >= _HOME["public_buildings"],
        "trade_agreements": len(player.trade_agreements) >= _HOME["trade_agreements"],
        "aristocrat_buildings": len(x.buildings) >= _ARISTO["aristocrat_buildings"],
        "lairs": len(x.lairs) >= _ARISTO["lairs"],
        "manor": x.manor >= _ARISTO["manor"],
    }


def points(player: Player):
    return sum(goals(player).values())


def has_won(player: Player) -> bool:
    held = goals(player)
    home = sum(held[g] for g in _HOME)
    aristo = sum(held[g] for g in _ARISTO)
    return home >= VICTORY["home_needed"] and aristo >= VICTORY["aristocrat_needed"]


def combat_roll(state: State):
    return COMBAT_DIE[state.rng.below(len(COMBAT_DIE))]


def left_of(state: State, seat: int, k=1):
    return (seat + k) % state.num_players


def draw_aristocrat_cards(state: State, seat: int, count, events: list[Event]) -> None:
    """Draw ``count`` cards, reshuffling the discards when the deck runs out
    (§2.10). The card names go to the drawer only."""
    piles = state.part
    drawn = []
    for _ in range(count):
        if not piles.aristocrat_deck:
            if not piles.aristocrat_discard:
                break
            piles.aristocrat_deck, piles.aristocrat_discard = piles.aristocrat_discard, []
            state.rng.shuffle(piles.aristocrat_deck)
            event(events, "aristocrat_deck_reshuffled", None, size=len(piles.aristocrat_deck))
        drawn.append(piles.aristocrat_deck.pop())
    state.players[seat].part.cards.extend(drawn)
    event(events, "aristocrat_cards_drawn", seat, count=len(drawn), private={seat: {"cards": drawn}})


def is_luxury(commodity) -> bool:
    return commodity in LUXURIES


# --- the expansion reserve ----------------------------------------------------------


def lose_luxury_office(state: State, seat: int, tile, events: list[Event]):
    """§2.12: a lost luxury office goes under the expansion reserve; its top
    tile goes on a free pirate-sea space the loser chooses (ruling #8).
    True when that choice waits for the loser."""
    state.part.expansion_reserve.append(tile)
    free = [i for i in PIRATE_SPACE_INDICES if state.spaces[i] is None]
    if not free:
        return False
    if len(free) >= 2:
        ask(state, seat, "reserve_placement", "pirate_sea_placement", free)
        return True
    put_expansion_tile(state, free[0], events, seat)
    return False


def put_expansion_tile(state: State, space, events: list[Event], seat: int) -> None:
    state.spaces[space] = state.part.expansion_reserve.pop(0)
    state.seen[space] = ()
    r, c = GEOMETRY.spaces[space]
    event(events, "reserve_tile_placed", seat, space=[r, c], reserve="expansion")
