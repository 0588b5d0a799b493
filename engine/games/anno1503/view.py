"""What one seat (or a spectator, ``viewer=None``) may see.

A pure function of public information plus the viewer's own secrets: his
hand, and the identity of tiles he looked at on their current space. Never
the generator, the reserve/box order or content, other hands, or the queue.
"""

from .data import ISLAND_IDS, ISLANDS, TILE_BACKS, tile_public
from .xdata import geometry
from .rules import goals
from .state import SPACE_CHOICES
from .xdata import PIRATE_CARDS
from .xrules import cannons, x_goals


def _space_view(state, geo, index, viewer):
    tile = state.spaces[index]
    r, c = geo.spaces[index]
    if tile is None:
        shown = None
    elif viewer is not None and viewer in state.seen[index]:
        shown = tile_public(tile)
    else:
        shown = {"back": TILE_BACKS[tile]}
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


def _island(seat):
    t = _ISLANDS[seat]
    return {"id": t["id"], "colour": t["colour"], "production": dict(t["production"]),
            "gray_bridges": list(t["gray_bridges"])}


def _player_view(state, seat, viewer):
    p = state.players[seat]
    held = goals(p) if p.x is None else x_goals(p)
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
    out["branch_offices"] = {
        str(b + 1): (tile_public(t) if t is not None else None) for b, t in enumerate(p.branch_offices)
    }
    out["trade_agreements"] = [tile_public(t) for t in p.trade_agreements]
    out["ships"] = p.ships_dump()
    out["turn"] = p.turn_dump()
    if p.x is not None:
        out["aristocrat"] = _aristocrat_view(p, seat == viewer)
    return out


def _aristocrat_view(p, own):
    """The aristocrat island; the card hand only for its owner (others: a count)."""
    x = p.x
    out = {
        "manor": x["manor"], "cannons": x["cannons"], "cannon_strength": cannons(p),
        "lairs": [tile_public(t) for t in x["lairs"]], "buildings": list(x["buildings"]),
        "damaged": list(x["damaged"]), "turn": dict(x["turn"]),
    }
    if own:
        out["cards"] = list(x["cards"])
    else:
        out["cards_count"] = len(x["cards"])
    return out


def _expansion_view(state):
    """Public expansion piles: sizes of hidden decks, the open pirate discards."""
    x = state.x
    combat = x["combat"]
    if combat is not None:
        combat = dict(combat)
        if "space" in combat:
            combat["space"] = list(geometry(state).spaces[combat["space"]])
        if "tile" in combat:
            combat["tile"] = tile_public(combat["tile"])
        if "card" in combat:
            combat["card"] = dict(PIRATE_CARDS[combat["card"]])
    return {
        "aristocrat_buildings": dict(x["aristocrat_buildings"]),
        "expansion_reserve_size": len(x["expansion_reserve"]),
        "pirate_deck_size": len(x["pirate_deck"]),
        "pirate_discard": [dict(PIRATE_CARDS[c]) for c in x["pirate_discard"]],
        "aristocrat_deck_size": len(x["aristocrat_deck"]),
        "aristocrat_discard_size": len(x["aristocrat_discard"]),
        "combat": combat,
    }


def _choice_view(state):
    choice = state.choice
    if choice is None:
        return None
    out = dict(choice)
    if choice["kind"] in SPACE_CHOICES:
        out["options"] = [list(geometry(state).spaces[i]) for i in choice["options"]]
    else:
        out["options"] = [dict(o) if isinstance(o, dict) else o for o in choice["options"]]
    return out


def build_view(state, viewer, to_act):
    geo = geometry(state)
    discovery = None
    if state.discovery is not None:
        space = state.discovery["space"]
        discovery = {"ship": state.discovery["ship"], "space": list(geometry(state).spaces[space])}
        if viewer is not None and viewer == state.active:
            discovery["tile"] = tile_public(state.spaces[space])
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
        "removed": [tile_public(t) for t in state.removed],
        "spaces": [_space_view(state, geo, i, viewer) for i in range(len(geo.spaces))],
        "discovery": discovery,
        "winner": state.winner,
        "players": [_player_view(state, seat, viewer) for seat in range(state.num_players)],
    }
    if state.x is not None:
        out["expansion"] = _expansion_view(state)
    return out
