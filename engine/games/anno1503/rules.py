"""Small derived quantities of a player's holdings, shared by every module.

Victory points are never stored: they are recomputed from holdings, so they
are gained and lost automatically as holdings change (S1 "Victory points").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .data import GOALS, RULES, SELL, VP_TO_WIN

if TYPE_CHECKING:
    from .state import Player, State


_BUY = RULES["buy"]
_SUPPLY = RULES["tile_supply"]
FIRST_BUILDING_SLOT = RULES["first_building_slot"]
RED_SLOTS = RULES["red_slots"]


def turn_order(state: State):
    """Seats in turn order starting with the active player (R#11)."""
    n = state.num_players
    a = state.active
    return [(a + k) % n for k in range(n)]


def goals(player: Player):
    """``{goal: bool}`` for the five victory-point boxes of §1.8."""
    held = {
        "gold": player.gold,
        "branch_offices": sum(1 for t in player.branch_offices if t is not None),
        "trade_agreements": len(player.trade_agreements),
        "public_buildings": sum(1 for b in player.buildings if b is not None),
        "merchants": player.slots.count("merchant"),
    }
    return {name: held[name] >= need for name, need in GOALS}


_NEED = dict(GOALS)


def victory_points(player: Player):
    """Same count as ``goals`` without building the dict (checked every apply)."""
    offices = player.branch_offices
    buildings = player.buildings
    return (
        (player.gold >= _NEED["gold"])
        + (len(offices) - offices.count(None) >= _NEED["branch_offices"])
        + (len(player.trade_agreements) >= _NEED["trade_agreements"])
        + (len(buildings) - buildings.count(None) >= _NEED["public_buildings"])
        + (player.slots.count("merchant") >= _NEED["merchants"])
    )


def has_won(player: Player) -> bool:
    return victory_points(player) >= VP_TO_WIN


def island_tiles(player: Player):
    """Branch offices plus trade agreements: what pirates charge for (R#25)."""
    return sum(1 for t in player.branch_offices if t is not None) + len(player.trade_agreements)


def outside_red(player: Player):
    """Inhabitants outside the red area: what fire charges for."""
    return sum(1 for k in player.slots[RED_SLOTS:] if k is not None)


def pioneer_settler_count(player: Player):
    slots = player.slots
    return slots.count("pioneer") + slots.count("settler")


def citizen_merchant_count(player: Player):
    slots = player.slots
    return slots.count("citizen") + slots.count("merchant")


def has_pioneer_settler_tile(player: Player) -> bool:
    """R#2: the supply limit of four Pioneer/Settler tiles."""
    return pioneer_settler_count(player) < _SUPPLY["pioneer_settler"]


def has_citizen_merchant_tile(player: Player) -> bool:
    return citizen_merchant_count(player) < _SUPPLY["citizen_merchant"]


def owns(player: Player, building):
    return building in player.buildings


def buy_price(player: Player):
    """6 gold less one per trade agreement, never below the printed minimum."""
    return max(
        _BUY["min_price"], _BUY["price"] - _BUY["discount_per_agreement"] * len(player.trade_agreements)
    )


def sell_price(player: Player, kind):
    price, building, better = SELL[kind]
    return better if building in player.buildings else price


def can_pay(player: Player, cost) -> bool:
    return can_pay_hand(player.hand, cost)


def can_pay_hand(hand, cost) -> bool:
    # a hot path of the AI's rollouts: the loop beats all() over a generator
    for commodity, n in cost:  # noqa: SIM110
        if hand[commodity] < n:
            return False
    return True


def pay(state: State, player: Player, cost) -> None:
    """Discard ``cost`` back to the stacks."""
    for commodity, n in cost:
        player.hand[commodity] -= n
        state.stacks[commodity] += n


def take(state: State, player: Player, commodity) -> None:
    player.hand[commodity] += 1
    state.stacks[commodity] -= 1


def scores(state: State):
    return {str(i): victory_points(p) for i, p in enumerate(state.players)}
