"""Expert trade offers: bundles composed item by item, sent, accepted or declined.

A draft (``d["trade"]["draft"]``, seen only by its author) becomes the offer
(``d["offer"]``, its content seen only by its two parties) when sent. Each side
is ``{"gold", "cards", "estates", "pact"}``; the whole bundle is re-checked at
sending and at acceptance and carried out at once, so an accepted offer binds.
"""

from ...params import IntRange, OneOf, Optional
from .actionkit import CARD, ESTATE, SEAT, make_spec
from .board import citizen_supply, estate_at, estate_supply, settle_holdings
from .data import REGION_NAMES
from .state import event
from .steps import decide, push_front

MAX_OFFERS = 3  # drafts per player and phase
MAX_ITEMS = 4  # per side
MAX_EDITS = 2 * MAX_ITEMS  # changes per draft: enough to fill both sides
GOLD_STEPS = (1, 2, 5, 10)


def next_trader(d):
    d["decision"] = None
    push_front(d, ["trade_round"])


# --- bundles: one side of an offer --------------------------------------------------------
# A side is {"gold": n, "cards": [...], "estates": [[r, s], ...], "pact": bool}; gold is one
# item whatever its amount, so 7 gold is composed as 5 + 2.

def empty_side():
    return {"gold": 0, "cards": [], "estates": [], "pact": False}


def side_items(side):
    return (side["gold"] > 0) + len(side["cards"]) + len(side["estates"]) + side["pact"]


def _own_estates(d, seat):
    return [[r, s] for r, reg in enumerate(d["regions"])
            for s, e in enumerate(reg["slots"]) if e is not None and e["owner"] == seat]


def _delivery_problem(d, giver, side):
    """Why ``giver`` cannot hand over everything in ``side`` now, or None."""
    if d["players"][giver]["gold"] < side["gold"]:
        return "not_enough_gold"
    if any(c not in d["players"][giver]["hand"] for c in side["cards"]):
        return "card_not_in_hand"
    if any((estate_at(d, *ref) or {}).get("owner") != giver for ref in side["estates"]):
        return "not_their_estate"
    return None


def _citizens_on(d, refs):
    return sum(estate_at(d, *ref)["citizens"] for ref in refs)


def _room_problem(d, taker, incoming, outgoing):
    """Why ``taker`` lacks the pieces for the Estates (and their Citizens) he gets, or None.

    What he hands over in the same offer frees pieces, since both sides move at once.
    """
    if not incoming:
        return None
    if estate_supply(d, taker) + len(outgoing) < len(incoming):
        return "no_room_for_estate"
    if citizen_supply(d, taker) + _citizens_on(d, outgoing) < _citizens_on(d, incoming):
        return "no_room_for_estate"
    return None


def bundle_problem(d, offer):
    """Why the whole offer cannot be carried out now (both sides re-checked), or None."""
    giver, taker = offer["from"], offer["to"]
    give, ask = offer["give"], offer["ask"]
    if give["pact"] and sorted([giver, taker]) in d["pacts"]:
        return "pact_exists"
    return (_delivery_problem(d, giver, give) or _delivery_problem(d, taker, ask)
            or _room_problem(d, taker, give["estates"], ask["estates"])
            or _room_problem(d, giver, ask["estates"], give["estates"]))


# --- drafting -----------------------------------------------------------------------------

def _draft(d):
    return d["trade"]["draft"]


def _check_start(d, seat, a):
    if _draft(d) is not None:
        return "draft_open"
    if d["trade"]["offers"][str(seat)] >= MAX_OFFERS:
        return "offer_limit"
    return None if a["to"] != seat and a["to"] < d["num_players"] else "no_such_partner"


def _cand_start(d, seat):
    return [{"type": "draft_offer", "to": to} for to in d["order"] if to != seat]


def _do_start(d, seat, a, events):
    # The budget is spent when drafting starts, so cancelled drafts count too (termination).
    d["trade"]["offers"][str(seat)] += 1
    d["trade"]["draft"] = {"from": seat, "to": a["to"], "give": empty_side(), "ask": empty_side(), "edits": 0}
    _draft_event(events, seat, "offer_draft_started", {"to": a["to"]})


def _draft_event(events, seat, kind, details):
    """Drafting is seen by the others only as "seat N is composing an offer"
    (the draft is its author's until sent); its author sees the details.
    Every accepted move leaves an event, so stream followers see it pass."""
    event(events, kind, seat, private={str(seat): details} if details else None)


def _edit_details(a):
    return {k: v for k, v in a.items() if k != "type" and v is not None}


def _item_shape_problem(a, fields):
    """One encoding per item: exactly the field the item needs (removing gold needs none)."""
    wanted = fields[a["item"]]
    if any((a.get(f) is not None) != (f == wanted) for f in ("amount", "card", "estate")):
        return "item_fields"
    if wanted == "amount" and a["amount"] not in GOLD_STEPS:
        return "gold_step"
    return None


def _check_edit(d, seat, a, fields):
    draft = _draft(d)
    if draft is None:
        return "no_draft"
    if draft["edits"] >= MAX_EDITS:
        return "draft_edit_limit"
    return _item_shape_problem(a, fields)


def _check_add(d, seat, a):
    problem = _check_edit(d, seat, a, ADD_FIELDS)
    if problem:
        return problem
    draft = _draft(d)
    side = draft[a["side"]]
    holder = draft["from"] if a["side"] == "give" else draft["to"]
    if side_items(side) >= MAX_ITEMS and not (a["item"] == "gold" and side["gold"]):
        return "too_many_items"
    return ADD_CHECKS[a["item"]](d, draft, holder, side, a)


def _add_gold(d, draft, holder, side, a):
    return "not_enough_gold" if side["gold"] + a["amount"] > d["players"][holder]["gold"] else None


def _add_card(d, draft, holder, side, a):
    if holder != draft["from"]:
        return "cards_are_only_given"  # the other hand is hidden
    if a["card"] in side["cards"]:
        return "already_in_offer"
    return None if a["card"] in d["players"][holder]["hand"] else "card_not_in_hand"


def _add_estate(d, draft, holder, side, a):
    if a["estate"] in side["estates"]:
        return "already_in_offer"
    est = estate_at(d, *a["estate"])
    return None if est is not None and est["owner"] == holder else "not_their_estate"


def _add_pact(d, draft, holder, side, a):
    if holder != draft["from"]:
        return "pact_is_given"  # a pact binds both ways: one encoding, on the give side
    if side["pact"]:
        return "already_in_offer"
    return "pact_exists" if sorted([draft["from"], draft["to"]]) in d["pacts"] else None


ADD_CHECKS = {"gold": _add_gold, "card": _add_card, "estate": _add_estate, "pact": _add_pact}
ADD_FIELDS = {"gold": "amount", "card": "card", "estate": "estate", "pact": None}
REMOVE_FIELDS = {**ADD_FIELDS, "gold": None}


def _cand_add(d, seat):
    draft = _draft(d)
    if draft is None:
        return []
    out = []
    for side, holder in (("give", draft["from"]), ("ask", draft["to"])):
        base = {"type": "draft_add", "side": side}
        out += [{**base, "item": "gold", "amount": g} for g in GOLD_STEPS]
        out += [{**base, "item": "estate", "estate": ref} for ref in _own_estates(d, holder)]
    out += [{"type": "draft_add", "side": "give", "item": "card", "card": c} for c in d["players"][seat]["hand"]]
    out.append({"type": "draft_add", "side": "give", "item": "pact"})
    return out


def _do_add(d, seat, a, events):
    draft = _draft(d)
    draft["edits"] += 1
    side = draft[a["side"]]
    if a["item"] == "gold":
        side["gold"] += a["amount"]
    elif a["item"] == "pact":
        side["pact"] = True
    else:
        side[a["item"] + "s"].append(a[a["item"]])
    _draft_event(events, seat, "offer_draft_changed", {"change": "add", **_edit_details(a)})


def _check_remove(d, seat, a):
    problem = _check_edit(d, seat, a, REMOVE_FIELDS)
    if problem:
        return problem
    side = _draft(d)[a["side"]]
    present = {"gold": side["gold"] > 0, "pact": side["pact"],
               "card": a.get("card") in side["cards"], "estate": a.get("estate") in side["estates"]}
    return None if present[a["item"]] else "not_in_offer"


def _cand_remove(d, seat):
    draft = _draft(d)
    if draft is None:
        return []
    out = []
    for name in ("give", "ask"):
        side, base = draft[name], {"type": "draft_remove", "side": name}
        out += [{**base, "item": "gold"}] if side["gold"] else []
        out += [{**base, "item": "card", "card": c} for c in side["cards"]]
        out += [{**base, "item": "estate", "estate": ref} for ref in side["estates"]]
        out += [{**base, "item": "pact"}] if side["pact"] else []
    return out


def _do_remove(d, seat, a, events):
    draft = _draft(d)
    draft["edits"] += 1
    side = draft[a["side"]]
    if a["item"] == "gold":
        side["gold"] = 0
    elif a["item"] == "pact":
        side["pact"] = False
    else:
        side[a["item"] + "s"].remove(a[a["item"]])
    _draft_event(events, seat, "offer_draft_changed", {"change": "remove", **_edit_details(a)})


def _check_send(d, seat, a):
    draft = _draft(d)
    if draft is None:
        return "no_draft"
    if not side_items(draft["give"]) and not side_items(draft["ask"]):
        return "empty_offer"
    return bundle_problem(d, draft)


def _do_send(d, seat, a, events):
    draft = d["trade"]["draft"]
    d["trade"]["draft"] = None
    offer = {"from": seat, "to": draft["to"], "give": draft["give"], "ask": draft["ask"]}
    d["offer"] = offer
    both = {str(seat): {"offer": offer}, str(offer["to"]): {"offer": offer}}
    event(events, "offer_made", seat, to=offer["to"], private=both)
    decide(d, "offer_reply", [offer["to"]])


def _check_cancel(d, seat, a):
    return None if _draft(d) is not None else "no_draft"


def _do_cancel(d, seat, a, events):
    d["trade"]["draft"] = None
    _draft_event(events, seat, "offer_draft_cancelled", None)


# --- answering ----------------------------------------------------------------------------

def _check_accept(d, seat, a):
    # Re-checked at acceptance: the bundle is carried out whole or not at all.
    return bundle_problem(d, d["offer"])


def _do_accept(d, seat, a, events):
    offer, d["offer"] = d["offer"], None
    giver = offer["from"]
    _hand_over(d, giver, seat, offer["give"], events)
    _hand_over(d, seat, giver, offer["ask"], events)
    if offer["give"]["pact"]:
        d["pacts"].append(sorted([giver, seat]))
        event(events, "pact_concluded", seat, parties=sorted([giver, seat]))
    event(events, "offer_accepted", seat, by=seat, offer_from=giver)
    settle_holdings(d, events)
    next_trader(d)


def _hand_over(d, giver, taker, side, events):
    if side["gold"]:
        d["players"][giver]["gold"] -= side["gold"]
        d["players"][taker]["gold"] += side["gold"]
        event(events, "gold_transferred", giver, to=taker, amount=side["gold"])
    for card in side["cards"]:
        d["players"][giver]["hand"].remove(card)
        d["players"][taker]["hand"].append(card)
        # Which card changed hands stays between the two parties.
        event(events, "card_transferred", giver, to=taker,
              private={str(giver): {"card": card}, str(taker): {"card": card}})
    for ref in side["estates"]:
        estate_at(d, *ref)["owner"] = taker
        event(events, "estate_transferred", giver, to=taker, region=REGION_NAMES[ref[0]], slot=ref[1])


def _do_decline(d, seat, a, events):
    event(events, "offer_declined", seat, offer_from=d["offer"]["from"])
    d["offer"] = None
    next_trader(d)



SIDE = OneOf(["give", "ask"], "give: from the offering player; ask: from the addressee")
ITEM = OneOf(["gold", "card", "estate", "pact"], "the kind of item")


def _single(name):
    return lambda d, seat: [{"type": name}]


SPECS = [
    make_spec("draft_offer", {"to": SEAT}, _cand_start, _check_start, _do_start,
              f"Expert trade: start composing an offer to this player (at most {MAX_OFFERS} per phase)."),
    make_spec("draft_add", {"side": SIDE, "item": ITEM, "amount": Optional(IntRange(1, 10, "gold 1, 2, 5 or 10")),
                            "card": Optional(CARD), "estate": Optional(ESTATE)},
              _cand_add, _check_add, _do_add,
              f"Add one item to your draft: gold (amount; repeated amounts add up), a card of yours "
              f"(give only), an Estate of its holder, or a non-aggression pact (give only); at most "
              f"{MAX_ITEMS} items per side and {MAX_EDITS} changes per draft."),
    make_spec("draft_remove", {"side": SIDE, "item": ITEM, "card": Optional(CARD), "estate": Optional(ESTATE)},
              _cand_remove, _check_remove, _do_remove,
              "Remove one item from your draft (gold: the whole amount of that side)."),
    make_spec("send_offer", {}, _single("send_offer"), _check_send, _do_send,
              "Send your draft; the addressee accepts or declines it."),
    make_spec("cancel_draft", {}, _single("cancel_draft"), _check_cancel, _do_cancel,
              "Drop your draft (it still counts as one of your offers)."),
    make_spec("accept_offer", {}, _single("accept_offer"), _check_accept, _do_accept,
              "Accept the offer made to you; every item is carried out at once and binds both."),
    make_spec("decline_offer", {}, _single("decline_offer"), lambda d, s, a: None, _do_decline,
              "Decline the offer made to you; nothing changes."),
]
