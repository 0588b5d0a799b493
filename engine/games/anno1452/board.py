"""The map: Estates, Citizens, Cities, majorities and the cards they carry.

Regions are ``d["regions"][r]`` with fixed ``slots`` (one per Estate the
region's shield allows), so an Estate is named ``[region, slot]`` for its
whole life. Principality cards and Titles are re-evaluated after every
change (``settle_holdings``), so they are gained and lost at once, even
during another player's turn.
"""

from .data import (
    BORDERS,
    CARDS,
    CITIZENS_PER_PLAYER,
    ESTATES_PER_PLAYER,
    MAX_CITIES,
    MAX_ESTATES,
    REGION_INDEX,
    REGION_NAMES,
)
from .state import change_prestige, event, is_player, players_of


def new_estate(owner, strength=3):
    return {"owner": owner, "strength": strength, "city": False, "citizens": 0}


def iter_estates(d, owner=None):
    """Yield ``(r, s, estate)`` for every Estate on the map (of ``owner``)."""
    for r, region in enumerate(d["regions"]):
        for s, est in enumerate(region["slots"]):
            if est is not None and (owner is None or est["owner"] == owner):
                yield r, s, est


def estate_at(d, r, s):
    slots = d["regions"][r]["slots"] if 0 <= r < len(d["regions"]) else []
    return slots[s] if 0 <= s < len(slots) else None


def placed_in(d, r):
    return sum(1 for e in d["regions"][r]["slots"] if e is not None)


def free_slot(d, r):
    for s, est in enumerate(d["regions"][r]["slots"]):
        if est is None:
            return s
    return None


def count_in(d, r, owner):
    return sum(1 for e in d["regions"][r]["slots"] if e is not None and e["owner"] == owner)


def cities_in(d, r, owner=None):
    return sum(
        1
        for e in d["regions"][r]["slots"]
        if e is not None and e["city"] and (owner is None or e["owner"] == owner)
    )


def citizens_in(d, r, owner):
    return sum(e["citizens"] for e in d["regions"][r]["slots"] if e is not None and e["owner"] == owner)


def totals(d, owner):
    """``(estates, citizens, cities)`` of ``owner`` on the map."""
    estates = citizens = cities = 0
    for region in d["regions"]:
        for e in region["slots"]:
            if e is not None and e["owner"] == owner:
                estates += 1
                citizens += e["citizens"]
                cities += e["city"]
    return estates, citizens, cities


def estate_supply(d, seat):
    return ESTATES_PER_PLAYER - totals(d, seat)[0]


def citizen_supply(d, seat):
    return CITIZENS_PER_PLAYER - totals(d, seat)[1]


def capacity(estate):
    """Citizens an Estate can hold: 3, or 6 with a City."""
    return 6 if estate["city"] else 3


def principalities_of(d, seat):
    return [r for r, reg in enumerate(d["regions"]) if reg["principality"] == seat]


def build_cost(d, r):
    """4 gold plus 1 per Estate already in the region (of any owner)."""
    return 4 + placed_in(d, r)


def can_place_estate(d, seat, r):
    return estate_supply(d, seat) > 0 and free_slot(d, r) is not None


def place_estate(d, seat, r, events, reason, strength=3):
    """Put one of ``seat``'s Estates in region ``r``; returns its slot."""
    s = free_slot(d, r)
    d["regions"][r]["slots"][s] = new_estate(seat, strength)
    event(events, "estate_placed", seat if is_player(seat) else None, region=REGION_NAMES[r], slot=s, reason=reason)
    return s


def remove_estate(d, r, s, events, reason):
    """The Estate, its Citizens and City go back to the supply."""
    est = d["regions"][r]["slots"][s]
    d["regions"][r]["slots"][s] = None
    owner = est["owner"]
    event(events, "estate_removed", owner if is_player(owner) else None,
          region=REGION_NAMES[r], slot=s, owner=owner, city=est["city"], reason=reason)


def majority_owner(d, r):
    """The owner with a majority in ``r``, or None (ruling 3).

    The count must beat every other owner's and the unplaced Estates, which
    act as a fifth owner.
    """
    counts = {}
    placed = 0
    for e in d["regions"][r]["slots"]:
        if e is not None:
            counts[e["owner"]] = counts.get(e["owner"], 0) + 1
            placed += 1
    # The owner with the most, if no one else has as many (every Estate
    # placement re-awards all regions, so this runs often).
    leader, most, runner_up = None, 0, 0
    for owner, n in counts.items():
        if n > most:
            leader, most, runner_up = owner, n, most
        elif n > runner_up:
            runner_up = n
    unplaced = MAX_ESTATES[r] - placed
    return leader if most > unplaced and most > runner_up else None


def conveyed_by_marriage(d, seat, r):
    marriage = d["players"][seat]["marriage"] if is_player(seat) else None
    return marriage is not None and r in marriage["conveyed"]


def settle_holdings(d, events):
    """Re-award Principality cards by majority and drop failing Titles."""
    for r, region in enumerate(d["regions"]):
        holder = region["principality"]
        if holder is not None and conveyed_by_marriage(d, holder, r):
            continue
        owner = majority_owner(d, r)
        new = owner if owner is not None and is_player(owner) else None
        if new != holder:
            transfer_principality(d, r, new, events, "majority")
    drop_failing_titles(d, events)


def transfer_principality(d, r, new, events, reason):
    holder = d["regions"][r]["principality"]
    d["regions"][r]["principality"] = new
    if holder is not None:
        marriage = d["players"][holder]["marriage"]
        if marriage is not None and r in marriage["conveyed"]:
            marriage["conveyed"].remove(r)
        change_prestige(d, holder, -1, events, "principality_lost")
    event(events, "principality_changed", new, region=REGION_NAMES[r], previous=holder, holder=new, reason=reason)
    if new is not None:
        change_prestige(d, new, 1, events, "principality_gained")


def drop_failing_titles(d, events):
    for seat in players_of(d):
        p = d["players"][seat]
        for card in list(p["titles"]):
            if not meets(d, seat, CARDS[card]["requirement"]):
                p["titles"].remove(card)
                d["discard"].append(card)
                event(events, "title_lost", seat, card=card)


def _estates_in_regions(d, seat, regions):
    return sum(count_in(d, r, seat) for r in regions)


def meets(d, seat, req):
    """Whether ``seat`` fulfils a card requirement (see DESIGN.md)."""
    if "all" in req:
        return all(meets(d, seat, part) for part in req["all"])
    if "prestige" in req:
        return d["players"][seat]["prestige"] >= req["prestige"]
    if "citizens" in req:
        return totals(d, seat)[1] >= req["citizens"]
    if "cities" in req:
        return totals(d, seat)[2] >= req["cities"]
    if "principality" in req:
        return d["regions"][REGION_INDEX[req["principality"]]]["principality"] == seat
    if "cities_in" in req:
        return cities_in(d, REGION_INDEX[req["cities_in"]], seat) >= req["min"]
    if "citizens_in" in req:
        return citizens_in(d, REGION_INDEX[req["citizens_in"]], seat) >= req["min"]
    if "estates_bordering" in req:
        return _estates_in_regions(d, seat, BORDERS[REGION_INDEX[req["estates_bordering"]]]) >= req["min"]
    regions = {REGION_INDEX[n] for n in req["estates_in"]}
    if "or_bordering" in req:
        regions |= BORDERS[REGION_INDEX[req["or_bordering"]]]
    return _estates_in_regions(d, seat, regions) >= req["min"]


def can_build_city(d, seat, r, s):
    est = estate_at(d, r, s)
    return est is not None and est["owner"] == seat and not est["city"] and cities_in(d, r) < MAX_CITIES[r]


def remove_citizens_auto(d, seat, count, events, reason):
    """Remove ``count`` of ``seat``'s Citizens, from the most crowded Estate first.

    The rules let the owner choose; the engine takes them where they matter
    least (the fullest Estate), so the action needs no extra parameter.
    """
    removed = 0
    while removed < count:
        best = None
        for r, s, e in iter_estates(d, seat):
            if e["citizens"] and (best is None or e["citizens"] > best[2]["citizens"]):
                best = (r, s, e)
        if best is None:
            break
        best[2]["citizens"] -= 1
        removed += 1
        event(events, "citizen_removed", seat, region=REGION_NAMES[best[0]], slot=best[1], reason=reason)
    return removed
