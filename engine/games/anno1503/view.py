"""What one seat (or a spectator, ``viewer=None``) may see.

A pure function of public information plus the viewer's own secrets: his
hand, and the identity of tiles he looked at on their current space. Never
the generator, the reserve/box order or content, other hands, or the queue.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .data import ISLAND_IDS, ISLANDS

if TYPE_CHECKING:
    from .state import State


def _space_view(state: State, geo, index, viewer):
    tile = state.spaces[index]
    r, c = geo.spaces[index]
    if tile is None:
        shown = None
    elif viewer is not None and viewer in state.seen[index]:
        shown = state.variant.tiles.public(tile)
    else:
        shown = {"back": state.variant.tiles.backs[tile]}
    # Who looked is public: everyone at the table sees a ship discover a tile.
    return {"space": [r, c], "mark": geo.marks[index], "tile": shown, "seen_by": list(state.seen[index])}


def _island_template(island_id):
    island = ISLANDS[island_id]
    return {
        "id": island_id,
        "colour": island["colour"],
        "production": {str(n): island["production"][n] for n in range(1, 6)},
        "gray_bridges": list(island["gray_bridges"]),
    }


# Printed islands never change: built once, copied per view (a view is the
# caller's to edit).
_ISLANDS = [_island_template(island_id) for island_id in ISLAND_IDS]


def _island(seat: int):
    t = _ISLANDS[seat]
    return {
        "id": t["id"],
        "colour": t["colour"],
        "production": dict(t["production"]),
        "gray_bridges": list(t["gray_bridges"]),
    }


def _player_view(state: State, seat: int, viewer):
    p = state.players[seat]
    held = state.variant.goals(p)
    out = {
        "seat": seat,
        "name": None,
        "gold": p.gold,
        "victory_points": sum(held.values()),
        "goals": held,
    }
    if seat == viewer:
        out["hand"] = dict(p.hand)
    else:
        out["hand_size"] = p.hand_size()
    out["island"] = _island(seat)
    # The public part of the player's dump (state.Player.dump), tiles shown face up.
    out["slots"] = list(p.slots)
    out["buildings"] = list(p.buildings)
    public = state.variant.tiles.public
    out["branch_offices"] = {
        str(b + 1): (public(t) if t is not None else None) for b, t in enumerate(p.branch_offices)
    }
    out["trade_agreements"] = [public(t) for t in p.trade_agreements]
    out["ships"] = p.ships_dump()
    out["turn"] = p.turn_dump()
    state.variant.view_player(p, seat == viewer, out)
    return out


def _choice_view(state: State):
    choice = state.choice
    if choice is None:
        return None
    out = dict(choice)
    if choice["kind"] in state.variant.space_choices:
        out["options"] = [list(state.variant.geometry.spaces[i]) for i in choice["options"]]
    else:
        out["options"] = [dict(o) if isinstance(o, dict) else o for o in choice["options"]]
    return out


def build_view(state: State, viewer, to_act):
    geo = state.variant.geometry
    discovery = None
    if state.discovery is not None:
        space = state.discovery["space"]
        discovery = {"ship": state.discovery["ship"], "space": list(geo.spaces[space])}
        if viewer is not None and viewer == state.active:
            discovery["tile"] = state.variant.tiles.public(state.spaces[space])
    out = {
        "game": "anno1503",
        "options": dict(state.options),
        "turn": state.turn,
        "start_player": state.start_player,
        "active": state.active,
        "phase": state.phase,
        "num_players": state.num_players,
        "to_act": to_act,
        # Seats still to resolve the current roll or event, in turn order:
        # everyone at the table sees who is still to take a card or pay.
        "queue": list(state.queue),
        "last_roll": dict(state.last_roll),
        "choice": _choice_view(state),
        "stacks": dict(state.stacks),
        "buildings": dict(state.buildings),
        "reserve_size": len(state.reserve),
        # Used treasures were shown when taken, so they are public knowledge.
        "removed": [state.variant.tiles.public(t) for t in state.removed],
        "spaces": [_space_view(state, geo, i, viewer) for i in range(len(geo.spaces))],
        "discovery": discovery,
        "winner": state.winner,
        "players": [_player_view(state, seat, viewer) for seat in range(state.num_players)],
    }
    state.variant.view_match(state, out)
    return out
