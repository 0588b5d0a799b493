"""Small derived quantities of a player's holdings, shared by every module.

Victory points are never stored: they are recomputed from holdings, so they
are gained and lost automatically as holdings change (S1 "Victory points").
"""

from .data import GOALS, RULES, SELL, VP_TO_WIN

_BUY = RULES["buy"]
_SUPPLY = RULES["tile_supply"]
FIRST_BUILDING_SLOT = RULES["first_building_slot"]
RED_SLOTS = RULES["red_slots"]


def turn_order(state):
    """Seats in turn order starting with the active player (R#11)."""
    n = state.num_players
    a = state.active
    return [(a + k) % n for k in range(n)]


def goals(player):
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


def victory_points(player):
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


def has_won(player):
    return victory_points(player) >= VP_TO_WIN


def island_tiles(player):
    """Branch offices plus trade agreements: what pirates charge for (R#25)."""
    return sum(1 for t in player.branch_offices if t is not None) + len(player.trade_agreements)


def outside_red(player):
    """Inhabitants outside the red area: what fire charges for."""
    return sum(1 for k in player.slots[RED_SLOTS:] if k is not None)


def pioneer_settler_count(player):
    slots = player.slots
    return slots.count("pioneer") + slots.count("settler")


def citizen_merchant_count(player):
    slots = player.slots
    return slots.count("citizen") + slots.count("merchant")


def has_pioneer_settler_tile(player):
    """R#2: the supply limit of four Pioneer/Settler tiles."""
    return pioneer_settler_count(player) < _SUPPLY["pioneer_settler"]


def has_citizen_merchant_tile(player):
    return citizen_merchant_count(player) < _SUPPLY["citizen_merchant"]


def owns(player, building):
    return building in player.buildings


def buy_price(player):
    """6 gold less one per trade agreement, never below the printed minimum."""
    return max(
        _BUY["min_price"], _BUY["price"] - _BUY["discount_per_agreement"] * len(player.trade_agreements)
    )


def sell_price(player, kind):
    price, building, better = SELL[kind]
    return better if building in player.buildings else price


def can_pay(player, cost):
    return can_pay_hand(player.hand, cost)


def can_pay_hand(hand, cost):
    # a hot path of the AI's rollouts: the loop beats all() over a generator
    for commodity, n in cost:  # noqa: SIM110
        if hand[commodity] < n:
            return False
    return True


def pay(state, player, cost):
    """Discard ``cost`` back to the stacks."""
    for commodity, n in cost:
        player.hand[commodity] -= n
        state.stacks[commodity] += n


def take(state, player, commodity):
    player.hand[commodity] += 1
    state.stacks[commodity] -= 1


def scores(state):
    return {str(i): victory_points(p) for i, p in enumerate(state.players)}
