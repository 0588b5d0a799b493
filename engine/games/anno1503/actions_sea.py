"""Ships and island tiles: ``move_ship``, ``discover``, ``take_tile``,
``return_tile``.

A discovery costs 1 AP and shows the tile to the discoverer only (``seen``);
he then takes it (the voyage ends, the ship returns to stock) or returns it
face down (R#16, R#17). A pirate lair (expansion) is not taken: it is fought
(``attack_lair`` in ``xactions``) or returned (S3 §6.3).
"""

from ...core import ActionSpec
from ...params import IntRange, Optional, Square
from .data import ISLAND_IDS, ISLANDS, RULES, TILE_KINDS, tile_public
from .xdata import PIRATE_SQUARES, X_COLS, X_ROWS, geometry
from .xcombat import enter_pirate_square
from .actions_island import can_develop, develop_slot
from .events import event

_MAX_AGREEMENTS = RULES["max_trade_agreements"]
_GOLD_TREASURE = RULES["gold_treasure"]
_SHIP = IntRange(0, 1, "the ship (0 or 1)")


# --- move_ship --------------------------------------------------------------


def _move_candidates(state, seat):
    player = state.players[seat]
    out = []
    neighbours = geometry(state).sea_neighbours
    for ship, at in enumerate(player.ship_at):
        if at is not None and player.ship_ap[ship] > 0 and _ship_problem(player, ship) is None:
            for r, c in neighbours[at]:
                out.append({"type": "move_ship", "ship": ship, "to": [r, c]})
    return out


def _ship_problem(player, ship):
    if player.ship_at[ship] is None:
        return "ship_not_on_board"
    if player.x is not None and player.x["damaged"][ship]:
        return "ship_damaged"
    if player.ship_ap[ship] <= 0:
        return "no_action_points"
    return None


def _move_check(state, seat, action):
    player = state.players[seat]
    ship = action["ship"]
    problem = _ship_problem(player, ship)
    if problem:
        return problem
    if tuple(action["to"]) not in geometry(state).sea_neighbours[player.ship_at[ship]]:
        return "not_an_adjacent_sea_square"
    return None


def _move_perform(state, seat, action, events):
    player = state.players[seat]
    ship = action["ship"]
    before = player.ship_at[ship]
    player.ship_at[ship] = tuple(action["to"])
    player.ship_ap[ship] -= 1
    event(events, "ship_moved", seat, ship=ship, **{"from": list(before), "to": list(action["to"])})
    if player.x is not None:
        player.x["turn"]["sailed"] = True
        # ruling §2.14 #3: only entering a pirate square triggers it
        if player.ship_at[ship] in PIRATE_SQUARES:
            enter_pirate_square(state, seat, ship, events)


# --- discover ---------------------------------------------------------------


def _discover_candidates(state, seat):
    player = state.players[seat]
    spaces = state.spaces
    geo = geometry(state)
    out = []
    for ship, at in enumerate(player.ship_at):
        if at is not None and player.ship_ap[ship] > 0 and _ship_problem(player, ship) is None:
            for i in geo.adjacent_spaces[at]:
                if spaces[i] is not None:
                    r, c = geo.spaces[i]
                    out.append({"type": "discover", "ship": ship, "space": [r, c]})
    return out


def _discover_check(state, seat, action):
    player = state.players[seat]
    ship = action["ship"]
    problem = _ship_problem(player, ship)
    if problem:
        return problem
    geo = geometry(state)
    space = geo.space_index.get(tuple(action["space"]))
    if space is None or space not in geo.adjacent_spaces[player.ship_at[ship]]:
        return "not_adjacent_to_the_ship"
    if state.spaces[space] is None:
        return "no_tile_on_space"
    return None


def _discover_perform(state, seat, action, events):
    player = state.players[seat]
    ship = action["ship"]
    space = geometry(state).space_index[tuple(action["space"])]
    tile = state.spaces[space]
    x_turn = player.x["turn"] if player.x is not None else None
    if x_turn is not None and x_turn["free_discovery"]:
        x_turn["free_discovery"] = False  # the Explorer's first discovery is free
    else:
        player.ship_ap[ship] -= 1
    if x_turn is not None:
        x_turn["sailed"] = True
    if seat not in state.seen[space]:
        state.seen[space] = tuple(sorted(state.seen[space] + (seat,)))
    state.discovery = {"ship": ship, "space": space}
    state.phase = "tile_decision"
    events.append({
        "type": "tile_discovered", "seat": seat,
        "data": {"ship": ship, "space": list(action["space"]), "back": tile_public(tile)["back"]},
        "private": {str(seat): {"tile": tile_public(tile)}},
    })


# --- take_tile / return_tile --------------------------------------------------


def _free_gray_bridges(state, seat, kind="branch_office"):
    """Free bridges for an office; a luxury office may also use the ``?``
    number's bridge (§2.12: up to five offices)."""
    player = state.players[seat]
    island = ISLANDS[ISLAND_IDS[seat]]
    bridges = island["gray_bridges"]
    if kind == "luxury_office":
        bridges = tuple(n for n in range(1, 6) if n in bridges or island["production"][n] == "?")
    return [b for b in bridges if player.branch_offices[b - 1] is None]


def _upgradable_slots(player):
    return [i + 1 for i in range(len(player.slots)) if can_develop(player, i)]


def _take_candidates(state, seat):
    kind = TILE_KINDS[state.spaces[state.discovery["space"]]]
    player = state.players[seat]
    if kind in ("branch_office", "luxury_office"):
        return [{"type": "take_tile", "bridge": b} for b in _free_gray_bridges(state, seat, kind)]
    if kind == "lair":
        return []
    if kind == "trade_agreement" and len(player.trade_agreements) >= _MAX_AGREEMENTS:
        return []
    if kind == "treasure_upgrade":
        slots = _upgradable_slots(player)
        if slots:
            return [{"type": "take_tile", "slot": s} for s in slots]
    return [{"type": "take_tile"}]


def _take_check(state, seat, action):
    kind = TILE_KINDS[state.spaces[state.discovery["space"]]]
    bridge, slot = action.get("bridge"), action.get("slot")
    if kind == "lair":
        return "lair_is_fought_not_taken"  # S3 §6.3: attack_lair or return_tile
    if kind in ("branch_office", "luxury_office"):
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


def _take_perform(state, seat, action, events):
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
    r, c = geometry(state).spaces[space]
    data = {"space": [r, c], "tile": tile_public(tile)}
    _TILE_EFFECTS[TILE_KINDS[tile]](state, seat, tile, action, data)
    event(events, "tile_taken", seat, **data)
    if "from" in data:
        event(events, "developed", seat, slot=data["slot"], **{"from": data.pop("from"), "to": data.pop("to")})
    if TILE_KINDS[tile] == "treasure_gold":
        event(events, "gold_received", seat, amount=_GOLD_TREASURE, reason="treasure")


def _use_branch_office(state, seat, tile, action, data):
    state.players[seat].set_branch_office(action["bridge"] - 1, tile)
    data["bridge"] = action["bridge"]


def _use_trade_agreement(state, seat, tile, action, data):
    state.players[seat].add_trade_agreement(tile)


def _use_upgrade(state, seat, tile, action, data):
    state.removed = state.removed + [tile]
    slot = action.get("slot")
    if slot is not None:
        data["slot"] = slot
        data["from"], data["to"] = develop_slot(state.players[seat], slot - 1)


def _use_gold(state, seat, tile, action, data):
    state.removed = state.removed + [tile]
    state.players[seat].gold += _GOLD_TREASURE


_TILE_EFFECTS = {
    "branch_office": _use_branch_office,
    "luxury_office": _use_branch_office,
    "trade_agreement": _use_trade_agreement,
    "treasure_upgrade": _use_upgrade,
    "treasure_gold": _use_gold,
}


def _return_candidates(state, seat):
    return [{"type": "return_tile"}]


def _return_check(state, seat, action):
    return None


def _return_perform(state, seat, action, events):
    r, c = geometry(state).spaces[state.discovery["space"]]
    state.discovery = None
    state.phase = "main"
    event(events, "tile_returned", seat, space=[r, c])


SPECS = [
    ActionSpec("move_ship", {"ship": _SHIP, "to": Square(X_ROWS, X_COLS, "an orthogonally adjacent sea square")},
               _move_candidates, _move_check, _move_perform,
               "Move a ship one square (1 AP)."),
    ActionSpec("discover", {"ship": _SHIP, "space": Square(X_ROWS, X_COLS, "an adjacent island space with a tile")},
               _discover_candidates, _discover_check, _discover_perform,
               "Look at an adjacent island tile (1 AP); then take it or return it."),
    ActionSpec("take_tile",
               {"bridge": Optional(IntRange(1, 5, "a free gray bridge (branch office)")),
                "slot": Optional(IntRange(1, 7, "the inhabitant to develop (upgrade treasure)"))},
               _take_candidates, _take_check, _take_perform,
               "Use the discovered tile; the ship returns to stock."),
    ActionSpec("return_tile", {}, _return_candidates, _return_check, _return_perform,
               "Put the discovered tile back face down."),
]
