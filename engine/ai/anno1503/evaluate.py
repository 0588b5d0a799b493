"""A heuristic value of an Anno 1503 position for one seat.

The value reads only what that seat may know: public holdings, its own
hand, and tiles it looked at (others count at the average of the unknown
tiles with that back). It rewards progress towards the three most advanced
of the five goals (a match is won with any three), cards by what they would
complete next, and ships by how close they are to a tile worth taking.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any

from ...games.anno1503.data import ADJACENT_SPACES, SEA_NEIGHBOURS, START, TILE_BACKS, TILE_KINDS
from .goals import AGREEMENTS, GOLD, OFFICES, goal_gain, goal_progress, goal_score, gold_buffer
from .hand import hand_value_with, reserve_steps
from .values import WIN, _inhabitant_value

if TYPE_CHECKING:
    from typing import Any

    from ...games.anno1503.state import Player, State


def sea_steps(neighbours=SEA_NEIGHBOURS):
    """All-pairs sea distances (the board has about 40 sea squares)."""
    out = {}
    for src in neighbours:
        dist = {src: 0}
        todo = [src]
        for sq in todo:
            for n in neighbours[sq]:
                if n not in dist:
                    dist[n] = dist[sq] + 1
                    todo.append(n)
        out[src] = dist
    return out


_STEPS = sea_steps()
# space index -> sea squares from which a ship may discover it
_SHORE: dict[int, list[tuple[int, int]]] = {}
for _sq, _spaces in ADJACENT_SPACES.items():
    for _i in _spaces:
        _SHORE.setdefault(_i, []).append(_sq)


# --- tiles ------------------------------------------------------------------


def kind_values(player: Player, progress):
    """What taking a tile of each kind is worth to ``player`` now."""
    free_bridge = player.branch_offices.count(None) > 0
    upgradable = any(k is not None and k != "merchant" for k in player.slots)
    return {
        "branch_office": goal_gain(progress, OFFICES, 1 / 4) + 0.05 if free_bridge else 0.0,
        "trade_agreement": (
            goal_gain(progress, AGREEMENTS, 1 / 3) + 0.04 if len(player.trade_agreements) < 3 else 0.0
        ),
        "treasure_gold": goal_gain(progress, GOLD, 0.4 * (1.5 - progress[GOLD])) + 0.05,
        "treasure_upgrade": 0.12 if upgradable else 0.0,
    }


@cache
def _tiles_in_play(num_players):
    """``[(tile, back, kind)]`` of the tiles whose backs ``num_players`` use, by id."""
    backs = set(range(2, num_players + 1))
    return [(t, b, TILE_KINDS[t]) for t, b in enumerate(TILE_BACKS) if b in backs]


class TileBeliefs:
    """What ``seat`` expects of each face-down tile: averages by back."""

    def __init__(self, state: State, seat: int):
        player = state.players[seat]
        # with the supply: an unreachable building goal must not hide the
        # tiles' worth (offices and agreements are then the goals left)
        values = kind_values(player, goal_progress(player, state.buildings))
        self.kind_values = values
        known = set(state.removed)
        for p in state.players:
            known.update(t for t in p.branch_offices if t is not None)
            known.update(p.trade_agreements)
        self.mine = {}
        for i, tile in enumerate(state.spaces):
            if tile is not None and seat in state.seen[i]:
                known.add(tile)
                self.mine[i] = values.get(TILE_KINDS[tile], 0.0)
        sums: dict[int, tuple[float, int]] = {}
        for t, b, kind in _tiles_in_play(state.num_players):
            if t not in known:
                total, n = sums.get(b, (0.0, 0))
                sums[b] = (total + values.get(kind, 0.0), n + 1)
        self.by_back = {b: total / n for b, (total, n) in sums.items()}
        # square_value's memo: sea square -> value, and under None the spaces it is for
        self.squares: dict[Any, Any] = {}

    def space_value(self, state: State, space):
        tile = state.spaces[space]
        if tile is None:
            return 0.0
        if space in self.mine:
            return self.mine[space]
        return self.by_back.get(TILE_BACKS[tile], 0.0)


def ship_value(state: State, player: Player, ship, beliefs):
    return square_value(state, player.ship_at[ship], beliefs)


# How fast a tile's worth fades with the sea distance to it. Gentle: late in
# a match the tiles left are far from the start square, and a ship sent to
# them must still look worth its three cards (else the match stalls).
_DISTANCE_DECAY = 0.12


def _shore_distances(steps=_STEPS, shore=_SHORE):
    """sea square -> [(space, 1 + decay x sea steps to its nearest shore square)]."""
    return {
        at: [
            (space, 1 + _DISTANCE_DECAY * min(dist.get(sq, 99) for sq in squares))
            for space, squares in shore.items()
        ]
        for at, dist in steps.items()
    }


_REACH = _shore_distances()


def kept_per_square(state: State, at, beliefs, best_tile):
    """``best_tile(state, at, beliefs)``, kept on ``beliefs.squares`` per sea
    square while the tiles lie as they did (``policy`` reuses one beliefs
    object for the positions its actions lead to). The beliefs' own values
    must not change meanwhile."""
    cache = beliefs.squares
    spaces = state.spaces
    if cache.get(None) != spaces:
        cache.clear()
        cache[None] = spaces.copy()
    best = cache.get(at)
    if best is None:
        best = cache[at] = best_tile(state, at, beliefs)
    return best


def square_value(state: State, at, beliefs):
    """What a ship on square ``at`` is worth: the best tile, discounted by the distance."""
    if at is None:
        return 0.0
    return kept_per_square(state, at, beliefs, _best_tile)


def _best_tile(state: State, at, beliefs):
    spaces = state.spaces
    best = 0.0
    for space, denominator in _REACH[at]:
        if spaces[space] is not None:
            best = max(best, 0.7 * beliefs.space_value(state, space) / denominator)
    return best


# --- the value -----------------------------------------------------------------


def _holdings(state: State, seat: int, beliefs, inhabitant):
    """``evaluate``'s parts that do not read the hand: ``(value before the
    hand, the best ship's value, goal progress, reserve steps)``."""
    player = state.players[seat]
    progress = goal_progress(player, state.buildings)
    if beliefs is None:
        beliefs = TileBeliefs(state, seat)
    value = goal_score(progress) + _inhabitant_value(player, inhabitant) + 0.005 * min(player.gold, 10)
    value += gold_buffer(player, player.gold)
    new_ship = square_value(state, START, beliefs) if player.ship_at.count(None) == 2 else 0.0
    steps = reserve_steps(player, progress, state.buildings, new_ship, inhabitant)
    ships = max(ship_value(state, player, 0, beliefs), ship_value(state, player, 1, beliefs))
    return value, ships, progress, steps


def evaluate(state: State, seat: int, beliefs=None, inhabitant=None):
    """The value of ``state`` for ``seat`` (own holdings only), with
    ``inhabitant`` the table of inhabitant values (medium's by default)."""
    if state.winner is not None:
        return WIN if state.winner == seat else -WIN
    value, ships, progress, steps = _holdings(state, seat, beliefs, inhabitant)
    return value + hand_value_with(state.players[seat], progress, steps) + ships


def evaluate_with_cards(state: State, seat: int, commodities, beliefs=None, inhabitant=None):
    """``(evaluate now, {commodity: evaluate with one more such card})`` for
    each of ``commodities``: only the hand's part is valued again. The cards
    are put in the hand and taken out again (no clone)."""
    if state.winner is not None:
        won = WIN if state.winner == seat else -WIN
        return won, dict.fromkeys(commodities, won)
    value, ships, progress, steps = _holdings(state, seat, beliefs, inhabitant)
    player = state.players[seat]
    hand = player.hand
    with_card = {}
    for c in commodities:
        hand[c] += 1
        try:
            with_card[c] = value + hand_value_with(player, progress, steps) + ships
        finally:
            hand[c] -= 1
    return value + hand_value_with(player, progress, steps) + ships, with_card


def public_strength(state: State, seat: int, inhabitant=None):
    """A seat's value from public information only (hand counted by size)."""
    player = state.players[seat]
    progress = goal_progress(player, state.buildings)
    return goal_score(progress) + _inhabitant_value(player, inhabitant) + 0.04 * min(player.hand_size(), 5)
