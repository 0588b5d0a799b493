"""Expansion actions on the aristocrat island (phase ``main``).

``buy_cannon``, ``build_manor``, ``build_aristocrat``, ``sell_luxury`` and
``repair_ship``; the aristocrat cards, battles and lairs are in ``actions_cards``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ....kit import ActionSpec, event
from ....params import IntRange, OneOf, Optional
from ..actions_island import can_develop, develop_slot
from ..actions_sea import SHIP
from ..data import SLOTS
from ..rules import can_pay, pay
from ..turn import ship_ap
from .data import (
    ARISTO_BUILDINGS,
    ARISTO_COSTS,
    ARISTO_SITES,
    CATHEDRAL_CARDS,
    LUXURIES,
    MANOR_COSTS,
    PARK_GOLD,
    REPAIR_COST,
    SKULL_SITE,
)
from .rules import aristocrat_pays, draw_aristocrat_cards, next_cannon_price

if TYPE_CHECKING:
    from ....core import Action, Event
    from ..state import Player, State


# --- cannons and the manor -------------------------------------------------------


def _buy_cannon_candidates(state: State, seat: int) -> list[Action]:
    return [{"type": "buy_cannon"}]


def _buy_cannon_check(state: State, seat: int, action: Action) -> str | None:
    player = state.players[seat]
    price = next_cannon_price(player)
    if price is None:
        return "cannon_track_full"
    return "not_enough_gold" if player.gold < price else None


def _buy_cannon_perform(state: State, seat: int, action: Action, events: list[Event]) -> None:
    player = state.players[seat]
    price = next_cannon_price(player)
    player.gold -= price
    player.part.cannons += 1
    event(events, "cannon_bought", seat, gold=price, cannons=player.part.cannons)


def manor_step_problem(player: Player):
    step = player.part.manor
    if step >= len(MANOR_COSTS):
        return "manor_complete"
    if step == len(MANOR_COSTS) - 1 and not player.part.lairs:
        return "manor_step_9_needs_a_defeated_lair"
    return None


def _build_manor_candidates(state: State, seat: int) -> list[Action]:
    return [{"type": "build_manor"}]


def _build_manor_check(state: State, seat: int, action: Action) -> str | None:
    player = state.players[seat]
    problem = manor_step_problem(player)
    if problem:
        return problem
    return None if _can_pay_cost(player, MANOR_COSTS[player.part.manor]) else "cannot_pay"


def _can_pay_cost(player: Player, cost) -> bool:
    gold = dict(cost).get("gold", 0)
    return player.gold >= gold and can_pay(player, [(c, n) for c, n in cost if c != "gold"])


def _pay_cost(state: State, player: Player, cost) -> None:
    player.gold -= dict(cost).get("gold", 0)
    pay(state, player, [(c, n) for c, n in cost if c != "gold"])


def _build_manor_perform(state: State, seat: int, action: Action, events: list[Event]) -> None:
    player = state.players[seat]
    _pay_cost(state, player, MANOR_COSTS[player.part.manor])
    advance_manor(state, seat, events, draw=True)


def advance_manor(state: State, seat: int, events: list[Event], draw) -> None:
    player = state.players[seat]
    player.part.manor += 1
    event(events, "manor_advanced", seat, step=player.part.manor)
    if draw:
        draw_aristocrat_cards(state, seat, 1, events)


# --- aristocrat buildings ---------------------------------------------------------


def _develop_options(player: Player):
    return [i + 1 for i in range(len(player.slots)) if can_develop(player, i)]


def _build_aristocrat_candidates(state: State, seat: int) -> list[Action]:
    player = state.players[seat]
    out = []
    for name in ARISTO_BUILDINGS:
        if name == "library" and _develop_options(player):
            out += [
                {"type": "build_aristocrat", "building": name, "slot": s} for s in _develop_options(player)
            ]
        else:
            out.append({"type": "build_aristocrat", "building": name})
    return out


def _build_aristocrat_check(state: State, seat: int, action: Action) -> str | None:
    player = state.players[seat]
    name, slot = action["building"], action.get("slot")
    owned = player.part.buildings
    if name in owned:
        return "building_already_owned"
    if state.part.aristocrat_buildings[name] <= 0:
        return "building_not_available"
    if len(owned) >= ARISTO_SITES:
        return "no_free_building_site"
    if len(owned) + 1 == SKULL_SITE and not player.part.lairs:
        return "skull_site_needs_a_defeated_lair"
    if not can_pay(player, ARISTO_COSTS[name]):
        return "cannot_pay"
    if name != "library":
        return None if slot is None else "no_slot_for_this_building"
    options = _develop_options(player)
    if slot is None:
        return "slot_required" if options else None
    return None if slot in options else "slot_cannot_develop"


def _build_aristocrat_perform(state: State, seat: int, action: Action, events: list[Event]) -> None:
    player = state.players[seat]
    name = action["building"]
    pay(state, player, ARISTO_COSTS[name])
    player.part.buildings.append(name)
    supply = state.part.aristocrat_buildings
    supply[name] -= 1
    event(events, "aristocrat_building_built", seat, building=name)
    if name == "park":
        player.gold += PARK_GOLD
        event(events, "gold_received", seat, amount=PARK_GOLD, reason="park")
    elif name == "cathedral":
        draw_aristocrat_cards(state, seat, CATHEDRAL_CARDS, events)
    elif name == "library" and action.get("slot") is not None:
        before, after = develop_slot(player, action["slot"] - 1)
        event(events, "developed", seat, slot=action["slot"], **{"from": before, "to": after})


# --- luxury sale, repair ----------------------------------------------------------


def _sell_luxury_candidates(state: State, seat: int) -> list[Action]:
    return [{"type": "sell_luxury", "commodity": c} for c in LUXURIES]


def _sell_luxury_check(state: State, seat: int, action: Action) -> str | None:
    player = state.players[seat]
    if player.part.luxury_sold:
        return "aristocrat_bought_this_turn"
    return None if player.hand[action["commodity"]] > 0 else "commodity_not_held"


def _sell_luxury_perform(state: State, seat: int, action: Action, events: list[Event]) -> None:
    player = state.players[seat]
    price = aristocrat_pays(player)
    pay(state, player, ((action["commodity"], 1),))
    player.gold += price
    player.part.luxury_sold = True
    event(events, "sold", seat, commodity=action["commodity"], gold=price, buyer="aristocrat")


def _repair_ship_candidates(state: State, seat: int) -> list[Action]:
    return [{"type": "repair_ship", "ship": s} for s in range(len(state.players[seat].ship_at))]


def _repair_ship_check(state: State, seat: int, action: Action) -> str | None:
    player = state.players[seat]
    if not player.part.damaged[action["ship"]]:
        return "ship_not_damaged"
    return None if can_pay(player, REPAIR_COST) else "cannot_pay"


def _repair_ship_perform(state: State, seat: int, action: Action, events: list[Event]) -> None:
    player = state.players[seat]
    pay(state, player, REPAIR_COST)
    repair(state, seat, action["ship"], events)


def repair(state: State, seat: int, ship, events: list[Event]) -> None:
    """Ruling §2.14 #7: a ship repaired before sailing this turn may move."""
    player = state.players[seat]
    player.part.damaged[ship] = False
    if not player.part.sailed:
        player.ship_ap[ship] = ship_ap(state, player)
    event(events, "ship_repaired", seat, ship=ship)


SPECS: list[ActionSpec] = [
    ActionSpec(
        "buy_cannon",
        {},
        _buy_cannon_candidates,
        _buy_cannon_check,
        _buy_cannon_perform,
        "Expansion: buy the next cannon on the price track (4, 6, 8, ... gold).",
    ),
    ActionSpec(
        "build_manor",
        {},
        _build_manor_candidates,
        _build_manor_check,
        _build_manor_perform,
        "Expansion: pay the next manor step and draw an aristocrat card (step 9 needs a defeated lair).",
    ),
    ActionSpec(
        "build_aristocrat",
        {
            "building": OneOf(ARISTO_BUILDINGS, "an aristocrat building"),
            "slot": Optional(IntRange(1, SLOTS, "Library: the inhabitant to develop")),
        },
        _build_aristocrat_candidates,
        _build_aristocrat_check,
        _build_aristocrat_perform,
        "Expansion: build an aristocrat building (third site needs a defeated lair).",
    ),
    ActionSpec(
        "sell_luxury",
        {"commodity": OneOf(LUXURIES, "a luxury")},
        _sell_luxury_candidates,
        _sell_luxury_check,
        _sell_luxury_perform,
        "Expansion: the aristocrat buys one luxury per turn (3 gold, 6 with the Richest Aristocrat).",
    ),
    ActionSpec(
        "repair_ship",
        {"ship": SHIP},
        _repair_ship_candidates,
        _repair_ship_check,
        _repair_ship_perform,
        "Expansion: repair a damaged ship for wood + tool.",
    ),
]
