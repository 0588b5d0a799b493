"""Derived quantities and shared steps of the Pirates & Aristocrats expansion.

Prices, goals and the combat die roll live here so the action modules stay
small. Victory in the expansion (game-content §2.12): six goals, three on
the home island and three on the aristocrat island; the active player wins
with at least one of each group's required counts (1 home + 2 aristocrat).
"""

from .events import event
from .xdata import (
    CANNON_PRICES, COMBAT_DIE, LUXURIES, MAX_LAIRS, TILE_DISCOUNT, VICTORY, XRULES,
)

_HOME = VICTORY["home_goals"]
_ARISTO = VICTORY["aristocrat_goals"]
_SALE = XRULES["aristocrat_sale"]


def owns_aristo(player, building):
    return building in player.x["buildings"]


def luxury_price(player):
    """10 gold less each defeated lair's discount and the Theatre's 2 (trade
    agreements do not count); never below the floor (ruling §2.14 #9)."""
    price = XRULES["luxury_price"] - sum(TILE_DISCOUNT[t] for t in player.x["lairs"])
    if owns_aristo(player, "theatre"):
        price -= XRULES["theatre_discount"]
    return max(XRULES["luxury_price_floor"], price)


def aristocrat_pays(player):
    return _SALE["richest_price"] if owns_aristo(player, "richest_aristocrat") else _SALE["price"]


def cannons(player):
    """Cannons of all the player's ships: the track plus the University's one."""
    return player.x["cannons"] + (1 if owns_aristo(player, "university") else 0)


def next_cannon_price(player):
    n = player.x["cannons"]
    return CANNON_PRICES[n] if n < len(CANNON_PRICES) else None


def may_attack_lairs(player):
    return len(player.x["lairs"]) < MAX_LAIRS


def x_goals(player):
    """``{goal: bool}`` of the six expansion goals."""
    x = player.x
    return {
        "merchants": player.slots.count("merchant") >= _HOME["merchants"],
        "public_buildings": 4 - player.buildings.count(None) >= _HOME["public_buildings"],
        "trade_agreements": len(player.trade_agreements) >= _HOME["trade_agreements"],
        "aristocrat_buildings": len(x["buildings"]) >= _ARISTO["aristocrat_buildings"],
        "lairs": len(x["lairs"]) >= _ARISTO["lairs"],
        "manor": x["manor"] >= _ARISTO["manor"],
    }


def x_points(player):
    return sum(x_goals(player).values())


def x_has_won(player):
    held = x_goals(player)
    home = sum(held[g] for g in _HOME)
    aristo = sum(held[g] for g in _ARISTO)
    return home >= VICTORY["home_needed"] and aristo >= VICTORY["aristocrat_needed"]


def combat_roll(state):
    return COMBAT_DIE[state.rng.below(len(COMBAT_DIE))]


def left_of(state, seat, k=1):
    return (seat + k) % state.num_players


def draw_aristocrat_cards(state, seat, count, events):
    """Draw ``count`` cards, reshuffling the discards when the deck runs out
    (§2.10). The card names go to the drawer only."""
    x = state.x
    drawn = []
    for _ in range(count):
        if not x["aristocrat_deck"]:
            if not x["aristocrat_discard"]:
                break
            x["aristocrat_deck"], x["aristocrat_discard"] = x["aristocrat_discard"], []
            state.rng.shuffle(x["aristocrat_deck"])
            event(events, "aristocrat_deck_reshuffled", None, size=len(x["aristocrat_deck"]))
        drawn.append(x["aristocrat_deck"].pop())
    state.players[seat].x["cards"].extend(drawn)
    events.append({
        "type": "aristocrat_cards_drawn", "seat": seat, "data": {"count": len(drawn)},
        "private": {str(seat): {"cards": drawn}},
    })


def is_luxury(commodity):
    return commodity in LUXURIES
