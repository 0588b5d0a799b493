"""Actions on the home island and the market, freely interleaved (R#6).

``build_ship``, ``place_pioneer``, ``develop``, ``sell``, ``buy``,
``big_branch_office`` and ``end_turn``. Candidates are only the plausible
ones (cheap filters first); ``check`` holds the complete rule.
"""

from ...kit import ActionSpec, event
from ...params import IntRange, OneOf, Optional
from .data import (
    BUILDINGS,
    BUYER_OF,
    COMMODITIES,
    DEVELOP,
    PIONEER_COST,
    PLAYERS,
    RULES,
    SHIP_COST,
    SLOTS,
    START,
)
from .rules import (
    FIRST_BUILDING_SLOT,
    can_pay,
    can_pay_hand,
    has_citizen_merchant_tile,
    has_pioneer_settler_tile,
    owns,
    pay,
    sell_price,
    take,
)
from .turn import pass_turn, ship_ap

HAND_LIMIT = RULES["hand_limit"]
_BBO_PAYMENT = RULES["big_branch_office_payment"]
_BUYS_PER_TURN = RULES["buy"]["per_turn"]
_COMMODITY = OneOf(COMMODITIES, "a commodity")


# --- build_ship -------------------------------------------------------------


def _build_ship_candidates(state, seat):
    out = [{"type": "build_ship"}]
    # a variant may offer other squares to start on (``at``)
    out += [{"type": "build_ship", "at": [r, c]} for r, c in state.variant.ship_starts]
    return out


def _build_ship_check(state, seat, action):
    player = state.players[seat]
    at = action.get("at")
    if at is not None and tuple(at) not in state.variant.ship_starts:
        return "not_beside_the_port"
    if None not in player.ship_at:
        return "no_ship_in_stock"
    if not can_pay(player, SHIP_COST):
        return "cannot_pay"
    return None


def _build_ship_perform(state, seat, action, events):
    player = state.players[seat]
    pay(state, player, SHIP_COST)
    ship = player.ship_at.index(None)
    at = action.get("at")
    player.ship_at[ship] = START if at is None else tuple(at)
    player.ship_ap[ship] = ship_ap(state, player)
    if at is None:
        event(events, "ship_built", seat, ship=ship)
    else:
        event(events, "ship_built", seat, ship=ship, at=list(at))


# --- place_pioneer ----------------------------------------------------------


def next_free_slot(player):
    """R#3: slots fill strictly in order; 1-based, or None when full."""
    try:
        return player.slots.index(None) + 1
    except ValueError:
        return None


def _free_buildings(state, player):
    return [b for b in BUILDINGS if state.buildings[b] > 0 and b not in player.buildings]


def _place_pioneer_candidates(state, seat):
    player = state.players[seat]
    if not can_pay(player, PIONEER_COST) or not has_pioneer_settler_tile(player):
        return []
    slot = next_free_slot(player)
    if slot is None:
        return []
    if slot < FIRST_BUILDING_SLOT:
        return [{"type": "place_pioneer"}]
    return [{"type": "place_pioneer", "building": b} for b in _free_buildings(state, player)]


def _place_pioneer_check(state, seat, action):
    player = state.players[seat]
    if not has_pioneer_settler_tile(player):
        return "no_pioneer_tile_in_supply"
    slot = next_free_slot(player)
    if slot is None:
        return "island_full"
    if not can_pay(player, PIONEER_COST):
        return "cannot_pay"
    building = action.get("building")
    if slot < FIRST_BUILDING_SLOT:
        return "no_building_space" if building is not None else None
    if building is None:
        return "building_required"
    if state.buildings[building] <= 0:
        return "building_not_available"
    if owns(player, building):
        return "building_already_owned"
    return None


def _place_pioneer_perform(state, seat, action, events):
    player = state.players[seat]
    pay(state, player, PIONEER_COST)
    slot = next_free_slot(player)
    player.set_slot(slot - 1, "pioneer")
    data = {"slot": slot}
    building = action.get("building")
    if building is not None:
        player.set_building(slot - FIRST_BUILDING_SLOT, building)
        state.buildings = {**state.buildings, building: state.buildings[building] - 1}
        data["building"] = building
    event(events, "pioneer_placed", seat, **data)


# --- develop ----------------------------------------------------------------


def can_develop(player, index):
    """Whether the inhabitant in 0-based ``index`` may go up a step (tiles only)."""
    kind = player.slots[index]
    if kind not in DEVELOP:
        return False
    return kind != "settler" or has_citizen_merchant_tile(player)


def _affordable_developments(hand):
    """Inhabitant kinds whose next step the hand can pay for."""
    return [kind for kind, (_to, cost) in DEVELOP.items() if can_pay_hand(hand, cost)]


def _develop_candidates(state, seat):
    player = state.players[seat]
    kinds = _affordable_developments(player.hand)
    if not kinds:
        return []
    return [{"type": "develop", "slot": i + 1} for i, kind in enumerate(player.slots) if kind in kinds]


def _develop_check(state, seat, action):
    player = state.players[seat]
    index = action["slot"] - 1
    step = DEVELOP.get(player.slots[index])
    if step is None:
        return "cannot_develop"
    if not can_develop(player, index):
        return "no_citizen_tile_in_supply"
    if not can_pay(player, step[1]):
        return "cannot_pay"
    return None


def develop_slot(player, index):
    """One step up; returns ``(from, to)``.

    Once per turn to each inhabitant (S1 "Sell commodities"): the tile keeps
    its purchase when it turns over. Sales are counted per kind, not per
    tile, and inhabitants of one kind are alike, so the developed tile is
    taken to be one that has not bought while there is one; only when every
    inhabitant of its kind has bought does the purchase move to the new kind.
    """
    before = player.slots[index]
    after = DEVELOP[before][0]
    if player.sold[before] >= player.slots.count(before):
        player.move_sale(before, after)
    player.set_slot(index, after)
    return before, after


def _develop_perform(state, seat, action, events):
    player = state.players[seat]
    index = action["slot"] - 1
    pay(state, player, DEVELOP[player.slots[index]][1])
    before, after = develop_slot(player, index)
    event(events, "developed", seat, slot=index + 1, **{"from": before, "to": after})


# --- sell and buy -----------------------------------------------------------


def _sell_candidates(state, seat):
    player = state.players[seat]
    hand, slots, sold = player.hand, player.slots, player.sold
    return [
        {"type": "sell", "commodity": c}
        for c in COMMODITIES
        if hand[c] and sold[BUYER_OF[c]] < slots.count(BUYER_OF[c])
    ]


def _sell_check(state, seat, action):
    player = state.players[seat]
    commodity = action["commodity"]
    if player.hand[commodity] <= 0:
        return "commodity_not_held"
    kind = BUYER_OF[commodity]
    if player.sold[kind] >= player.slots.count(kind):
        return "no_inhabitant_left_to_buy"
    return None


def _sell_perform(state, seat, action, events):
    player = state.players[seat]
    commodity = action["commodity"]
    kind = BUYER_OF[commodity]
    price = sell_price(player, kind)
    pay(state, player, ((commodity, 1),))
    player.count_sale(kind)
    player.gold += price
    event(events, "sold", seat, commodity=commodity, gold=price)


def _buy_candidates(state, seat):
    player = state.players[seat]
    if player.buys >= _BUYS_PER_TURN:
        return []
    stacks = state.stacks
    return [
        {"type": "buy", "commodity": c}
        for c in player.hand
        if stacks[c] and player.gold >= state.variant.price_of(player, c)
    ]


def _buy_check(state, seat, action):
    player = state.players[seat]
    commodity = action["commodity"]
    if player.buys >= _BUYS_PER_TURN:
        return "two_buys_per_turn"
    if player.gold < state.variant.price_of(player, commodity):
        return "not_enough_gold"
    if state.stacks[commodity] <= 0:
        return "stack_empty"
    return None


def _buy_perform(state, seat, action, events):
    player = state.players[seat]
    price = state.variant.price_of(player, action["commodity"])
    player.gold -= price
    player.buys += 1
    take(state, player, action["commodity"])
    event(events, "bought", seat, commodity=action["commodity"], gold=price)


# --- big_branch_office ------------------------------------------------------


def _big_branch_office_candidates(state, seat):
    player = state.players[seat]
    if player.bbo_used or player.gold < _BBO_PAYMENT or not owns(player, "big_branch_office"):
        return []
    return [
        {"type": "big_branch_office", "target": t}
        for t in range(state.num_players)
        if t != seat and state.players[t].hand_size() > 0
    ]


def _big_branch_office_check(state, seat, action):
    player = state.players[seat]
    target = action["target"]
    if not owns(player, "big_branch_office"):
        return "no_big_branch_office"
    if player.bbo_used:
        return "big_branch_office_used"
    if player.gold < _BBO_PAYMENT:
        return "not_enough_gold"
    if target == seat or target >= state.num_players:
        return "invalid_target"
    if state.players[target].hand_size() <= 0:
        return "target_has_no_cards"
    return None


def _draw_random_card(state, hand):
    pick = state.rng.below(sum(hand.values()))
    for commodity in hand:
        pick -= hand[commodity]
        if pick < 0:
            return commodity
    raise RuntimeError("unreachable: the pick is below the hand size")


def _big_branch_office_perform(state, seat, action, events):
    player = state.players[seat]
    target = action["target"]
    victim = state.players[target]
    commodity = _draw_random_card(state, victim.hand)
    victim.hand[commodity] -= 1
    player.hand[commodity] += 1
    player.gold -= _BBO_PAYMENT
    victim.gold += _BBO_PAYMENT
    player.bbo_used = True
    event(
        events,
        "card_drawn",
        seat,
        target=target,
        private={seat: {"commodity": commodity}, target: {"commodity": commodity}},
    )
    event(events, "gold_received", target, amount=_BBO_PAYMENT, reason="big_branch_office")


# --- end_turn ---------------------------------------------------------------


def _end_turn_candidates(state, seat):
    return [{"type": "end_turn"}]


def _end_turn_check(state, seat, action):
    return None


def _end_turn_perform(state, seat, action, events):
    if not state.variant.on_end_turn(state, seat, events):
        finish_turn(state, seat, events)


def finish_turn(state, seat, events):
    """The hand limit (every card kind in the hand counts), then play passes."""
    excess = state.players[seat].hand_size() - HAND_LIMIT
    if excess > 0:
        state.phase = "discard"  # R#21: the player chooses the discards
        # Every accepted action leaves an event, so the log shows the turn
        # ending and why the seat still has to act.
        event(events, "discard_required", seat, count=excess)
        return
    pass_turn(state, events)


SPECS = [
    ActionSpec(
        "build_ship",
        {},
        _build_ship_candidates,
        _build_ship_check,
        _build_ship_perform,
        "Pay cloth+wood+tool; a ship from stock goes on the start square with full AP.",
    ),
    ActionSpec(
        "place_pioneer",
        {"building": Optional(OneOf(BUILDINGS, "a public building (slots 4-7 only)"))},
        _place_pioneer_candidates,
        _place_pioneer_check,
        _place_pioneer_perform,
        "Pay wood+tool; a pioneer goes on the next free slot (from slot 4 with a free public building).",
    ),
    ActionSpec(
        "develop",
        {"slot": IntRange(1, SLOTS, "the inhabitant's slot")},
        _develop_candidates,
        _develop_check,
        _develop_perform,
        "Develop an inhabitant one step (pioneer->settler->citizen->merchant).",
    ),
    ActionSpec(
        "sell",
        {"commodity": _COMMODITY},
        _sell_candidates,
        _sell_check,
        _sell_perform,
        "Sell one card to an inhabitant that buys it (one card per inhabitant per turn).",
    ),
    ActionSpec(
        "buy",
        {"commodity": _COMMODITY},
        _buy_candidates,
        _buy_check,
        _buy_perform,
        "Buy one card for 6 gold less one per trade agreement (twice per turn).",
    ),
    ActionSpec(
        "big_branch_office",
        {"target": IntRange(0, PLAYERS[1] - 1, "the seat to draw from")},
        _big_branch_office_candidates,
        _big_branch_office_check,
        _big_branch_office_perform,
        "Draw a random card from another player's hand and pay him 2 gold (once per turn).",
    ),
    ActionSpec(
        "end_turn",
        {},
        _end_turn_candidates,
        _end_turn_check,
        _end_turn_perform,
        "End the turn (then discard down to 5 cards if needed).",
    ),
]
