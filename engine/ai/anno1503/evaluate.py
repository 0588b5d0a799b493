"""A heuristic value of an Anno 1503 position for one seat.

The value reads only what that seat may know: public holdings, its own
hand, and tiles it looked at (others count at the average of the unknown
tiles with that back). It rewards progress towards the three most advanced
of the five goals (a match is won with any three), cards by what they would
complete next, and ships by how close they are to a tile worth taking.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...games.anno1503.data import (
    ADJACENT_SPACES,
    BUYER_OF,
    COMMODITIES,
    DEVELOP,
    GOALS,
    PIONEER_COST,
    SEA_NEIGHBOURS,
    SELL,
    SHIP_COST,
    START,
    TILE_BACKS,
    TILE_KINDS,
)
from ...games.anno1503.rules import (
    citizen_merchant_count,
    island_tiles,
    outside_red,
    owns,
    pioneer_settler_count,
)
from .values import _INHABITANT, WIN, _inhabitant_value, merchant_progress

if TYPE_CHECKING:
    from typing import Any

    from ...games.anno1503.state import Player, State


_NEED = dict(GOALS)
GOAL_NAMES = tuple(name for name, _ in GOALS)
GOLD, OFFICES, AGREEMENTS, BUILDINGS, MERCHANTS = range(5)
_HAND_LIMIT = 5
_OUTSIDE_TOP3 = 0.15  # progress on a goal outside the best three still has some value
_VP_BONUS = 0.6


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


def _buildings_reachable(player: Player, supply):
    """Owned buildings plus types still in the supply that the seat lacks."""
    owned = [b for b in player.buildings if b is not None]
    return len(owned) + sum(1 for b, n in supply.items() if n > 0 and b not in owned)


def gold_progress(gold):
    # convex: early gold is spent freely, the last coins before 30 are kept
    return min(gold / _NEED["gold"], 1.0) ** 1.5


# Coins above 30 keep the gold goal through a pirate raid or a fire (each
# costs gold unless a Smithy / Fire Brigade protects): worth a little each.
_BUFFER_UNIT = 0.012


def gold_buffer(player: Player, gold):
    """The value of ``gold`` above the goal as insurance against raids and fires."""
    spare = gold - _NEED["gold"]
    if spare <= 0:
        return 0.0
    owed = 0
    if not owns(player, "smithy"):
        owed = island_tiles(player)
    if not owns(player, "fire_brigade"):
        owed = max(owed, outside_red(player))
    return _BUFFER_UNIT * min(spare, owed)


def goal_progress(player: Player, supply=None):
    """Five fractions in [0, 1], in GOALS order.

    With the building ``supply`` given, a public-building goal that can no
    longer be reached counts for little, so the seat turns to another goal.
    """
    offices = 5 - player.branch_offices.count(None)
    buildings: float = 4 - player.buildings.count(None)
    if supply is not None and _buildings_reachable(player, supply) < _NEED["public_buildings"]:
        buildings *= 0.3
    return [
        gold_progress(player.gold),
        min(offices / _NEED["branch_offices"], 1.0),
        min(len(player.trade_agreements) / _NEED["trade_agreements"], 1.0),
        min(buildings / _NEED["public_buildings"], 1.0),
        merchant_progress(player.slots),
    ]


def goal_score(progress):
    ranked = sorted(progress, reverse=True)
    done = sum(1 for x in progress if x >= 1.0)
    return ranked[0] + ranked[1] + ranked[2] + _OUTSIDE_TOP3 * (ranked[3] + ranked[4]) + _VP_BONUS * done


def goal_gain(progress, goal, delta):
    """How much the goal score changes when ``goal`` progresses by ``delta``."""
    changed = list(progress)
    changed[goal] = max(0.0, min(changed[goal] + delta, 1.0))
    return goal_score(changed) - goal_score(progress)


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
        backs = set(range(2, state.num_players + 1))
        for t, b in enumerate(TILE_BACKS):
            if b in backs and t not in known:
                total, n = sums.get(b, (0.0, 0))
                sums[b] = (total + values.get(TILE_KINDS[t], 0.0), n + 1)
        self.by_back = {b: total / n for b, (total, n) in sums.items()}

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


def square_value(state: State, at, beliefs):
    """What a ship on square ``at`` is worth: the best tile, discounted by the distance."""
    if at is None:
        return 0.0
    steps = _STEPS[at]
    best = 0.0
    for space, shore in _SHORE.items():
        if state.spaces[space] is None:
            continue
        v = beliefs.space_value(state, space)
        if v <= best:
            continue
        d = min(steps.get(sq, 99) for sq in shore)
        best = max(best, 0.7 * v / (1 + _DISTANCE_DECAY * d))
    return best


# --- cards --------------------------------------------------------------------


def _targets(player: Player, progress, supply=None, new_ship=0.12, inhabitant=None):
    """(cost, gain) of what the cards in hand would pay for next; ``new_ship``
    is what a ship built now would be worth, ``inhabitant`` the table of
    inhabitant values (medium's by default)."""
    inhabitant = inhabitant or _INHABITANT
    out = []
    slots = player.slots
    free = slots.count(None)
    if free and pioneer_settler_count(player) < 4:
        gain = inhabitant["pioneer"]
        if 7 - free >= 3:  # the next slot carries a public building
            gain += goal_gain(progress, BUILDINGS, _building_step(player, supply))
        out.append((PIONEER_COST, gain))
    for kind in ("pioneer", "settler", "citizen"):
        if kind not in slots:
            continue
        if kind == "settler" and citizen_merchant_count(player) >= 3:
            continue
        to, cost = DEVELOP[kind]
        developed = list(slots)
        developed[slots.index(kind)] = to
        credit = merchant_progress(developed) - progress[MERCHANTS]
        step = inhabitant[to] - inhabitant[kind]
        out.append((cost, goal_gain(progress, MERCHANTS, credit) + step))
    if player.ship_at.count(None) == 2:
        out.append((SHIP_COST, new_ship))
    return out


def _building_step(player: Player, supply):
    """The building goal's progress for one more building (as ``goal_progress``)."""
    if supply is not None and _buildings_reachable(player, supply) < _NEED["public_buildings"]:
        return 0.3 / _NEED["public_buildings"]
    return 1 / _NEED["public_buildings"]


# A card not yet sold is worth this share of what selling it would add: the
# sale is then better than holding (no hoarding at 29 gold), and a goal
# completed now beats gold that would take turns of sales to collect.
_UNSOLD_SHARE = 0.5
# Each further sale is further away (one card per inhabitant and turn): a
# goal that five sales would complete is not worth a goal completed now.
_LATER_SALE = 0.7
_GOLD_FLOOR = 0.004  # a coin past every gold need still buys something


def _sale_values(player: Player, progress):
    """{commodity: [value of the 1st, 2nd, ... card sold]}: the goal value the
    coins add when the cards are sold one after another, dearest first.

    Valued in sequence, not at one coin's margin: at 29 gold the first sale
    completes the goal, the next ones add next to nothing (valuing each card
    at the margin made five cards look worth more than the goal itself).
    """
    units = []
    for c in COMMODITIES:
        kind = BUYER_OF[c]
        if kind in player.slots:
            units += [(SELL[kind][0], c)] * player.hand[c]
    units.sort(reverse=True)
    out: dict[str, list[Any]] = {c: [] for c in COMMODITIES}
    gold, changed = player.gold, list(progress)
    held = goal_score(changed) + gold_buffer(player, gold)
    share = _UNSOLD_SHARE
    for price, c in units[:_HAND_LIMIT]:
        gold += price
        changed[GOLD] = gold_progress(gold)
        after = goal_score(changed) + gold_buffer(player, gold)
        out[c].append(share * (after - held) + _GOLD_FLOOR * price)
        held = after
        share *= _LATER_SALE
    return out


def _reserved_units(player: Player, progress, supply, new_ship, inhabitant):
    """Worth of the cards set aside for the next steps: the steps most worth
    per card claim their cards first, and a card serves one step only (a
    second wood is not worth a pioneer when only one pioneer can be placed)."""
    steps = []
    for cost, gain in _targets(player, progress, supply, new_ship, inhabitant):
        steps.append((0.8 * gain / sum(k for _, k in cost), cost))
    steps.sort(key=lambda step: -step[0])
    left = dict(player.hand)
    reserved: dict[str, list[float]] = {c: [] for c in COMMODITIES}
    for worth, cost in steps:
        for c, k in cost:
            take = min(k, left[c])
            left[c] -= take
            reserved[c] += [worth] * take
    return reserved


def hand_value(player: Player, progress, supply=None, new_ship=0.12, inhabitant=None):
    """Each card is worth the more of the step it is reserved for and its
    sale; past the hand limit, next to nothing."""
    reserved = _reserved_units(player, progress, supply, new_ship, inhabitant)
    sales = _sale_values(player, progress)
    unit_values = []
    for c in COMMODITIES:
        for unit in range(player.hand[c]):
            worth = reserved[c][unit] if unit < len(reserved[c]) else 0.0
            sale = sales[c][unit] if unit < len(sales[c]) else 0.01
            unit_values.append(max(worth, sale))
    unit_values.sort(reverse=True)
    return sum(unit_values[:_HAND_LIMIT]) + 0.005 * sum(unit_values[_HAND_LIMIT:])


def evaluate(state: State, seat: int, beliefs=None, inhabitant=None):
    """The value of ``state`` for ``seat`` (own holdings only), with
    ``inhabitant`` the table of inhabitant values (medium's by default)."""
    if state.winner is not None:
        return WIN if state.winner == seat else -WIN
    player = state.players[seat]
    progress = goal_progress(player, state.buildings)
    if beliefs is None:
        beliefs = TileBeliefs(state, seat)
    value = goal_score(progress) + _inhabitant_value(player, inhabitant) + 0.005 * min(player.gold, 10)
    value += gold_buffer(player, player.gold)
    new_ship = square_value(state, START, beliefs) if player.ship_at.count(None) == 2 else 0.0
    value += hand_value(player, progress, state.buildings, new_ship, inhabitant)
    value += max(ship_value(state, player, 0, beliefs), ship_value(state, player, 1, beliefs))
    return value


def public_strength(state: State, seat: int, inhabitant=None):
    """A seat's value from public information only (hand counted by size)."""
    player = state.players[seat]
    progress = goal_progress(player, state.buildings)
    return goal_score(progress) + _inhabitant_value(player, inhabitant) + 0.04 * min(player.hand_size(), 5)
