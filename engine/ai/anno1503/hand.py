"""What the cards in one seat's hand are worth: each card the more of what
it would pay for next (a pioneer, a development, a ship) and what selling
it would add to the goals.

Valued at every position the policy and the search look at, mostly for
hands, holdings and goal progress seen before (the same few positions
differ by one card or one action), so both parts are remembered by exactly
what they read (``remember``): the same inputs give the same floats.
"""

from __future__ import annotations

from operator import itemgetter
from typing import TYPE_CHECKING, Any

from ...games.anno1503.data import BUYER_OF, COMMODITIES, DEVELOP, PIONEER_COST, SELL, SHIP_COST
from ...games.anno1503.rules import citizen_merchant_count, island_tiles, pioneer_settler_count
from .goals import (
    _NEED,
    BUILDINGS,
    GOLD,
    MERCHANTS,
    _buildings_reachable,
    goal_gain,
    goal_score,
    gold_buffer,
    gold_progress,
)
from .values import _INHABITANT, merchant_progress

if TYPE_CHECKING:
    from typing import Any

    from ...games.anno1503.state import Player


_HAND_LIMIT = 5


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


def _steps(player: Player, progress, supply, new_ship, inhabitant):
    """``[(worth per card, cost)]`` of the next steps (``_targets``), most
    worth per card first. It does not read the hand."""
    steps = []
    for cost, gain in _targets(player, progress, supply, new_ship, inhabitant):
        steps.append((0.8 * gain / sum(k for _, k in cost), cost))
    steps.sort(key=lambda step: -step[0])
    return steps


def _reserved_units(hand, steps):
    """Worth of the cards set aside for the next steps: the steps most worth
    per card claim their cards first, and a card serves one step only (a
    second wood is not worth a pioneer when only one pioneer can be placed)."""
    left = dict(hand)
    reserved: dict[str, list[float]] = {c: [] for c in COMMODITIES}
    for worth, cost in steps:
        for c, k in cost:
            take = min(k, left[c])
            left[c] -= take
            reserved[c] += [worth] * take
    return reserved


def _hand_value(player: Player, progress, steps):
    reserved = _reserved_units(player.hand, steps)
    sales = _sale_values(player, progress)
    unit_values = []
    for c in COMMODITIES:
        for unit in range(player.hand[c]):
            worth = reserved[c][unit] if unit < len(reserved[c]) else 0.0
            sale = sales[c][unit] if unit < len(sales[c]) else 0.01
            unit_values.append(max(worth, sale))
    unit_values.sort(reverse=True)
    return sum(unit_values[:_HAND_LIMIT]) + 0.005 * sum(unit_values[_HAND_LIMIT:])


# --- remembered ---------------------------------------------------------------

# Entries a table holds before it starts afresh (a long-lived process): at
# 0.5-1.5 KB an entry, a few MB a table. One searched decision adds about a
# hundred (3,600 hand values in 38 decisions of 2-player base matches).
_MEMO_SIZE = 4096
_STEPS_MEMO: dict[tuple[Any, ...], Any] = {}
_HAND_MEMO: dict[tuple[Any, ...], float] = {}
_counts = itemgetter(*COMMODITIES)


def remember(table, key, value):
    """``table[key] = value``, the table emptied first when full; ``value``."""
    if len(table) >= _MEMO_SIZE:
        table.clear()
    table[key] = value
    return value


def reserve_steps(player: Player, progress, supply, new_ship, inhabitant):
    """``(key, steps)``: the next steps the cards could pay for
    (``_steps``), and the key of all they were computed from (every input
    ``_targets`` reads), under which they are remembered."""
    in_stock = player.ship_at.count(None) == 2
    key = (
        tuple(player.slots),
        tuple(progress),
        _building_step(player, supply),
        in_stock,
        new_ship if in_stock else None,
        tuple((inhabitant or _INHABITANT).items()),
    )
    steps = _STEPS_MEMO.get(key)
    if steps is None:
        steps = remember(_STEPS_MEMO, key, _steps(player, progress, supply, new_ship, inhabitant))
    return key, steps


def hand_value_with(player: Player, progress, steps):
    """``hand_value`` with ``steps`` from ``reserve_steps`` (for this player
    and ``progress``), remembered by the steps' key and what the sales read
    besides: the hand, the gold and what raids and fires would cost."""
    key = (steps[0], _counts(player.hand), player.gold, tuple(player.buildings), island_tiles(player))
    value = _HAND_MEMO.get(key)
    if value is None:
        value = remember(_HAND_MEMO, key, _hand_value(player, progress, steps[1]))
    return value


def hand_value(player: Player, progress, supply=None, new_ship=0.12, inhabitant=None):
    """Each card is worth the more of the step it is reserved for and its
    sale; past the hand limit, next to nothing."""
    return hand_value_with(player, progress, reserve_steps(player, progress, supply, new_ship, inhabitant))
