"""Turn flow: the production roll, events, the decision queue, passing play.

The production and event steps are resolved seat by seat in turn order from
the active player (R#11). ``state.queue`` holds the seats still to resolve;
``resume`` works through it and stops at the first decision with two or more
distinct options (setting ``phase`` and ``choice``). Every decision's
``perform`` finishes that seat's step and calls ``resume`` again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...kit import event
from .data import (
    COMMODITIES,
    EVENTS,
    FARTHEST_KEY,
    ISLAND_IDS,
    ISLANDS,
    RULES,
    SPACES,
)
from .rules import island_tiles, outside_red, owns, take, turn_order

if TYPE_CHECKING:
    from ...core import Event
    from .state import Player, State


_EVENT_FACE = RULES["event_die_face"]
_SHIP_AP = {int(n): ap for n, ap in RULES["ship_ap"].items()}
_SHIPYARD_FACTOR = RULES["building_effects"]["shipyard_ap_factor"]
_CHURCH_CARDS = RULES["building_effects"]["church_golden_times"]


def ship_ap(state: State, player: Player):
    """Full AP of one ship this turn: by player count, doubled by a Shipyard."""
    ap = _SHIP_AP[state.num_players]
    return ap * _SHIPYARD_FACTOR if owns(player, "shipyard") else ap


# --- starting and ending turns -------------------------------------------------


def begin_turn(state: State, events: list[Event]) -> None:
    """The active player's turn starts: R#20 win check, then the roll."""
    seat = state.active
    player = state.players[seat]
    player.reset_turn()
    full = ship_ap(state, player)
    player.ship_ap = [full if at is not None else 0 for at in player.ship_at]
    state.variant.on_turn_started(state, player)
    event(events, "turn_started", seat, turn=state.turn)
    if check_win(state, events):
        return
    roll_production(state, events)


def pass_turn(state: State, events: list[Event]) -> None:
    """Play passes to the left (next seat) and that turn begins."""
    event(events, "turn_ended", state.active)
    state.active = (state.active + 1) % state.num_players
    state.turn += 1
    state.phase = "main"
    begin_turn(state, events)


def check_win(state: State, events: list[Event]):
    """R#20: the active player wins as soon as he holds 3 victory points."""
    if state.winner is None and state.variant.has_won(state.players[state.active]):
        state.winner = state.active
        state.phase = "over"
        state.choice = None
        state.queue = []
        event(events, "game_over", None, winners=[state.active])
        return True
    return False


# --- the roll ---------------------------------------------------------------


def roll_production(state: State, events: list[Event]) -> None:
    value = state.rng.die()
    event(events, "die_rolled", state.active, purpose="production", value=value)
    order = turn_order(state)
    if value != _EVENT_FACE:
        state.last_roll = {"production": value, "event": None}
        state.queue = order
        resume(state, events)
        return
    face = state.rng.die()
    event(events, "die_rolled", state.active, purpose="event", value=face)
    name = EVENTS[face]
    state.last_roll = {"production": value, "event": face}
    event(events, "event_drawn", state.active, event=name)
    if name == "golden_times":
        # the Church owner takes a second commodity right after his first
        order = [s for s in order for _ in range(_CHURCH_CARDS if owns(state.players[s], "church") else 1)]
    state.queue = order
    resume(state, events)


def current_step(state: State):
    """``"production"`` or the event name being resolved."""
    face = state.last_roll.get("event")
    return "production" if face is None else EVENTS[face]


def resume(state: State, events: list[Event]) -> None:
    """Resolve queued seats until one must decide; then ``main``."""
    resolve = _RESOLVERS[current_step(state)]
    queue = state.queue
    while queue:
        seat = queue.pop(0)
        if resolve(state, seat, events):
            return
    state.phase = "main"
    state.choice = None


def ask(state, seat, phase, kind, options, **extra) -> None:
    state.phase = phase
    state.choice = {"seat": seat, "kind": kind, "options": tuple(options), **extra}


# --- production -------------------------------------------------------------


def production_options(state: State, seat: int, number):
    """(options, branch commodity) for ``seat`` on production ``number``
    (1-5): the commodities it may take, a crowned branch's twice."""
    player = state.players[seat]
    home = ISLANDS[ISLAND_IDS[seat]]["production"][number]
    stacks = state.stacks
    tile = player.branch_offices[number - 1]
    branch = state.variant.tiles.commodity[tile] if tile is not None else None
    if home == "?":
        # a branch office on the ? bridge (a variant's) adds its commodity
        return [c for c in COMMODITIES if stacks[c] > 0] + (
            [branch] if branch and stacks[branch] else []
        ), branch
    options = [c for c in COMMODITIES if stacks[c] > 0 and c in (home, branch)]
    if branch is not None and state.variant.branch_counts_twice(tile) and stacks[branch] > 0:
        options.append(branch)
    return options, branch


def _resolve_production(state: State, seat: int, events: list[Event]):
    options, branch = production_options(state, seat, state.last_roll["production"])
    if len(options) >= 2:
        ask(state, seat, "production", "production", options, branch=branch)
        return True
    if options:
        give(state, seat, options[0], "branch_office" if options[0] == branch else "production", events)
    else:
        number = state.last_roll["production"]
        home = ISLANDS[ISLAND_IDS[seat]]["production"][number]
        event(events, "production_missed", seat, commodity=None if home == "?" else home)
    return False


def give(state: State, seat: int, commodity, source, events: list[Event]) -> None:
    take(state, state.players[seat], commodity)
    event(events, "commodity_taken", seat, commodity=commodity, source=source)


# --- golden times -----------------------------------------------------------


def _resolve_golden_times(state: State, seat: int, events: list[Event]):
    options = [c for c in COMMODITIES if state.stacks[c] > 0]
    if len(options) >= 2:
        ask(state, seat, "golden_times", "golden_times", options)
        return True
    if options:
        give(state, seat, options[0], "golden_times", events)
    else:
        event(events, "production_missed", seat, commodity=None)
    return False


# --- pirates ----------------------------------------------------------------


def tile_loss_options(player: Player):
    """Distinct tiles a pirate victim may give up: each branch office, a TA."""
    out = [
        {"tile": "branch_office", "bridge": b + 1}
        for b, t in enumerate(player.branch_offices)
        if t is not None
    ]
    if player.trade_agreements:
        out.append({"tile": "trade_agreement"})
    return out


def _settled_by_protection_or_gold(state: State, seat: int, owed, shield, reason, events: list[Event]):
    """Pirates and fire alike: nothing owed, a protecting building, or paying
    in full settles the event (R#14: no partial payment). False when the
    seat cannot pay and must lose something instead."""
    player = state.players[seat]
    if owed == 0:
        return True
    if owns(player, shield):
        event(events, "protected", seat, building=shield)
        return True
    if player.gold >= owed:
        player.gold -= owed
        event(events, "gold_paid", seat, amount=owed, reason=reason)
        return True
    return False


def _resolve_pirates(state: State, seat: int, events: list[Event]):
    player = state.players[seat]
    if _settled_by_protection_or_gold(state, seat, island_tiles(player), "smithy", "pirates", events):
        return False
    options = tile_loss_options(player)
    if len(options) >= 2:
        ask(state, seat, "pirates", "lose_tile", options)
        return True
    return lose_tile(state, seat, options[0], events)


def lose_tile(state: State, seat: int, option, events: list[Event]):
    """Remove the tile, shuffle it into the reserve, place the top tile.

    Returns True when the reserve placement waits for the active player.
    """
    player = state.players[seat]
    if option["tile"] == "branch_office":
        bridge = option["bridge"]
        tile = player.branch_offices[bridge - 1]
        player.set_branch_office(bridge - 1, None)
        event(events, "tile_lost", seat, tile=state.variant.tiles.public(tile), bridge=bridge)
    else:
        tile = player.pop_trade_agreement()
        event(events, "tile_lost", seat, tile=state.variant.tiles.public(tile))
    if state.variant.owns_tile(tile):
        return state.variant.lose_own_tile(state, seat, tile, events)
    state.reserve = state.reserve + [tile]  # a new list: clones share the old one
    state.rng.shuffle(state.reserve)
    return place_from_reserve(state, events)


def farthest_free_spaces(state: State):
    """R#13: free island spaces (any mark) that tie as farthest from start."""
    # reserve tiles stay on the main board; a variant may close spaces
    closed = state.variant.closed_spaces
    free = [i for i, t in enumerate(state.spaces[: len(SPACES)]) if t is None and i not in closed]
    if not free:
        return []
    best = max(FARTHEST_KEY[i] for i in free)
    return [i for i in free if FARTHEST_KEY[i] == best]


def place_from_reserve(state: State, events: list[Event]):
    candidates = farthest_free_spaces(state)
    if not candidates or not state.reserve:
        return False
    if len(candidates) >= 2:
        ask(state, state.active, "reserve_placement", "reserve_placement", candidates)
        return True
    put_reserve_tile(state, candidates[0], events)
    return False


def put_reserve_tile(state: State, space, events: list[Event]) -> None:
    state.spaces[space] = state.reserve[0]
    state.reserve = state.reserve[1:]
    state.seen[space] = ()
    r, c = state.variant.geometry.spaces[space]
    event(events, "reserve_tile_placed", state.active, space=[r, c])


# --- fire -------------------------------------------------------------------


def _resolve_fire(state: State, seat: int, events: list[Event]):
    owed = outside_red(state.players[seat])
    if not _settled_by_protection_or_gold(state, seat, owed, "fire_brigade", "fire", events):
        remove_last_inhabitant(state, seat, events)
    return False


def remove_last_inhabitant(state: State, seat: int, events: list[Event]) -> None:
    """Slots fill strictly in order (R#3): the last occupied is the newest."""
    player = state.players[seat]
    index = max(i for i, k in enumerate(player.slots) if k is not None)
    kind = player.slots[index]
    player.set_slot(index, None)
    data: dict[str, Any] = {"slot": index + 1, "kind": kind}
    under = index - (len(player.slots) - len(player.buildings))
    building = player.buildings[under] if under >= 0 else None
    if building is not None:
        player.set_building(under, None)
        state.buildings = {**state.buildings, building: state.buildings[building] + 1}
        data["building"] = building
    event(events, "inhabitant_lost", seat, **data)


_RESOLVERS = {
    "production": _resolve_production,
    "golden_times": _resolve_golden_times,
    "pirates": _resolve_pirates,
    "fire": _resolve_fire,
}
