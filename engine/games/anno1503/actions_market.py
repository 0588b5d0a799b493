"""Actions at the market and the turn's end, freely interleaved with the island's (R#6).

``sell``, ``buy``, ``big_branch_office`` and ``end_turn`` (then the hand
limit). Candidates are only the plausible ones (cheap filters first);
``check`` holds the complete rule.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...kit import ActionSpec, event, private_to
from ...params import IntRange, OneOf
from .data import (
    BUYER_OF,
    COMMODITIES,
    PLAYERS,
    RULES,
)
from .rules import (
    owns,
    pay,
    sell_price,
    take,
)
from .turn import pass_turn

if TYPE_CHECKING:
    from ...core import Action, Event
    from .state import State


HAND_LIMIT = RULES["hand_limit"]
_BBO_PAYMENT = RULES["big_branch_office_payment"]
_BUYS_PER_TURN = RULES["buy"]["per_turn"]
_COMMODITY = OneOf(COMMODITIES, "a commodity")


# --- sell and buy -----------------------------------------------------------


def _sell_candidates(state: State, seat: int) -> list[Action]:
    player = state.players[seat]
    hand, slots, sold = player.hand, player.slots, player.sold
    return [
        {"type": "sell", "commodity": c}
        for c in COMMODITIES
        if hand[c] and sold[BUYER_OF[c]] < slots.count(BUYER_OF[c])
    ]


def _sell_check(state: State, seat: int, action: Action) -> str | None:
    player = state.players[seat]
    commodity = action["commodity"]
    if player.hand[commodity] <= 0:
        return "commodity_not_held"
    kind = BUYER_OF[commodity]
    if player.sold[kind] >= player.slots.count(kind):
        return "no_inhabitant_left_to_buy"
    return None


def _sell_perform(state: State, seat: int, action: Action, events: list[Event]) -> None:
    player = state.players[seat]
    commodity = action["commodity"]
    kind = BUYER_OF[commodity]
    price = sell_price(player, kind)
    pay(state, player, ((commodity, 1),))
    player.count_sale(kind)
    player.gold += price
    event(events, "sold", seat, commodity=commodity, gold=price)


def _buy_candidates(state: State, seat: int) -> list[Action]:
    player = state.players[seat]
    if player.buys >= _BUYS_PER_TURN:
        return []
    stacks = state.stacks
    return [
        {"type": "buy", "commodity": c}
        for c in player.hand
        if stacks[c] and player.gold >= state.variant.price_of(player, c)
    ]


def _buy_check(state: State, seat: int, action: Action) -> str | None:
    player = state.players[seat]
    commodity = action["commodity"]
    if player.buys >= _BUYS_PER_TURN:
        return "two_buys_per_turn"
    if player.gold < state.variant.price_of(player, commodity):
        return "not_enough_gold"
    if state.stacks[commodity] <= 0:
        return "stack_empty"
    return None


def _buy_perform(state: State, seat: int, action: Action, events: list[Event]) -> None:
    player = state.players[seat]
    price = state.variant.price_of(player, action["commodity"])
    player.gold -= price
    player.buys += 1
    take(state, player, action["commodity"])
    event(events, "bought", seat, commodity=action["commodity"], gold=price)


# --- big_branch_office ------------------------------------------------------


def _big_branch_office_candidates(state: State, seat: int) -> list[Action]:
    player = state.players[seat]
    if player.bbo_used or player.gold < _BBO_PAYMENT or not owns(player, "big_branch_office"):
        return []
    return [
        {"type": "big_branch_office", "target": t}
        for t in range(state.num_players)
        if t != seat and state.players[t].hand_size() > 0
    ]


def _big_branch_office_check(state: State, seat: int, action: Action) -> str | None:
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


def _draw_random_card(state: State, hand):
    pick = state.rng.below(sum(hand.values()))
    for commodity in hand:
        pick -= hand[commodity]
        if pick < 0:
            return commodity
    raise RuntimeError("unreachable: the pick is below the hand size")


def _big_branch_office_perform(state: State, seat: int, action: Action, events: list[Event]) -> None:
    player = state.players[seat]
    target = action["target"]
    victim = state.players[target]
    commodity = _draw_random_card(state, victim.hand)
    victim.hand[commodity] -= 1
    player.hand[commodity] += 1
    player.gold -= _BBO_PAYMENT
    victim.gold += _BBO_PAYMENT
    player.bbo_used = True
    event(events, "card_drawn", seat, target=target, private=private_to((seat, target), commodity=commodity))
    event(events, "gold_received", target, amount=_BBO_PAYMENT, reason="big_branch_office")


# --- end_turn ---------------------------------------------------------------


def _end_turn_candidates(state: State, seat: int) -> list[Action]:
    return [{"type": "end_turn"}]


def _end_turn_check(state: State, seat: int, action: Action) -> str | None:
    return None


def _end_turn_perform(state: State, seat: int, action: Action, events: list[Event]) -> None:
    if not state.variant.on_end_turn(state, seat, events):
        finish_turn(state, seat, events)


def finish_turn(state: State, seat: int, events: list[Event]) -> None:
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
