"""Determinization of the Pirates & Aristocrats expansion (see ``sample``).

What a seat's view hides, and how it is filled in:

- aristocrat cards: the 20 cards minus the seat's own hand are shuffled and
  dealt to the other seats (by their public counts), then to the discard
  (its size is public), the rest forming the deck;
- pirate cards: the discard and the card in combat are public, so the deck
  holds the others, in a random order;
- expansion tiles of the used backs that the seat has not located are dealt
  to the unseen pirate-board spaces by back; the rest form the expansion
  reserve (shuffled; the view gives only its size).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ....games.anno1503.expansion.data import (
    CARD_DECK,
    CONTENT,
    EXPANSION_TILES,
    GEOMETRY,
    LUXURIES,
    PIRATE_CARDS,
    TILE_BACKS,
)

if TYPE_CHECKING:
    from ....core import View
    from ....rng import Rng


# The luxury stacks (the commodity stacks are the base game's).
STACK_SIZES = dict.fromkeys(LUXURIES, CONTENT["luxury_stack_size"])


def located_expansion_tiles(view: View):
    """Tile ids the view places outside spaces: lairs held, the lair in combat."""
    known: set[int] = set()
    for p in view["players"]:
        known.update(t["id"] for t in p["aristocrat"]["lairs"])
    combat = view["expansion"]["combat"]
    if combat is not None and "tile" in combat:
        known.add(combat["tile"]["id"])
    return known


def deal_cards(view: View, seat: int, rng: Rng):
    """(hands by seat, discard, deck) of aristocrat cards consistent with the view."""
    pool = list(CARD_DECK)
    for card in view["players"][seat]["aristocrat"]["cards"]:
        pool.remove(card)
    rng.shuffle(pool)
    hands = []
    for p in view["players"]:
        x = p["aristocrat"]
        if "cards" in x:
            hands.append(list(x["cards"]))
        else:
            hands.append([pool.pop() for _ in range(x["cards_count"])])
    size = view["expansion"]["aristocrat_discard_size"]
    discard = [pool.pop() for _ in range(size)]
    if len(pool) != view["expansion"]["aristocrat_deck_size"]:
        raise ValueError("aristocrat cards do not add up; cannot determinize")
    return hands, discard, pool


def pirate_piles(view: View, rng: Rng):
    """(deck, discard) of pirate card ids; only the deck order is unknown."""
    x = view["expansion"]
    discard = [c["id"] for c in x["pirate_discard"]]
    out = set(discard)
    combat = x["combat"]
    if combat is not None and "card" in combat:
        out.add(combat["card"]["id"])
    deck = [c["id"] for c in PIRATE_CARDS if c["id"] not in out]
    rng.shuffle(deck)
    if len(deck) != x["pirate_deck_size"]:
        raise ValueError("pirate cards do not add up; cannot determinize")
    return deck, discard


def unknown_expansion_tiles(view: View, known, backs):
    """Expansion tiles of the used backs not located (``known``: located ids)."""
    return [t for t in EXPANSION_TILES if TILE_BACKS[t] in backs and t not in known]


def combat_dump(combat):
    """The dump form of the view's combat (space index, tile and card ids)."""
    if combat is None:
        return None
    out = dict(combat)
    if "space" in out:
        out["space"] = GEOMETRY.space_index[tuple(out["space"])]
    if "tile" in out:
        out["tile"] = out["tile"]["id"]
    if "card" in out:
        out["card"] = out["card"]["id"]
    return out


def player_aristocrat(entry, cards):
    x = entry["aristocrat"]
    return {
        "manor": x["manor"],
        "cannons": x["cannons"],
        "lairs": [t["id"] for t in x["lairs"]],
        "buildings": list(x["buildings"]),
        "cards": cards,
        "damaged": list(x["damaged"]),
        "turn": dict(x["turn"]),
    }


def expansion_top_level(view: View, seat: int, rng: Rng, expansion_reserve):
    """The top-level dump keys of the expansion."""
    hands, discard, deck = deal_cards(view, seat, rng)
    pirate_deck, pirate_discard = pirate_piles(view, rng)
    x = view["expansion"]
    top = {
        "aristocrat_buildings": dict(x["aristocrat_buildings"]),
        "expansion_reserve": expansion_reserve,
        "pirate_deck": pirate_deck,
        "pirate_discard": pirate_discard,
        "aristocrat_deck": deck,
        "aristocrat_discard": discard,
        "combat": combat_dump(x["combat"]),
    }
    return top, hands
