"""The heuristic value of an Anno 1452 position for one seat.

The final score is Estates + Citizens/2 + Cities + Principality cards +
gold/10 + Prestige (0-20; each point above 20 becomes 5 gold). Matches are
decided by what turns into those points before the end, so the value is the
points as they stand plus:

- income over the evaluation rounds still to come (1/10 point per gold, a
  bit more while gold can still buy Estates and Citizens);
- the prestige categories: a lead is +1 Prestige per ER while it holds, the
  last place -1;
- the coronation at the next ER: the seat with the fewest Estates (ties: more
  Prestige) gains 3 Prestige, 3 cards and the King's Soldiers, worth more
  than an Estate, so the value must see it or the policy builds the crown
  away every epoch;
- cards in hand while they can still be played.

Prestige beyond 20 is worth only its 5 gold, so gains near the cap count
less. ``relative_value`` subtracts the best opponent so attacks and plague
count what they take from others.
"""

from ...games.anno1452.data import GOLD_PER_PRESTIGE, KING_SOLDIERS, PRESTIGE_MAX, ROWS
from ...games.anno1452.deck import CROWN_CARDS, CROWN_PRESTIGE

GOLD = 0.15  # a gold coin: 1/10 point, more while it can still be spent
RESERVE = 20  # gold beyond this is only worth its final 1/10 point: spend it
CARD = 0.35  # a card in hand: a future action
CATEGORY_LEAD = 1.3  # leading a prestige category: +1 prestige per ER, and the other seats -1
LEAD_HORIZON = 4  # ERs ahead a lead is counted for
LEAD_DECAY = 0.5  # a lead of m holds beyond the next ER with odds 1 - LEAD_DECAY**m
INCOME = 0.12  # a gold of income per ER still to come
SOLDIER = 0.1  # a King's Soldier: attack power until the next coronation


def remaining_ers(d):
    return max(0, d["final_row"] - d["row"])


def tallies(d):
    """``(counts, incomes)`` of every seat in one pass over the map: counts are
    ``(estates, citizens, cities, principalities)``, incomes what
    ``evaluation.income_of`` gives.

    The value is taken for every legal action of every rollout step; walking
    the map once instead of three times per seat is a fifth of a rollout."""
    n = d["num_players"]
    estates, citizens, cities, strength, principalities = [0] * n, [0] * n, [0] * n, [0] * n, [0] * n
    for region in d["regions"]:
        owner = region["principality"]
        if type(owner) is int:  # a seat (not None, not Ottokar)
            principalities[owner] += 1
        for e in region["slots"]:
            if e is not None and type(owner := e["owner"]) is int:
                estates[owner] += 1
                citizens[owner] += e["citizens"]
                cities[owner] += e["city"]
                strength[owner] += e["strength"]
    fx = d["er_effects"]
    counts = [(estates[s], citizens[s], cities[s], principalities[s]) for s in range(n)]
    incomes = [
        strength[s]
        + citizens[s] * (2 if s in fx["sondersteuer"] else 1)
        + cities[s] * (2 if s in fx["messe"] else 1)
        + principalities[s]
        for s in range(n)
    ]
    return counts, incomes


def prestige_worth(prestige, gain):
    """What ``gain`` more Prestige is worth from ``prestige``: 1 a point up
    to 20, then the 5 gold each point converts to."""
    room = max(0, PRESTIGE_MAX - prestige)
    inside = min(gain, room)
    return inside + (gain - inside) * GOLD_PER_PRESTIGE / 10


def _margin_worth(margin, ers):
    """A category lead of ``margin`` over ``ers`` ERs to come: +1 at the next
    ER for sure, then more the wider it is (a lead of one is easily lost)."""
    if margin <= 0 or ers <= 0:
        return 0.0
    return CATEGORY_LEAD * (1 + (ers - 1) * (1 - LEAD_DECAY**margin))


def lead_bonuses(counts, ers):
    """Prestige categories, per seat: +1 to the leader, -1 to the last, per
    ER; worth ``_margin_worth`` of the margin to the nearest other seat. Only
    a sole leader (or sole last) has a margin, so each category needs its top
    two and bottom two counts only (a tie has no margin, so who of the tied
    is named does not matter)."""
    bonus = [0.0] * len(counts)
    if ers <= 0:
        return bonus
    for column in zip(*counts):
        ordered = sorted(column)
        low, second_low, second_high, high = ordered[0], ordered[1], ordered[-2], ordered[-1]
        if high > second_high:
            bonus[column.index(high)] += _margin_worth(high - second_high, ers)
        if second_low > low:
            bonus[column.index(low)] -= _margin_worth(second_low - low, ers)
    return bonus


def coronation_pending(d):
    """Whether a King is elected at the next (or the running) ER."""
    row, final = d["row"], d["final_row"]
    if d["phase"] == "evaluation":
        return not d["crowned"] and not d["interregnum"] and row != final and ROWS[row]["coronation"]
    if d["phase"] != "action":
        return False
    return row + 1 < final and ROWS[row + 1]["coronation"]


def crown_shares(d, counts):
    """Per seat, the share of the next crown it is in line for (fewest
    Estates, then most Prestige; dice split the rest)."""
    n = d["num_players"]
    if not coronation_pending(d):
        return [0.0] * n
    briber = d["er_effects"]["bestechung"] if d["phase"] == "evaluation" else None
    if briber is not None:  # Bestechung der Kurfürsten buys this crown
        return [1.0 if s == briber else 0.0 for s in range(n)]
    keys = [(-counts[s][0], d["players"][s]["prestige"]) for s in range(n)]
    best = max(keys)
    tied = [s for s in range(n) if keys[s] == best]
    return [1.0 / len(tied) if s in tied else 0.0 for s in range(n)]


def crown_worth(prestige):
    return prestige_worth(prestige, CROWN_PRESTIGE) + CROWN_CARDS * CARD + KING_SOLDIERS * SOLDIER


def gold_value(gold, left):
    if not left:
        return gold / 10
    return min(gold, RESERVE) * GOLD + max(0, gold - RESERVE) * 0.1


def _soldiers(d, seat):
    if d["king"] == seat:
        return d["soldiers"]["king"] * SOLDIER
    if d["anti_king"] == seat:
        return d["soldiers"]["anti_king"] * SOLDIER
    return 0.0


def value(d, seat, tallied=None, crowns=None, leads=None):
    """Points now and to come for ``seat`` (state dict ``d``); ``tallied`` as
    ``tallies`` gives it, ``leads`` as ``lead_bonuses``, when the caller has them."""
    counts, incomes = tallied or tallies(d)
    estates, citizens, cities, principalities = counts[seat]
    p = d["players"][seat]
    left = remaining_ers(d)
    income = incomes[seat]
    points = estates + citizens / 2 + cities + principalities + p["prestige"]
    points += gold_value(p["gold"], left) + income * left * INCOME
    if left:
        points += len(p["hand"]) * CARD + len(p["titles"]) * 0.2 + _soldiers(d, seat)
        if leads is None:
            leads = lead_bonuses(counts, min(left, LEAD_HORIZON))
        lead = leads[seat]
        # Prestige beyond 20 is worth only its gold: a lead near the cap counts less.
        points += lead if lead <= 0 else prestige_worth(p["prestige"], lead)
    if crowns is not None and crowns[seat]:
        points += crowns[seat] * crown_worth(p["prestige"])
    return points


def relative_value(d, seat):
    """``seat``'s value minus the best opponent's."""
    tallied = tallies(d)
    crowns = crown_shares(d, tallied[0])
    leads = lead_bonuses(tallied[0], min(remaining_ers(d), LEAD_HORIZON))
    values = [value(d, s, tallied, crowns, leads) for s in range(d["num_players"])]
    return values[seat] - max(v for s, v in enumerate(values) if s != seat)
