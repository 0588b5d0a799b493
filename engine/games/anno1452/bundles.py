"""Trade bundles: one side of an offer, its checks, and carrying it out.

A side is ``{"gold", "cards", "estates", "pact"}`` (``offers`` composes and
answers offers made of two sides); the whole bundle is re-checked at sending
and at acceptance, and ``hand_over`` carries a side out at once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...kit import event, private_to
from .board import change_estate, estate_at, totals
from .data import CITIZENS_PER_PLAYER, ESTATES_PER_PLAYER, REGION_NAMES, TRADE_LIMITS

if TYPE_CHECKING:
    from ...core import Event
    from .state import Data


MAX_OFFERS = TRADE_LIMITS["max_offers"]  # drafts per player and phase
MAX_ITEMS = TRADE_LIMITS["max_items"]  # per side
SIDES = ("give", "ask")  # what the author gives, what he asks of the addressee
MAX_EDITS = len(SIDES) * MAX_ITEMS  # changes per draft: enough to fill both sides
GOLD_STEPS = tuple(TRADE_LIMITS["gold_steps"])


# --- bundles: one side of an offer --------------------------------------------------------
# A side is {"gold": n, "cards": [...], "estates": [[region, slot], ...], "pact": bool}; gold
# is one item whatever its amount, so 7 gold is composed as 5 + 2.


def empty_side():
    return {"gold": 0, "cards": [], "estates": [], "pact": False}


def side_items(side):
    return (side["gold"] > 0) + len(side["cards"]) + len(side["estates"]) + side["pact"]


def estates_of(d: Data, seat):
    """``seat``'s Estates as ``[region, slot]``, in map order."""
    return [
        [region, slot]
        for region, area in enumerate(d["regions"])
        for slot, estate in enumerate(area["slots"])
        if estate is not None and estate["owner"] == seat
    ]


def estates_of_both(d: Data, one, other):
    """``(estates_of(d, one), estates_of(d, other))`` in one pass over the map."""
    mine: list[list[int]] = []
    theirs: list[list[int]] = []
    for region, area in enumerate(d["regions"]):
        for slot, estate in enumerate(area["slots"]):
            if estate is not None:
                owner = estate["owner"]
                if owner == one:
                    mine.append([region, slot])
                elif owner == other:
                    theirs.append([region, slot])
    return mine, theirs


def _delivery_problem(d: Data, giver, side):
    """Why ``giver`` cannot hand over everything in ``side`` now, or None."""
    hand = d["players"][giver]["hand"]
    if d["players"][giver]["gold"] < side["gold"]:
        return "not_enough_gold"
    if any(card not in hand for card in side["cards"]):
        return "card_not_in_hand"
    if any((estate_at(d, *estate) or {}).get("owner") != giver for estate in side["estates"]):
        return "not_their_estate"
    return None


def _citizens_on(d: Data, estates):
    return sum(estate_at(d, *estate)["citizens"] for estate in estates)


def _room_problem(d: Data, taker, incoming, outgoing):
    """Why ``taker`` lacks the pieces for the Estates (and their Citizens) he gets, or None.

    What he hands over in the same offer frees pieces, since both sides move at once.
    """
    if not incoming:
        return None
    estates, citizens, _ = totals(d, taker)
    if ESTATES_PER_PLAYER - estates + len(outgoing) < len(incoming):
        return "no_room_for_estate"
    if CITIZENS_PER_PLAYER - citizens + _citizens_on(d, outgoing) < _citizens_on(d, incoming):
        return "no_room_for_estate"
    return None


def bundle_problem(d: Data, offer):
    """Why the whole offer cannot be carried out now (both sides re-checked), or None."""
    giver, taker = offer["from"], offer["to"]
    give, ask = offer["give"], offer["ask"]
    if give["pact"] and sorted([giver, taker]) in d["pacts"]:
        return "pact_exists"
    return (
        _delivery_problem(d, giver, give)
        or _delivery_problem(d, taker, ask)
        or _room_problem(d, taker, give["estates"], ask["estates"])
        or _room_problem(d, giver, ask["estates"], give["estates"])
    )


def hand_over(d: Data, giver, taker, side, events: list[Event]) -> None:
    if side["gold"]:
        d["players"][giver]["gold"] -= side["gold"]
        d["players"][taker]["gold"] += side["gold"]
        event(events, "gold_transferred", giver, to=taker, amount=side["gold"])
    for card in side["cards"]:
        d["players"][giver]["hand"].remove(card)
        d["players"][taker]["hand"].append(card)
        # Which card changed hands stays between the two parties.
        event(events, "card_transferred", giver, to=taker, private=private_to((giver, taker), card=card))
    for region, slot in side["estates"]:
        change_estate(d, region, slot, owner=taker)
        event(events, "estate_transferred", giver, to=taker, region=REGION_NAMES[region], slot=slot)
