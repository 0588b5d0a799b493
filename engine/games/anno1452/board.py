"""The map: Estates, Citizens, Cities, majorities and the cards they carry.

Regions are ``d["regions"][region]`` with fixed ``slots`` (one per Estate the
region's shield allows), so an Estate is named ``[region, slot]`` for its
whole life. Principality cards and Titles are re-evaluated after every
change (``settle_holdings``), so they are gained and lost at once, even
during another player's turn.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from ...kit import event
from .data import (
    BORDERS,
    CARDS,
    CITIZENS_PER_PLAYER,
    ESTATE_STRENGTH,
    ESTATES_PER_PLAYER,
    MAX_CITIES,
    PRICES,
    REGION_INDEX,
    REGION_NAMES,
)
from .state import change_prestige, is_player, players_of

if TYPE_CHECKING:
    from ...core import Event
    from .state import Data


# The map's parts, typed where the map is scanned: compiled (engine/native.py),
# a list or dict annotation makes mypyc index it directly instead of through
# Python's generic protocols (every scan visits all 66 slots).
Area = dict[str, Any]
Slot = dict[str, Any] | None


def new_estate(owner, strength=ESTATE_STRENGTH):
    return {"owner": owner, "strength": strength, "city": False, "citizens": 0}


def iter_estates(d: Data, owner=None):
    """Yield ``(region, slot, estate)`` for every Estate on the map (of ``owner``)."""
    for region, area in enumerate(d["regions"]):
        for slot, estate in enumerate(area["slots"]):
            if estate is not None and (owner is None or estate["owner"] == owner):
                yield region, slot, estate


def set_slot(d: Data, region, slot, estate) -> None:
    """Put ``estate`` (a new dict, or None) in a slot.

    A clone shares the regions' dicts, slot lists and Estates with its origin
    (``clone_data``), so they are replaced here, never changed in place:
    every change to the map goes through ``set_slot``, ``set_slots``,
    ``change_estate`` or ``transfer_principality``. This one keeps its own
    body rather than calling ``set_slots`` with one pair: it is on the hot
    path, and that measured 2.5% slower in engine_compare.
    """
    area = d["regions"][region]
    slots = area["slots"][:]
    slots[slot] = estate
    d["regions"][region] = {**area, "slots": slots}


def set_slots(d: Data, region, estates) -> None:
    """``set_slot`` for each ``(slot, estate)`` of ``estates``, the region's
    slot list and dict copied once for all of them."""
    area = d["regions"][region]
    slots = area["slots"][:]
    for slot, estate in estates:
        slots[slot] = estate
    d["regions"][region] = {**area, "slots": slots}


def change_estate(d: Data, region, slot, **changes):
    """Replace the Estate at ``[region, slot]`` by a copy with ``changes``; returns the copy."""
    estate = {**d["regions"][region]["slots"][slot], **changes}
    set_slot(d, region, slot, estate)
    return estate


def slots_of(d: Data, region) -> list[Slot]:
    """The slot list of ``region`` (typed: see ``Area``)."""
    area: Area = d["regions"][region]
    return area["slots"]


def estate_at(d: Data, region, slot):
    slots = slots_of(d, region) if 0 <= region < len(d["regions"]) else []
    return slots[slot] if 0 <= slot < len(slots) else None


# The counts below are loops, not sums over generators: compiled
# (engine/native.py), a generator is an object per call and a call per item,
# and the legal-action generators and every Title's requirement count often.


def placed_in(d: Data, region):
    placed = 0
    for estate in slots_of(d, region):
        if estate is not None:
            placed += 1
    return placed


def free_slot(d: Data, region):
    for slot, estate in enumerate(slots_of(d, region)):
        if estate is None:
            return slot
    return None


def cities_in(d: Data, region, owner=None):
    cities = 0
    for estate in slots_of(d, region):
        if estate is not None and estate["city"] and (owner is None or estate["owner"] == owner):
            cities += 1
    return cities


def citizens_in(d: Data, region, owner):
    citizens = 0
    for estate in slots_of(d, region):
        if estate is not None and estate["owner"] == owner:
            citizens += estate["citizens"]
    return citizens


def totals(d: Data, owner: Any) -> tuple[int, int, int]:
    """``(estates, citizens, cities)`` of ``owner`` on the map (typed: compiled,
    a native caller gets the three ints unboxed, no tuple object)."""
    estates = citizens = cities = 0
    areas: list[Area] = d["regions"]
    for area in areas:
        slots: list[Slot] = area["slots"]
        for estate in slots:
            if estate is not None and estate["owner"] == owner:
                estates += 1
                settled: int = estate["citizens"]  # typed: compiled, unboxed, not a generic sum
                citizens += settled
                if estate["city"]:
                    cities += 1
    return estates, citizens, cities


def estate_supply(d: Data, seat: Any) -> int:
    return ESTATES_PER_PLAYER - totals(d, seat)[0]


def citizen_supply(d: Data, seat: Any) -> int:
    return CITIZENS_PER_PLAYER - totals(d, seat)[1]


CITIZENS_WITH_CITY: Final[int] = PRICES["estate"]["citizens_with_city"]
CITIZENS_WITHOUT_CITY: Final[int] = PRICES["estate"]["citizens"]


def capacity(estate) -> int:
    """Citizens an Estate can hold: 3, or 6 with a City."""
    return CITIZENS_WITH_CITY if estate["city"] else CITIZENS_WITHOUT_CITY


def principalities_of(d: Data, seat):
    return [region for region, area in enumerate(d["regions"]) if area["principality"] == seat]


def build_cost(d: Data, region):
    """4 gold plus 1 per Estate already in the region (of any owner)."""
    return PRICES["estate"]["base_cost"] + PRICES["estate"]["cost_per_estate_in_region"] * placed_in(
        d, region
    )


def can_place_estate(d: Data, seat, region) -> bool:
    return estate_supply(d, seat) > 0 and free_slot(d, region) is not None


def place_estate(d: Data, seat, region, events: list[Event], reason, strength=ESTATE_STRENGTH):
    """Put one of ``seat``'s Estates in ``region``; returns its slot."""
    slot = free_slot(d, region)
    set_slot(d, region, slot, new_estate(seat, strength))
    event(
        events,
        "estate_placed",
        seat if is_player(seat) else None,
        region=REGION_NAMES[region],
        slot=slot,
        reason=reason,
    )
    return slot


def remove_estate(d: Data, region, slot, events: list[Event], reason) -> None:
    """The Estate, its Citizens and City go back to the supply."""
    estate = d["regions"][region]["slots"][slot]
    set_slot(d, region, slot, None)
    owner = estate["owner"]
    event(
        events,
        "estate_removed",
        owner if is_player(owner) else None,
        region=REGION_NAMES[region],
        slot=slot,
        owner=owner,
        city=estate["city"],
        reason=reason,
    )


def majority_owner(d: Data, region):
    """The owner with a majority in ``region``, or None (ruling 3).

    The count must beat every other owner's and the unplaced Estates, which
    act as a fifth owner.
    """
    return _majority_in(slots_of(d, region))


def _majority_in(slots: list[Slot]):
    """``majority_owner`` of a region's slot list."""
    # Every Estate placement re-awards all sixteen regions, so this runs
    # often: no dict of counts, and no list of owners while half the region
    # is empty (a region has one slot per Estate it allows: MAX_ESTATES).
    placed = 0
    for estate in slots:
        if estate is not None:
            placed += 1
    unplaced = len(slots) - placed
    if placed <= unplaced:
        return None
    owners = [estate["owner"] for estate in slots if estate is not None]
    leader, most, tied = None, 0, False
    for owner in owners:
        count = owners.count(owner)
        if count > most:
            leader, most, tied = owner, count, False
        elif count == most and owner != leader:
            tied = True
    return leader if most > unplaced and not tied else None


def conveyed_by_marriage(d: Data, seat, region):
    marriage = d["players"][seat]["marriage"] if is_player(seat) else None
    return marriage is not None and region in marriage["conveyed"]


def settle_holdings(d: Data, events: list[Event]) -> None:
    """Re-award Principality cards by majority and drop failing Titles."""
    areas: list[Area] = d["regions"]  # typed, and each region's slots handed on: this runs often
    for region, area in enumerate(areas):
        holder = area["principality"]
        if holder is not None and conveyed_by_marriage(d, holder, region):
            continue
        owner = _majority_in(area["slots"])
        new = owner if owner is not None and is_player(owner) else None
        if new != holder:
            transfer_principality(d, region, new, events, "majority")
    drop_failing_titles(d, events)


def transfer_principality(d: Data, region, new, events: list[Event], reason) -> None:
    area = d["regions"][region]
    holder = area["principality"]
    d["regions"][region] = {**area, "principality": new}
    if holder is not None:
        marriage = d["players"][holder]["marriage"]
        if marriage is not None and region in marriage["conveyed"]:
            marriage["conveyed"].remove(region)
        change_prestige(d, holder, -1, events, "principality_lost")
    event(
        events,
        "principality_changed",
        new,
        region=REGION_NAMES[region],
        previous=holder,
        holder=new,
        reason=reason,
    )
    if new is not None:
        change_prestige(d, new, 1, events, "principality_gained")


def drop_failing_titles(d: Data, events: list[Event]) -> None:
    for seat in players_of(d):
        player = d["players"][seat]
        for card in list(player["titles"]):
            if not meets(d, seat, CARDS[card]["requirement"]):
                player["titles"].remove(card)
                d["discard"].append(card)
                event(events, "title_lost", seat, card=card)


def _estates_in_regions(d: Data, seat, regions):
    count = 0
    areas: list[Area] = d["regions"]  # typed: see Area
    for region in regions:
        slots: list[Slot] = areas[region]["slots"]
        for estate in slots:
            if estate is not None and estate["owner"] == seat:
                count += 1
    return count


def _regions_named(req) -> frozenset[int]:
    """The regions of an ``estates_in`` requirement (with ``or_bordering``'s)."""
    regions = frozenset(REGION_INDEX[name] for name in req["estates_in"])
    if "or_bordering" in req:
        regions |= BORDERS[REGION_INDEX[req["or_bordering"]]]
    return regions


def _card_requirements(req, out: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``req`` and the parts of its ``all``, depth first."""
    out.append(req)
    for part in req.get("all", ()):
        _card_requirements(part, out)
    return out


# The cards' ``estates_in`` requirements' regions, by the requirement dict's
# id (kept with the dict, which the cards hold for good): a Marriage's or a
# Title's requirement is checked at every action turn.
_REGIONS_NAMED: Final[dict[int, tuple[dict[str, Any], frozenset[int]]]] = {
    id(req): (req, _regions_named(req))
    for card in CARDS
    if card.get("requirement")
    for req in _card_requirements(card["requirement"], [])
    if "estates_in" in req
}


def meets(d: Data, seat, req):
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
    named = _REGIONS_NAMED.get(id(req))
    regions = named[1] if named is not None and named[0] is req else _regions_named(req)
    return _estates_in_regions(d, seat, regions) >= req["min"]


def can_build_city(d: Data, seat, region, slot) -> bool:
    estate = estate_at(d, region, slot)
    return (
        estate is not None
        and estate["owner"] == seat
        and not estate["city"]
        and cities_in(d, region) < MAX_CITIES[region]
    )


def remove_citizens_auto(d: Data, seat, count, events: list[Event], reason):
    """Remove ``count`` of ``seat``'s Citizens, from the most crowded Estate first.

    The rules let the owner choose; the engine takes them where they matter
    least (the fullest Estate), so the action needs no extra parameter.
    """
    removed = 0
    while removed < count:
        best = None
        for region, slot, estate in iter_estates(d, seat):
            if estate["citizens"] and (best is None or estate["citizens"] > best[2]["citizens"]):
                best = (region, slot, estate)
        if best is None:
            break
        change_estate(d, best[0], best[1], citizens=best[2]["citizens"] - 1)
        removed += 1
        event(events, "citizen_removed", seat, region=REGION_NAMES[best[0]], slot=best[1], reason=reason)
    return removed
