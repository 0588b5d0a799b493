"""Setup changes of the Pirates & Aristocrats expansion (game-content §2.2).

Runs after the base layout and before the start rolls, so the base game's
draws from the generator are untouched when the option is off.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..data import MAX_SHIPS
from ..state import Player
from .data import (
    ARISTO_BUILDINGS,
    ARISTO_BY_BACK,
    CARD_DECK,
    CONTENT,
    EXPANSION_TILES,
    GEOMETRY,
    HAND_KEYS,
    LUXURIES,
    PIRATE_CARDS,
    PIRATE_SPACE_INDICES,
    PORT_INDEX,
    TILE_BACKS,
)
from .state import AristocratIsland, ExpansionPiles

if TYPE_CHECKING:
    from ..state import Player, State


def set_up_expansion(s: State, backs) -> None:
    _settler_and_citizen(s)
    s.stacks.update(dict.fromkeys(LUXURIES, CONTENT["luxury_stack_size"]))
    piles = ExpansionPiles.__new__(ExpansionPiles)
    # the draws from the generator in this order (a replay depends on it)
    piles.aristocrat_buildings = _aristocrat_supply(backs)
    piles.expansion_reserve = _lay_out_pirate_sea(s, backs)
    piles.pirate_deck = _shuffled(s, [c["id"] for c in PIRATE_CARDS])
    piles.pirate_discard = []
    piles.aristocrat_deck = _shuffled(s, list(CARD_DECK))
    piles.aristocrat_discard = []
    piles.combat = None
    s.part = piles


def _settler_and_citizen(s: State) -> None:
    for i, old in enumerate(s.players):
        hand = {c: n for c, n in old.hand.items() if n}
        p = Player.new(old.gold, hand, CONTENT["start_slots"], HAND_KEYS, AristocratIsland.new(MAX_SHIPS))
        p.ship_at, p.ship_ap = old.ship_at, old.ship_ap
        s.players[i] = p


def _aristocrat_supply(backs):
    supply = dict.fromkeys(ARISTO_BUILDINGS, 0)
    for back in backs:
        for name in ARISTO_BY_BACK[back]:
            supply[name] += 1
    return supply


def _shuffled(s: State, items):
    s.rng.shuffle(items)
    return items


def _lay_out_pirate_sea(s: State, backs):
    """Expansion tiles by back on the pirate board only; the port replaces
    its island space (it never holds a tile). Returns the expansion reserve;
    stacks of unused backs are not used at all (like the base box)."""
    s.spaces.extend([None] * len(PIRATE_SPACE_INDICES))
    s.seen.extend([()] * len(PIRATE_SPACE_INDICES))
    port_tile = s.spaces[PORT_INDEX]
    if port_tile is not None:
        # the port covers that space: its tile joins the base reserve
        s.spaces[PORT_INDEX] = None
        s.reserve = s.reserve + [port_tile]
        s.rng.shuffle(s.reserve)
    reserve = []
    for back in backs:
        stack = [t for t in EXPANSION_TILES if TILE_BACKS[t] == back]
        s.rng.shuffle(stack)
        for i in PIRATE_SPACE_INDICES:
            if GEOMETRY.marks[i] == back and stack:
                s.spaces[i] = stack.pop()
        reserve.extend(stack)
    s.rng.shuffle(reserve)
    s.box = s.box + tuple(t for t in EXPANSION_TILES if TILE_BACKS[t] not in backs)
    return reserve
