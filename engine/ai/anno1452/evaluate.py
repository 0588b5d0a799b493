"""The heuristic value of an Anno 1452 position for one seat.

Victory points as they stand, plus what turns into points later: income over
the evaluation rounds still to come (gold is 1 point per 10 but also buys
Estates and Citizens, so it counts a bit more), a lead in the prestige
categories (+1 prestige per ER), cards in hand. ``relative_value`` subtracts
the best opponent so attacks and plague count what they take from others.
"""

from ...games.anno1452.board import principalities_of, totals
from ...games.anno1452.evaluation import income_of

GOLD = 0.15          # a gold coin: 1/10 point, more while it can still be spent
RESERVE = 20         # gold beyond this is only worth its final 1/10 point: spend it
CARD = 0.35          # a card in hand: a future action
CATEGORY_LEAD = 0.6  # leading a prestige category: +1 prestige per ER to come
_CATEGORIES = 4


def remaining_ers(d):
    return max(0, d["final_row"] - d["row"])


def _categories(d, seat):
    estates, citizens, cities = totals(d, seat)
    return (estates, citizens, cities, len(principalities_of(d, seat)))


def _lead_bonus(d, seat, counts):
    mine = counts[seat]
    bonus = 0.0
    for cat in range(_CATEGORIES):
        others = [c[cat] for s, c in enumerate(counts) if s != seat]
        if mine[cat] > max(others):
            bonus += CATEGORY_LEAD
        elif mine[cat] < min(others):
            bonus -= CATEGORY_LEAD
    return bonus


def gold_value(gold, left):
    if not left:
        return gold / 10
    return min(gold, RESERVE) * GOLD + max(0, gold - RESERVE) * 0.1


def value(d, seat, counts=None):
    """Points now and to come for ``seat`` (state dict ``d``)."""
    counts = counts or [_categories(d, s) for s in range(d["num_players"])]
    estates, citizens, cities, principalities = counts[seat]
    p = d["players"][seat]
    left = remaining_ers(d)
    points = estates + citizens / 2 + cities + principalities + p["prestige"]
    points += gold_value(p["gold"], left) + income_of(d, seat) * left * 0.12
    points += len(p["hand"]) * CARD * (1 if left else 0)
    points += len(p["titles"]) * 0.2
    return points + _lead_bonus(d, seat, counts) * min(left, 3) / 3


def relative_value(d, seat):
    """``seat``'s value minus the best opponent's."""
    counts = [_categories(d, s) for s in range(d["num_players"])]
    mine = value(d, seat, counts)
    best = max(value(d, s, counts) for s in range(d["num_players"]) if s != seat)
    return mine - best
