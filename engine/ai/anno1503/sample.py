"""Determinization: a full Anno 1503 state consistent with one seat's view.

The search must simulate with the game's own rules, which need a whole
state, but a seat may only use its view. This module fills in what the view
hides, drawing uniformly among the fillings consistent with it:

- other seats' hands: the commodity cards not in the stacks or the seat's
  own hand, dealt to the others to match their public hand sizes;
- face-down tiles: tiles of the used backs that the seat has not located
  (not seen on a space, not on an island, not removed) are dealt to the
  unseen spaces by the back each shows; the rest form the reserve, shuffled;
- the generator (future dice) gets a fresh seed.

Tiles another seat looked at get a sampled identity too, but their
``seen`` marks are kept, so simulated opponents act as if they knew them.
A variant's hidden parts (its cards, deck orders, its own tiles and
reserve) are filled in by the variant's AI hooks (``variant.BaseAI``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...games.anno1503 import data
from ...games.anno1503.variants import check_options
from .variants import ai_of_view

if TYPE_CHECKING:
    from ...core import View
    from ...rng import Rng


COMMODITIES = data.COMMODITIES
_STACK_SIZE = data.RULES["stack_size"]


def used_backs(num_players):
    return tuple(range(2, num_players + 1))


def located_tiles(view: View):
    """Tile ids the viewer can place: seen on a space, held, or removed."""
    known = {t["id"] for t in view["removed"]}
    for space in view["spaces"]:
        tile = space["tile"]
        if tile is not None and "id" in tile:
            known.add(tile["id"])
    discovery = view.get("discovery")
    if discovery and "tile" in discovery:
        known.add(discovery["tile"]["id"])
    for p in view["players"]:
        known.update(t["id"] for t in p["trade_agreements"])
        known.update(t["id"] for t in p["branch_offices"].values() if t is not None)
    return known


def unknown_tiles(view: View, ai):
    """Tile ids of the used backs whose place the viewer does not know."""
    backs = used_backs(view["num_players"])
    known = located_tiles(view)
    out = [t for t, b in enumerate(data.TILE_BACKS) if b in backs and t not in known]
    known |= ai.located_tiles(view)
    return out + ai.unknown_tiles(view, known, backs)


def _deal_hands(view: View, seat: int, rng: Rng, ai):
    pool = []
    own = view["players"][seat]["hand"]
    sizes = ai.stack_sizes
    for c in own:  # a variant may add card kinds (its stacks) to the keys
        pool.extend([c] * (sizes.get(c, _STACK_SIZE) - view["stacks"][c] - own[c]))
    rng.shuffle(pool)
    hands = []
    for p in view["players"]:
        if "hand" in p:
            hands.append(dict(p["hand"]))
            continue
        hand = dict.fromkeys(own, 0)
        for _ in range(p["hand_size"]):
            hand[pool.pop()] += 1
        hands.append(hand)
    return hands


def _deal_tiles(view: View, rng: Rng, ai):
    """(spaces dict, reserve, variant reserve) with unknown tiles dealt by back.

    Base tiles stay on the main board and in the reserve, a variant's own
    tiles on its own squares and in its reserve.
    """
    by_back: dict[int, list[int]] = {}
    own_by_back: dict[int, list[int]] = {}
    backs = ai.rules.tiles.backs
    for t in unknown_tiles(view, ai):
        piles = own_by_back if ai.is_own_tile(t) else by_back
        piles.setdefault(backs[t], []).append(t)
    for tiles in (*by_back.values(), *own_by_back.values()):
        rng.shuffle(tiles)
    spaces: dict[str, int | None] = {}
    discovery = view.get("discovery")
    for entry in view["spaces"]:
        r, c = entry["space"]
        tile = entry["tile"]
        if tile is None:
            spaces[f"{r},{c}"] = None
        elif "id" in tile:
            spaces[f"{r},{c}"] = tile["id"]
        elif discovery and "tile" in discovery and discovery["space"] == [r, c]:
            spaces[f"{r},{c}"] = discovery["tile"]["id"]
        else:
            piles = own_by_back if ai.is_own_square((r, c)) else by_back
            spaces[f"{r},{c}"] = piles[tile["back"]].pop()
    reserve = [t for tiles in by_back.values() for t in tiles]
    rng.shuffle(reserve)
    own_reserve = [t for tiles in own_by_back.values() for t in tiles]
    rng.shuffle(own_reserve)
    if len(reserve) != view["reserve_size"]:
        raise ValueError("the view's tiles do not add up; cannot determinize")
    ai.check_reserve(view, own_reserve)
    return spaces, reserve, own_reserve


def _player_dump(entry, hand, cards, ai):
    out = {
        "gold": entry["gold"],
        "hand": hand,
        "slots": list(entry["slots"]),
        "buildings": list(entry["buildings"]),
        "branch_offices": {
            b: (t["id"] if t is not None else None) for b, t in entry["branch_offices"].items()
        },
        "trade_agreements": [t["id"] for t in entry["trade_agreements"]],
        "ships": [dict(s) for s in entry["ships"]],
        "turn": entry["turn"],
    }
    part = ai.player_part(entry, cards)
    if part is not None:
        out[part[0]] = part[1]
    return out


def sample_dump(view: View, seat: int, rng: Rng, options=None):
    """A dump (DESIGN.md format) consistent with ``view``; ``rng`` draws the rest.

    Raises ``ValueError`` when the view cannot be completed (e.g. a variant
    with state this module does not know), so callers can fall back.
    """
    ai = ai_of_view(view)
    hands = _deal_hands(view, seat, rng, ai)
    spaces, reserve, own_reserve = _deal_tiles(view, rng, ai)
    backs = used_backs(view["num_players"])
    discovery = view.get("discovery")
    extra, cards = ai.top_level(view, seat, rng, own_reserve)
    return {
        "game": "anno1503",
        "rules_version": 1,
        "options": check_options(view["num_players"], options or view.get("options")),
        "num_players": view["num_players"],
        "seed": 0,
        "rng": rng.next64(),
        "turn": view["turn"],
        "start_player": view.get("start_player", 0),
        "active": view["active"],
        "phase": view["phase"],
        "last_roll": dict(view["last_roll"]),
        "queue": list(view.get("queue", ())),
        "choice": view["choice"],
        "stacks": dict(view["stacks"]),
        "buildings": dict(view["buildings"]),
        "spaces": spaces,
        "seen": {
            f"{s['space'][0]},{s['space'][1]}": list(s["seen_by"]) for s in view["spaces"] if s["seen_by"]
        },
        "reserve": reserve,
        "box": [t for t, b in enumerate(data.TILE_BACKS) if b not in backs] + ai.box_tiles(view, backs),
        "removed": [t["id"] for t in view["removed"]],
        "discovery": None
        if discovery is None
        else {"ship": discovery["ship"], "space": list(discovery["space"])},
        "winner": view["winner"],
        "players": [_player_dump(p, h, c, ai) for p, h, c in zip(view["players"], hands, cards)],
        **extra,
    }
