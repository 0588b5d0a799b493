"""What a seat sees of the expansion: the aristocrat islands (the card hand
only for its owner, others a count) and the public expansion piles (sizes of
hidden decks, the open pirate discards, the battle in progress)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .data import GEOMETRY, PIRATE_CARDS, tile_public
from .rules import cannons

if TYPE_CHECKING:
    from ..state import Player, State


def aristocrat_view(player: Player, own):
    x = player.part
    out = {
        "manor": x.manor,
        "cannons": x.cannons,
        "cannon_strength": cannons(player),
        "lairs": [tile_public(t) for t in x.lairs],
        "buildings": list(x.buildings),
        "damaged": list(x.damaged),
        "turn": x.turn_dump(),
    }
    if own:
        out["cards"] = list(x.cards)
    else:
        out["cards_count"] = len(x.cards)
    return out


def expansion_view(state: State):
    piles = state.part
    combat = piles.combat
    if combat is not None:
        combat = dict(combat)
        if "space" in combat:
            combat["space"] = list(GEOMETRY.spaces[combat["space"]])
        if "tile" in combat:
            combat["tile"] = tile_public(combat["tile"])
        if "card" in combat:
            combat["card"] = dict(PIRATE_CARDS[combat["card"]])
    return {
        "aristocrat_buildings": dict(piles.aristocrat_buildings),
        "expansion_reserve_size": len(piles.expansion_reserve),
        "pirate_deck_size": len(piles.pirate_deck),
        "pirate_discard": [dict(PIRATE_CARDS[c]) for c in piles.pirate_discard],
        "aristocrat_deck_size": len(piles.aristocrat_deck),
        "aristocrat_discard_size": len(piles.aristocrat_discard),
        "combat": combat,
    }
