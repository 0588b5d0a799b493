"""The heuristic value of a Pirates & Aristocrats position for one seat.

Six goals: a match is won with one home goal (merchants, public buildings,
trade agreements) and two aristocrat goals (aristocrat buildings, lairs,
manor). The value rewards the best home goal and the best two aristocrat
goals, plus the means to reach them: gold (it buys luxuries, cannons and
the first manor step), hand cards the next steps need, cannons (lairs are
won by strength), aristocrat cards, and ships near a tile worth taking.
Damaged ships and a pending pirate battle count against the seat.
Like ``evaluate`` it reads only what the seat may know.
"""

from __future__ import annotations

import heapq
from copy import copy
from functools import cache
from typing import TYPE_CHECKING, Any

from ....games.anno1503.data import DEVELOP, PIONEER_COST, SHIP_COST, SPACES
from ....games.anno1503.expansion.data import (
    ARISTO_COSTS,
    COMBAT_DIE,
    EXPANSION_TILES,
    GEOMETRY,
    LUXURIES,
    MANOR_COSTS,
    MAX_LAIRS,
    PIRATE_SQUARES,
    REPAIR_COST,
    TILE_BACKS,
    TILE_KINDS,
    TILE_STRENGTH,
)
from ....games.anno1503.expansion.rules import cannons
from ..evaluate import kept_per_square
from ..hand import remember
from ..values import _INHABITANT, WIN, _inhabitant_value, merchant_progress

if TYPE_CHECKING:
    from typing import Any

    from ....games.anno1503.state import Player, State


# Entering a pirate square ends the ship's move (its AP drop to 0) and
# starts a battle: it costs about a turn's sailing, not one step. Without
# this the shortest way to a lair ran through a pirate square that the
# policy then refused to enter: the ship sat still next to the lairs.
_PIRATE_STEP = 3


def weighted_sea_steps(neighbours, pirate_squares, pirate_step=_PIRATE_STEP):
    """All-pairs sea distances where entering a pirate square costs ``pirate_step``."""
    out = {}
    for src in neighbours:
        dist = {src: 0}
        frontier = [(0, src)]
        while frontier:  # Dijkstra
            d, sq = heapq.heappop(frontier)
            if d > dist[sq]:
                continue
            for n in neighbours[sq]:
                nd = d + (pirate_step if n in pirate_squares else 1)
                if nd < dist.get(n, nd + 1):
                    dist[n] = nd
                    heapq.heappush(frontier, (nd, n))
        out[src] = dist
    return out


_STEPS = weighted_sea_steps(GEOMETRY.sea_neighbours, PIRATE_SQUARES)
_SHORE: dict[int, list[tuple[int, int]]] = {}
for _sq, _spaces in GEOMETRY.adjacent_spaces.items():
    for _i in _spaces:
        _SHORE.setdefault(_i, []).append(_sq)
_EXPANSION = frozenset(EXPANSION_TILES)
_BASE_SPACE_COUNT = len(SPACES)  # pirate-board spaces follow the main board's

_OUTSIDE = 0.15  # goals outside the best three still count a little
_THIRD_ARISTO = 0.3  # a spare aristocrat goal matters more: lairs are won by dice
_DONE_BONUS = 0.6
_GOLD_UNIT = 0.004  # gold is a means now (luxuries, cannons), not a goal
_GOLD_USEFUL = 30
_GOLD_SPARE = 0.0003  # hoarded gold buys cards: spend it
_CARD_UNIT = 0.07
_CANNON_UNIT = 0.07
_CANNON_USEFUL = 5  # strongest lair 6, with the die the 5th cannon still helps
_DAMAGED = 0.12
_PIRATE_RISK = 0.01  # about the 3 gold that pay most attacks off
_HAND_LIMIT = 5
# A needed card is worth this share of its step's gain (below 1: the step
# is taken when paid for); spare cards about what they sell for.
_SHARE = 0.8
_SPARE_LUXURY = 0.02
_SPARE_COMMODITY = 0.008
_FLEET = 0.15
_OFFICE_VALUE = {"branch_office": 0.1, "luxury_office": 0.2}
_LOCKED = 0.75
_LAIR_PROGRESS = (0.0, 0.6, 1.0)  # the first lair is worth more: it unlocks


@cache
def win_probability(mine, theirs):
    """Chance that strength ``mine`` beats ``theirs`` with the blue die (ties
    re-rolled); remembered (strengths are small whole numbers)."""
    wins = losses = 0
    for a in COMBAT_DIE:
        for d in COMBAT_DIE:
            wins += mine + a > theirs + d
            losses += mine + a < theirs + d
    return wins / (wins + losses) if wins + losses else 0.5


def progress(player: Player, extra_lairs=0):
    """Home goals then aristocrat goals, as fractions in [0, 1].

    The last manor step and the third aristocrat site need a defeated lair:
    without one, both goals count for less (so the first lair unlocks them).
    ``extra_lairs`` values a lair not yet won.
    """
    x = player.part
    lairs = min(len(x.lairs) + extra_lairs, MAX_LAIRS)
    locked = 1.0 if lairs else _LOCKED
    return (
        [
            merchant_progress(player.slots),
            (4 - player.buildings.count(None)) / 4,
            min(len(player.trade_agreements) / 3, 1.0),
        ],
        [min(len(x.buildings) / 3, 1.0) * locked, _LAIR_PROGRESS[lairs], x.manor / 9 * locked],
    )


def goal_score(home, aristo):
    home, aristo = sorted(home, reverse=True), sorted(aristo, reverse=True)
    done = sum(1 for v in home + aristo if v >= 1.0)
    rest = _OUTSIDE * (home[1] + home[2]) + _THIRD_ARISTO * aristo[2]
    return home[0] + aristo[0] + aristo[1] + rest + _DONE_BONUS * done


def _targets(player: Player, supply=None):
    """(cost, gain) of the seat's next steps towards goals still open: the
    next manor step, the aristocrat building closest to paid (of those left
    in the ``supply``), a ship (lairs are won at sea), a repair, and
    inhabitants while no home goal is held."""
    x = player.part
    home, aristo = progress(player)
    now = goal_score(home, aristo)
    card = _CARD_UNIT if len(x.cards) < 4 else 0.0
    out = []
    if x.manor < len(MANOR_COSTS):
        out.append((MANOR_COSTS[x.manor], goal_score(home, _bumped(aristo, 2, 1 / 9)) - now + card))
    # only buildings still to be had: cards kept for a building another
    # seat took are dead weight (the seat then never bought the card it lacked)
    open_costs = [
        ARISTO_COSTS[b]
        for b in ARISTO_COSTS
        if b not in x.buildings and (supply is None or supply.get(b, 0) > 0)
    ]
    if len(x.buildings) < 3 and open_costs:
        cost = max(open_costs, key=lambda c: sum(min(player.hand[k], n) for k, n in c))
        out.append((cost, goal_score(home, _bumped(aristo, 0, 1 / 3)) - now))
    if player.ship_at.count(None) == 2 and len(x.lairs) < MAX_LAIRS:
        out.append((SHIP_COST, _FLEET))
    if any(x.damaged):
        out.append((REPAIR_COST, _DAMAGED + _FLEET))
    if max(home) < 1.0:
        # inhabitants also buy goods: income the value does not show otherwise
        if player.slots.count(None):
            out.append((PIONEER_COST, _INHABITANT["pioneer"] + 0.05))
        for kind in ("pioneer", "settler", "citizen"):
            if kind in player.slots:
                to, cost = DEVELOP[kind]
                out.append((cost, _INHABITANT[to] - _INHABITANT[kind] + 0.1))
    return out


_HAND_MEMO: dict[tuple[Any, ...], float] = {}


def hand_value(player: Player, supply=None):
    """A card a next step needs is worth a share of the step's gain (the best
    such step); spares about what they sell for; past the limit, nothing.
    Remembered by all it reads (``_targets`` and ``progress`` included)."""
    x = player.part
    key = (
        tuple(player.slots),
        player.buildings.count(None),
        len(player.trade_agreements),
        x.manor,
        tuple(x.buildings),
        len(x.cards) < 4,
        len(x.lairs),
        tuple(x.damaged),
        player.ship_at.count(None) == 2,
        tuple(player.hand.items()),
        None if supply is None else tuple(supply.items()),
    )
    value = _HAND_MEMO.get(key)
    if value is None:
        value = remember(_HAND_MEMO, key, _hand_value(player, supply))
    return value


def _hand_value(player: Player, supply):
    needed: dict[str, Any] = {}
    worth: dict[str, Any] = {}
    for cost, gain in _targets(player, supply):
        n = sum(k for _, k in cost)
        for card, k in cost:
            needed[card] = max(needed.get(card, 0), k)
            worth[card] = max(worth.get(card, 0.0), _SHARE * gain / n)
    units = []
    for card, n in player.hand.items():
        spare = _SPARE_LUXURY if card in LUXURIES else _SPARE_COMMODITY
        for k in range(n):
            units.append(max(worth.get(card, 0.0), spare) if k < needed.get(card, 0) else spare)
    units.sort(reverse=True)
    return sum(units[:_HAND_LIMIT]) + 0.005 * sum(units[_HAND_LIMIT:])


def lair_value(player: Player, tile, home, aristo):
    """Expected worth of attacking lair ``tile``: won, a goal step; lost, a damaged ship."""
    if len(player.part.lairs) >= MAX_LAIRS:
        return 0.0
    return _lair_worth(
        win_probability(cannons(player), TILE_STRENGTH[tile]), _lair_gain(player, home, aristo)
    )


def _lair_gain(player: Player, home, aristo):
    return goal_score(*progress(player, extra_lairs=1)) - goal_score(home, aristo)


def _lair_worth(p, gain):
    return p * (gain + 0.05) - (1 - p) * _DAMAGED


def _bumped(values, i, delta):
    out = list(values)
    out[i] = min(out[i] + delta, 1.0)
    return out


@cache
def _tiles_in_play(num_players):
    """``[(tile, (expansion tile?, back), kind)]`` of the tiles whose backs
    ``num_players`` use, by id."""
    backs = set(range(2, num_players + 1))
    return [(t, (t in _EXPANSION, b), TILE_KINDS[t]) for t, b in enumerate(TILE_BACKS) if b in backs]


class TileBeliefs:
    """Expected worth of face-down tiles for ``seat``, by board and back."""

    def __init__(self, state: State, seat: int):
        player = state.players[seat]
        self.player = player
        self.home, self.aristo = progress(player)
        free_bridge = player.branch_offices.count(None) > 0
        gain_agreement = goal_score(_bumped(self.home, 2, 1 / 3), self.aristo) - goal_score(
            self.home, self.aristo
        )
        self.kind_values = {
            "branch_office": _OFFICE_VALUE["branch_office"] if free_bridge else 0.0,
            "luxury_office": _OFFICE_VALUE["luxury_office"] if free_bridge else 0.0,
            "trade_agreement": gain_agreement + 0.03 if len(player.trade_agreements) < 3 else 0.0,
            "treasure_gold": 0.1,
            "treasure_upgrade": 0.12 if any(k not in (None, "merchant") for k in player.slots) else 0.0,
        }
        self._lairs: dict[int, float] = {}
        self._gain: float | None = None
        known = set(state.removed)
        for p in state.players:
            known.update(t for t in p.branch_offices if t is not None)
            known.update(p.trade_agreements)
            known.update(p.part.lairs)
        self.mine = {}
        for i, tile in enumerate(state.spaces):
            if tile is not None and seat in state.seen[i]:
                known.add(tile)
                self.mine[i] = self.seen_value(tile)
        self.by_back = self._by_back(known, _tiles_in_play(state.num_players))
        self.squares: dict[Any, Any] = {}  # ship values per sea square (``kept_per_square``)

    def _by_back(self, known, tiles):
        """{(expansion tile?, back): the average worth of the ``tiles`` not ``known``}."""
        sums: dict[tuple[bool, int], tuple[float, int]] = {}
        values = self.kind_values
        for t, key, kind in tiles:
            if t not in known:
                value = self._lair_value(TILE_STRENGTH[t]) if kind == "lair" else values.get(kind, 0.0)
                total, n = sums.get(key, (0.0, 0))
                sums[key] = (total + value, n + 1)
        return {k: total / n for k, (total, n) in sums.items()}

    def without(self, space):
        """These beliefs as if the seat had not seen the tile on ``space``."""
        out = copy(self)
        out.mine = {i: v for i, v in self.mine.items() if i != space}
        out.squares = {}
        return out

    def seen_value(self, tile):
        """A known tile: one that costs the ship (taking sends it home) must be
        worth more than a ship, else it is left alone (no discover loops)."""
        value = self.tile_value(tile)
        if TILE_KINDS[tile] != "lair" and value <= _FLEET:
            return 0.0
        return value

    def tile_value(self, tile):
        if TILE_KINDS[tile] == "lair":
            return self._lair_value(TILE_STRENGTH[tile])
        return self.kind_values.get(TILE_KINDS[tile], 0.0)

    def _lair_value(self, strength):
        """``lair_value`` of a lair of ``strength``, kept per strength (every
        lair of the board is valued for the same player and progress)."""
        worth = self._lairs.get(strength)
        if worth is None:
            player = self.player
            if len(player.part.lairs) >= MAX_LAIRS:
                worth = 0.0
            else:
                if self._gain is None:  # the same for every lair
                    self._gain = _lair_gain(player, self.home, self.aristo)
                worth = _lair_worth(win_probability(cannons(player), strength), self._gain)
            self._lairs[strength] = worth
        return worth

    def space_value(self, state: State, space):
        tile = state.spaces[space]
        if tile is None:
            return 0.0
        if space in self.mine:
            return self.mine[space]
        return self.by_back.get((space >= _BASE_SPACE_COUNT, TILE_BACKS[tile]), 0.0)


def ship_value(state: State, player: Player, ship, beliefs):
    """A sound ship is worth having while lairs are to win; more near a good tile."""
    if player.part.damaged[ship]:
        return -_DAMAGED
    at = player.ship_at[ship]
    if at is None:
        return 0.0
    best = kept_per_square(state, at, beliefs, _best_tile)
    fleet = _FLEET if len(player.part.lairs) < MAX_LAIRS else 0.0
    return fleet + best


def _best_tile(state: State, at, beliefs):
    """The best tile's worth from ``at``, discounted by the distance."""
    spaces = state.spaces
    best = 0.0
    for space, decay in _reach(at):
        if spaces[space] is None:
            continue
        v = 0.7 * beliefs.space_value(state, space)
        if v > best:
            best = max(best, v * decay)
    return best


@cache
def _reach(at):
    """``[(space, decay)]`` from sea square ``at``: the share of a tile's worth
    left at the sea distance to its nearest shore square. Linear: the pirate
    board is far, every step there must count."""
    steps = _STEPS.get(at, {})
    return [
        (space, max(0.1, 1 - 0.04 * min(steps.get(sq, 99) for sq in shore)))
        for space, shore in _SHORE.items()
    ]


def _offices(player: Player):
    """Branch offices produce (luxury offices a luxury): income, not a goal."""
    held = [TILE_KINDS[t] for t in player.branch_offices if t is not None]
    return sum(_OFFICE_VALUE.get(kind, 0.0) for kind in held)


def _means(player: Player):
    """Gold, cannons and aristocrat cards: what the next goals are bought with."""
    x = player.part
    value = _GOLD_UNIT * min(player.gold, _GOLD_USEFUL) + _GOLD_SPARE * max(player.gold - _GOLD_USEFUL, 0)
    if len(x.lairs) < MAX_LAIRS:
        value += _CANNON_UNIT * min(cannons(player), _CANNON_USEFUL)
    return value + _CARD_UNIT * min(len(x.cards), 4)


def evaluate(state: State, seat: int, beliefs=None):
    if state.winner is not None:
        return WIN if state.winner == seat else -WIN
    player = state.players[seat]
    if beliefs is None:
        beliefs = TileBeliefs(state, seat)
    home, aristo = progress(player)
    value = goal_score(home, aristo) + _inhabitant_value(player) + _means(player) + _offices(player)
    value += hand_value(player, state.part.aristocrat_buildings)
    ships = [ship_value(state, player, s, beliefs) for s in (0, 1)]
    value += max(ships) + sum(min(v, 0.0) for v in ships)
    combat = state.part.combat
    if combat is not None and combat["seat"] == seat and combat["kind"] == "pirate":
        value -= _PIRATE_RISK
    return value


def public_strength(state: State, seat: int):
    player = state.players[seat]
    home, aristo = progress(player)
    return goal_score(home, aristo) + _inhabitant_value(player) + 0.04 * min(player.hand_size(), 5)
