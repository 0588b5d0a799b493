"""Ships and island tiles: ``move_ship``, ``discover``, ``take_tile``,
``return_tile``.

A discovery costs 1 AP and shows the tile to the discoverer only (``seen``);
he then takes it (the voyage ends, the ship returns to stock) or returns it
face down (R#16, R#17). A variant may refuse a tile kind (``take_problem``)
and offer its own answer to a discovery instead.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...kit import ActionSpec, event
from ...params import IntRange, Optional, Square
from .actions_island import can_develop, develop_slot
from .data import BRIDGES, COLS, ISLAND_IDS, ISLANDS, MAX_SHIPS, ROWS, RULES, SLOTS

if TYPE_CHECKING:
    from ...core import Action, Event
    from .state import Player, State


_MAX_AGREEMENTS = RULES["max_trade_agreements"]
_GOLD_TREASURE = RULES["gold_treasure"]
SHIP = IntRange(0, MAX_SHIPS - 1, "the ship (0 or 1)")


# --- move_ship --------------------------------------------------------------


def _move_ship_candidates(state: State, seat: int) -> list[Action]:
    player = state.players[seat]
    out = []
    neighbours = state.variant.geometry.sea_neighbours
    for ship, at in enumerate(player.ship_at):
        if at is not None and player.ship_ap[ship] > 0 and _ship_problem(state, player, ship) is None:
            for r, c in neighbours[at]:
                out.append({"type": "move_ship", "ship": ship, "to": [r, c]})
    return out


def _ship_problem(state: State, player: Player, ship):
    if player.ship_at[ship] is None:
        return "ship_not_on_board"
    problem = state.variant.ship_problem(player, ship)
    if problem:
        return problem
    if player.ship_ap[ship] <= 0:
        return "no_action_points"
    return None


def _move_ship_check(state: State, seat: int, action: Action) -> str | None:
    player = state.players[seat]
    ship = action["ship"]
    problem = _ship_problem(state, player, ship)
    if problem:
        return problem
    if tuple(action["to"]) not in state.variant.geometry.sea_neighbours[player.ship_at[ship]]:
        return "not_an_adjacent_sea_square"
    return None


def _move_ship_perform(state: State, seat: int, action: Action, events: list[Event]) -> None:
    player = state.players[seat]
    ship = action["ship"]
    before = player.ship_at[ship]
    player.ship_at[ship] = tuple(action["to"])
    player.ship_ap[ship] -= 1
    moved: dict[str, Any] = {"from": list(before), "to": list(action["to"])}  # "from" is a keyword
    event(events, "ship_moved", seat, ship=ship, **moved)
    state.variant.on_ship_moved(state, seat, ship, events)


# --- discover ---------------------------------------------------------------


def _discover_candidates(state: State, seat: int) -> list[Action]:
    player = state.players[seat]
    spaces = state.spaces
    geo = state.variant.geometry
    out = []
    for ship, at in enumerate(player.ship_at):
        if at is not None and player.ship_ap[ship] > 0 and _ship_problem(state, player, ship) is None:
            for i in geo.adjacent_spaces[at]:
                if spaces[i] is not None:
                    r, c = geo.spaces[i]
                    out.append({"type": "discover", "ship": ship, "space": [r, c]})
    return out


def _discover_check(state: State, seat: int, action: Action) -> str | None:
    player = state.players[seat]
    ship = action["ship"]
    problem = _ship_problem(state, player, ship)
    if problem:
        return problem
    geo = state.variant.geometry
    space = geo.space_index.get(tuple(action["space"]))
    if space is None or space not in geo.adjacent_spaces[player.ship_at[ship]]:
        return "not_adjacent_to_the_ship"
    if state.spaces[space] is None:
        return "no_tile_on_space"
    return None


def _discover_perform(state: State, seat: int, action: Action, events: list[Event]) -> None:
    player = state.players[seat]
    ship = action["ship"]
    space = state.variant.geometry.space_index[tuple(action["space"])]
    tile = state.spaces[space]
    if not state.variant.on_discover(player):
        player.ship_ap[ship] -= 1
    if seat not in state.seen[space]:
        state.seen[space] = tuple(sorted(state.seen[space] + (seat,)))
    state.discovery = {"ship": ship, "space": space}
    state.phase = "tile_decision"
    event(
        events,
        "tile_discovered",
        seat,
        ship=ship,
        space=list(action["space"]),
        back=state.variant.tiles.public(tile)["back"],
        private={seat: {"tile": state.variant.tiles.public(tile)}},
    )


# --- take_tile / return_tile --------------------------------------------------


def _free_gray_bridges(state: State, seat: int, kind="branch_office"):
    """Free bridges for an office of ``kind`` (a variant's office may use others)."""
    player = state.players[seat]
    bridges = state.variant.bridges_for(ISLANDS[ISLAND_IDS[seat]], kind)
    return [b for b in bridges if player.branch_offices[b - 1] is None]


def _upgradable_slots(player: Player):
    return [i + 1 for i in range(len(player.slots)) if can_develop(player, i)]


def _take_tile_candidates(state: State, seat: int) -> list[Action]:
    kind = state.variant.tiles.kinds[state.spaces[state.discovery["space"]]]
    player = state.players[seat]
    if kind in state.variant.office_kinds:
        return [{"type": "take_tile", "bridge": b} for b in _free_gray_bridges(state, seat, kind)]
    if state.variant.take_problem(kind):
        return []
    if kind == "trade_agreement" and len(player.trade_agreements) >= _MAX_AGREEMENTS:
        return []
    if kind == "treasure_upgrade":
        slots = _upgradable_slots(player)
        if slots:
            return [{"type": "take_tile", "slot": s} for s in slots]
    return [{"type": "take_tile"}]


def _take_tile_check(state: State, seat: int, action: Action) -> str | None:
    kind = state.variant.tiles.kinds[state.spaces[state.discovery["space"]]]
    bridge, slot = action.get("bridge"), action.get("slot")
    problem = state.variant.take_problem(kind)
    if problem:
        return problem
    if kind in state.variant.office_kinds:
        if slot is not None:
            return "no_slot_for_this_tile"
        if bridge not in _free_gray_bridges(state, seat, kind):
            return "no_free_gray_bridge" if bridge is None else "bridge_not_free"
        return None
    if bridge is not None:
        return "no_bridge_for_this_tile"
    if kind == "treasure_upgrade":
        slots = _upgradable_slots(state.players[seat])
        if slot is None:
            return "slot_required" if slots else None  # R#23: wasted when none can
        return None if slot in slots else "slot_cannot_develop"
    if slot is not None:
        return "no_slot_for_this_tile"
    if kind == "trade_agreement" and len(state.players[seat].trade_agreements) >= _MAX_AGREEMENTS:
        return "no_free_wooden_bridge"
    return None


def _take_tile_perform(state: State, seat: int, action: Action, events: list[Event]) -> None:
    player = state.players[seat]
    space = state.discovery["space"]
    ship = state.discovery["ship"]
    tile = state.spaces[space]
    state.spaces[space] = None
    state.seen[space] = ()
    player.ship_at[ship] = None  # the voyage ends; the ship goes back to stock
    player.ship_ap[ship] = 0
    state.discovery = None
    state.phase = "main"
    r, c = state.variant.geometry.spaces[space]
    data = {"space": [r, c], "tile": state.variant.tiles.public(tile)}
    kind = state.variant.tiles.kinds[tile]
    effect = _use_branch_office if kind in state.variant.office_kinds else _TILE_EFFECTS[kind]
    effect(state, seat, tile, action, data)
    event(events, "tile_taken", seat, **data)
    if "from" in data:
        event(
            events, "developed", seat, slot=data["slot"], **{"from": data.pop("from"), "to": data.pop("to")}
        )
    if state.variant.tiles.kinds[tile] == "treasure_gold":
        event(events, "gold_received", seat, amount=_GOLD_TREASURE, reason="treasure")


def _use_branch_office(state: State, seat: int, tile, action: Action, data) -> None:
    state.players[seat].set_branch_office(action["bridge"] - 1, tile)
    data["bridge"] = action["bridge"]


def _use_trade_agreement(state: State, seat: int, tile, action: Action, data) -> None:
    state.players[seat].add_trade_agreement(tile)


def _use_upgrade(state: State, seat: int, tile, action: Action, data) -> None:
    state.removed = state.removed + [tile]
    slot = action.get("slot")
    if slot is not None:
        data["slot"] = slot
        data["from"], data["to"] = develop_slot(state.players[seat], slot - 1)


def _use_gold(state: State, seat: int, tile, action: Action, data) -> None:
    state.removed = state.removed + [tile]
    state.players[seat].gold += _GOLD_TREASURE


_TILE_EFFECTS = {
    "branch_office": _use_branch_office,
    "trade_agreement": _use_trade_agreement,
    "treasure_upgrade": _use_upgrade,
    "treasure_gold": _use_gold,
}


def _return_tile_candidates(state: State, seat: int) -> list[Action]:
    return [{"type": "return_tile"}]


def _return_tile_check(state: State, seat: int, action: Action) -> str | None:
    return None


def _return_tile_perform(state: State, seat: int, action: Action, events: list[Event]) -> None:
    r, c = state.variant.geometry.spaces[state.discovery["space"]]
    state.discovery = None
    state.phase = "main"
    event(events, "tile_returned", seat, space=[r, c])


SPECS = [
    ActionSpec(
        "move_ship",
        {"ship": SHIP, "to": Square(ROWS, COLS, "an orthogonally adjacent sea square")},
        _move_ship_candidates,
        _move_ship_check,
        _move_ship_perform,
        "Move a ship one square (1 AP).",
    ),
    ActionSpec(
        "discover",
        {"ship": SHIP, "space": Square(ROWS, COLS, "an adjacent island space with a tile")},
        _discover_candidates,
        _discover_check,
        _discover_perform,
        "Look at an adjacent island tile (1 AP); then take it or return it.",
    ),
    ActionSpec(
        "take_tile",
        {
            "bridge": Optional(IntRange(1, BRIDGES, "a free gray bridge (branch office)")),
            "slot": Optional(IntRange(1, SLOTS, "the inhabitant to develop (upgrade treasure)")),
        },
        _take_tile_candidates,
        _take_tile_check,
        _take_tile_perform,
        "Use the discovered tile; the ship returns to stock.",
    ),
    ActionSpec(
        "return_tile",
        {},
        _return_tile_candidates,
        _return_tile_check,
        _return_tile_perform,
        "Put the discovered tile back face down.",
    ),
]
