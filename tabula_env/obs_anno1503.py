"""Anno 1503's observation groups, from one seat's view.

- ``game`` (1-D): turn, phase, active and start seat, last roll, pending
  choice (whether it is the viewer's, its options), discovery, reserve size,
  whether the viewer is to act.
- ``supply`` (1-D): commodity stacks, public buildings left, then each
  variant's supply features (``VARIANT_PARTS``).
- ``sea`` (rows x cols x channels): island space, back mark, a tile lying
  there (its back; its kind when face up to the viewer), whether the viewer
  has looked at it, and each seat's ships (seat-relative channels).
- ``players`` (seats x features, the viewer first): gold, victory points,
  goals, hand (the viewer's own counts; zeros for the others), hand size,
  inhabitants, public buildings, branch offices, trade agreements, ships,
  this turn's sales and buys, the home island's production, then each
  variant's player features.

Every variant's features are in every observation (zeros when the view has
no such part), so one observation layout serves all of the game's variants;
a variant's features live in its own module (``obs_anno1503_expansion``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

import engine

from . import obs_anno1503_expansion
from .features import number, one_hot, relative_players, seat_one_hot, seats_multi_hot

if TYPE_CHECKING:
    from typing import Any


if TYPE_CHECKING:
    from engine.core import View


# The variants' feature modules (``supply(view)``, ``player(entry)``, ``GOALS``, ``TILE_KINDS``,
# ``CHOICE_KINDS``, ``PHASES``), in layout order.
VARIANT_PARTS = (obs_anno1503_expansion,)

_SPECS: Any = engine.get_game("anno1503").action_specs  # parameter domains by name
COMMODITIES = _SPECS["sell"].params["commodity"].values
PUBLIC_BUILDINGS = _SPECS["place_pioneer"].params["building"].inner.values
CHOICE_OPTIONS = _SPECS["respond"].params["option"].values
_SEA = _SPECS["move_ship"].params["to"]
ROWS, COLS = _SEA.rows, _SEA.cols
INHABITANTS = ("pioneer", "settler", "citizen", "merchant")
# The base game's vocabularies; each variant's part adds its own kinds after them (its
# ``TILE_KINDS``, ``CHOICE_KINDS``; its ``PHASES`` before the match's end, which stays last).
TILE_KINDS = ("branch_office", "trade_agreement", "treasure_gold", "treasure_upgrade") + tuple(
    k for part in VARIANT_PARTS for k in part.TILE_KINDS
)
CHOICE_KINDS = (None, "production", "golden_times", "lose_tile", "reserve_placement") + tuple(
    k for part in VARIANT_PARTS for k in part.CHOICE_KINDS
)
PHASES = (
    ("main", "tile_decision", "discard") + tuple(p for part in VARIANT_PARTS for p in part.PHASES) + ("over",)
)
GOALS = ("merchants", "public_buildings", "trade_agreements") + tuple(
    g for part in VARIANT_PARTS for g in part.GOALS
)
ISLANDS = "ABCD"
BRIDGES = ("1", "2", "3", "4", "5")


def _game(view: View, seat: int, n):
    roll = view.get("last_roll") or {}
    choice = view.get("choice") or {}
    # Options are names (commodities, responses) or squares / tiles (then the mask says it all).
    options = {o for o in choice.get("options") or () if type(o) is str}
    return (
        [number(view["turn"])]
        + one_hot(view["phase"], PHASES)
        + seat_one_hot(view.get("active"), seat, n)
        + seat_one_hot(view.get("start_player"), seat, n)
        + [number(roll.get("production")), 0.0 if roll.get("event") is None else 1.0]
        + one_hot(choice.get("kind"), CHOICE_KINDS)
        + [1.0 if choice.get("seat") == seat else 0.0]
        + [1.0 if o in options else 0.0 for o in CHOICE_OPTIONS]
        + [0.0 if view.get("discovery") is None else 1.0, number(view.get("reserve_size"))]
        + [1.0 if seat in view.get("to_act", ()) else 0.0]
    )


def _supply(view: View, seat: int, n):
    stacks, buildings = view["stacks"], view["buildings"]
    values = [number(stacks.get(c)) for c in COMMODITIES] + [
        number(buildings.get(b)) for b in PUBLIC_BUILDINGS
    ]
    for part in VARIANT_PARTS:
        values += part.supply(view)
    return values


def _sea(view: View, seat: int, n):
    kinds = len(TILE_KINDS)
    # Per square: space, mark, tile, back, kind (one-hot + other), seen by the viewer, ships per seat.
    channels = 6 + kinds + n
    flat = [0.0] * (ROWS * COLS * channels)  # filled as a flat list: far cheaper than numpy item writes
    for space in view["spaces"]:
        r, c = space["space"]
        at = (r * COLS + c) * channels
        flat[at], flat[at + 1] = 1.0, number(space.get("mark"))
        tile = space.get("tile")
        if tile:
            flat[at + 2], flat[at + 3] = 1.0, number(tile.get("back"))
            if "kind" in tile:
                kind = tile["kind"]
                flat[at + 4 + (TILE_KINDS.index(kind) if kind in TILE_KINDS else kinds)] = 1.0
        if seat in (space.get("seen_by") or ()):
            flat[at + 5 + kinds] = 1.0
    for i, player in enumerate(relative_players(view, seat)):
        for ship in player.get("ships") or ():
            if ship.get("at"):
                r, c = ship["at"]
                flat[(r * COLS + c) * channels + 6 + kinds + i] += 1.0
    return np.array(flat, dtype=np.float32).reshape(ROWS, COLS, channels)


def _ships(player: dict[str, Any]):
    out = []
    for ship in (player.get("ships") or [])[:2]:
        at = ship.get("at")
        out += [0.0, 0.0, 0.0] if at is None else [1.0, float(at[0]), float(at[1])]
        out.append(number(ship.get("ap")))
    return out + [0.0] * (8 - len(out))


def _player(player: dict[str, Any]):
    hand = player.get("hand")
    island = player.get("island") or {}
    production = island.get("production") or {}
    slots = player.get("slots") or []
    offices = player.get("branch_offices") or {}
    turn = player.get("turn") or {}
    sold = turn.get("sold") or {}
    return (
        [number(player.get("gold")), number(player.get("victory_points"))]
        + [number((player.get("goals") or {}).get(g)) for g in GOALS]
        + [number(hand.get(c)) if hand is not None else 0.0 for c in COMMODITIES]
        + [float(sum(hand.values())) if hand is not None else number(player.get("hand_size"))]
        + [x for slot in slots for x in one_hot(slot, INHABITANTS)]
        + [float((player.get("buildings") or []).count(b)) for b in PUBLIC_BUILDINGS]
        + [0.0 if offices.get(b) is None else 1.0 for b in BRIDGES]
        + [float(len(player.get("trade_agreements") or ()))]
        + _ships(player)
        + [number(sold.get(k)) for k in INHABITANTS]
        + [number(turn.get("buys")), number(turn.get("big_branch_office_used"))]
        + one_hot(island.get("id"), ISLANDS)
        + [x for b in BRIDGES for x in one_hot(production.get(b), COMMODITIES)]
        + [x for part in VARIANT_PARTS for x in part.player(player)]
    )


def encode(view: View, seat: int, num_players: int):
    """The groups of ``view`` for ``seat`` (see the module docstring)."""
    return {
        "game": _game(view, seat, num_players),
        "supply": _supply(view, seat, num_players),
        "sea": _sea(view, seat, num_players),
        "players": np.array([_player(p) for p in relative_players(view, seat)], dtype=np.float32),
        "seats": seats_multi_hot(view.get("to_act"), seat, num_players),
    }
