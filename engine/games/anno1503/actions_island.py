"""Actions on the home island, freely interleaved with the market's (R#6).

``build_ship``, ``place_pioneer`` and ``develop``. Candidates are only the
plausible ones (cheap filters first); ``check`` holds the complete rule.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...kit import ActionSpec, event
from ...params import IntRange, OneOf, Optional
from .data import (
    BUILDINGS,
    DEVELOP,
    PIONEER_COST,
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
)
from .turn import ship_ap

if TYPE_CHECKING:
    from ...core import Action, Event
    from .state import Player, State


# --- build_ship -------------------------------------------------------------


def _build_ship_candidates(state: State, seat: int) -> list[Action]:
    out: list[dict[str, Any]] = [{"type": "build_ship"}]
    # a variant may offer other squares to start on (``at``)
    out += [{"type": "build_ship", "at": [r, c]} for r, c in state.variant.ship_starts]
    return out


def _build_ship_check(state: State, seat: int, action: Action) -> str | None:
    player = state.players[seat]
    at = action.get("at")
    if at is not None and tuple(at) not in state.variant.ship_starts:
        return "not_beside_the_port"
    if None not in player.ship_at:
        return "no_ship_in_stock"
    if not can_pay(player, SHIP_COST):
        return "cannot_pay"
    return None


def _build_ship_perform(state: State, seat: int, action: Action, events: list[Event]) -> None:
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


def next_free_slot(player: Player):
    """R#3: slots fill strictly in order; 1-based, or None when full."""
    try:
        return player.slots.index(None) + 1
    except ValueError:
        return None


def _free_buildings(state: State, player: Player):
    return [b for b in BUILDINGS if state.buildings[b] > 0 and b not in player.buildings]


def _place_pioneer_candidates(state: State, seat: int) -> list[Action]:
    player = state.players[seat]
    if not can_pay(player, PIONEER_COST) or not has_pioneer_settler_tile(player):
        return []
    slot = next_free_slot(player)
    if slot is None:
        return []
    if slot < FIRST_BUILDING_SLOT:
        return [{"type": "place_pioneer"}]
    return [{"type": "place_pioneer", "building": b} for b in _free_buildings(state, player)]


def _place_pioneer_check(state: State, seat: int, action: Action) -> str | None:
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


def _place_pioneer_perform(state: State, seat: int, action: Action, events: list[Event]) -> None:
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


def can_develop(player: Player, index) -> bool:
    """Whether the inhabitant in 0-based ``index`` may go up a step (tiles only)."""
    kind = player.slots[index]
    if kind not in DEVELOP:
        return False
    return kind != "settler" or has_citizen_merchant_tile(player)


def _affordable_developments(hand):
    """Inhabitant kinds whose next step the hand can pay for."""
    return [kind for kind, (_to, cost) in DEVELOP.items() if can_pay_hand(hand, cost)]


def _develop_candidates(state: State, seat: int) -> list[Action]:
    player = state.players[seat]
    kinds = _affordable_developments(player.hand)
    if not kinds:
        return []
    return [{"type": "develop", "slot": i + 1} for i, kind in enumerate(player.slots) if kind in kinds]


def _develop_check(state: State, seat: int, action: Action) -> str | None:
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


def develop_slot(player: Player, index):
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


def _develop_perform(state: State, seat: int, action: Action, events: list[Event]) -> None:
    player = state.players[seat]
    index = action["slot"] - 1
    pay(state, player, DEVELOP[player.slots[index]][1])
    before, after = develop_slot(player, index)
    event(events, "developed", seat, slot=index + 1, **{"from": before, "to": after})


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
]
