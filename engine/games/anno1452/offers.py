"""Expert trade offers: bundles composed item by item, sent, accepted or declined.

A draft (``d["trade"]["draft"]``, seen only by its author) becomes the offer
(``d["offer"]``, its content seen only by its two parties) when sent. Each side
is ``{"gold", "cards", "estates", "pact"}``; the whole bundle is re-checked at
sending and at acceptance and carried out at once, so an accepted offer binds.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...kit import event, private_to
from ...params import IntRange, OneOf, Optional
from .actionkit import CARD, ESTATE, SEAT, always_allowed, bare_action, make_spec
from .board import estate_at, settle_holdings
from .bundles import (
    GOLD_STEPS,
    MAX_EDITS,
    MAX_ITEMS,
    MAX_OFFERS,
    SIDES,
    bundle_problem,
    empty_side,
    estates_of,
    estates_of_both,
    hand_over,
    side_items,
)
from .steps import decide, push_front

if TYPE_CHECKING:
    from ...core import Action, ActionSpec, Event
    from .state import Data


__all__ = ["GOLD_STEPS", "MAX_EDITS", "MAX_ITEMS", "MAX_OFFERS", "SPECS", "next_trader"]


def next_trader(d: Data) -> None:
    d["decision"] = None
    push_front(d, ["trade_round"])


# --- drafting -----------------------------------------------------------------------------


def _draft(d: Data):
    return d["trade"]["draft"]


def _draft_offer_check(d: Data, seat, action: Action) -> str | None:
    if _draft(d) is not None:
        return "draft_open"
    if d["trade"]["offers"][str(seat)] >= MAX_OFFERS:
        return "offer_limit"
    partner = action["to"]
    return None if partner != seat and partner < d["num_players"] else "no_such_partner"


def _draft_offer_candidates(d: Data, seat) -> list[Action]:
    return [{"type": "draft_offer", "to": partner} for partner in d["order"] if partner != seat]


def _draft_offer_perform(d: Data, seat, action: Action, events: list[Event]) -> None:
    # The budget is spent when drafting starts, so cancelled drafts count too (termination).
    d["trade"]["offers"][str(seat)] += 1
    d["trade"]["draft"] = {
        "from": seat,
        "to": action["to"],
        "give": empty_side(),
        "ask": empty_side(),
        "edits": 0,
    }
    _draft_event(events, seat, "offer_draft_started", {"to": action["to"]})


def _draft_event(events: list[Event], seat, kind, details) -> None:
    """Drafting is seen by the others only as "seat N is composing an offer"
    (the draft is its author's until sent); its author sees the details.
    Every accepted move leaves an event, so stream followers see it pass."""
    event(events, kind, seat, private={seat: details} if details else None)


def _edit_details(action: Action):
    return {field: value for field, value in action.items() if field != "type" and value is not None}


def _item_shape_problem(action: Action, fields):
    """One encoding per item: exactly the field the item needs (removing gold needs none)."""
    wanted = fields[action["item"]]
    if any((action.get(field) is not None) != (field == wanted) for field in ("amount", "card", "estate")):
        return "item_fields"
    if wanted == "amount" and action["amount"] not in GOLD_STEPS:
        return "gold_step"
    return None


def _edit_problem(d: Data, action: Action, fields):
    """Why the draft cannot take this change at all (whatever the item), or None."""
    draft = _draft(d)
    if draft is None:
        return "no_draft"
    if draft["edits"] >= MAX_EDITS:
        return "draft_edit_limit"
    return _item_shape_problem(action, fields)


def _draft_add_check(d: Data, seat, action: Action) -> str | None:
    problem = _edit_problem(d, action, ADD_FIELDS)
    if problem:
        return problem
    draft = _draft(d)
    side = draft[action["side"]]
    holder = draft["from"] if action["side"] == "give" else draft["to"]
    if side_items(side) >= MAX_ITEMS and not (action["item"] == "gold" and side["gold"]):
        return "too_many_items"
    return ADD_CHECKS[action["item"]](d, draft, holder, side, action)


def _gold_addable(d: Data, draft, holder, side, action: Action):
    return "not_enough_gold" if side["gold"] + action["amount"] > d["players"][holder]["gold"] else None


def _card_addable(d: Data, draft, holder, side, action: Action):
    if holder != draft["from"]:
        return "cards_are_only_given"  # the other hand is hidden
    if action["card"] in side["cards"]:
        return "already_in_offer"
    return None if action["card"] in d["players"][holder]["hand"] else "card_not_in_hand"


def _estate_addable(d: Data, draft, holder, side, action: Action):
    if action["estate"] in side["estates"]:
        return "already_in_offer"
    estate = estate_at(d, *action["estate"])
    return None if estate is not None and estate["owner"] == holder else "not_their_estate"


def _pact_addable(d: Data, draft, holder, side, action: Action):
    if holder != draft["from"]:
        return "pact_is_given"  # a pact binds both ways: one encoding, on the give side
    if side["pact"]:
        return "already_in_offer"
    return "pact_exists" if sorted([draft["from"], draft["to"]]) in d["pacts"] else None


# An item -> why it cannot be added; the action field that names it.
ADD_CHECKS = {"gold": _gold_addable, "card": _card_addable, "estate": _estate_addable, "pact": _pact_addable}
ADD_FIELDS = {"gold": "amount", "card": "card", "estate": "estate", "pact": None}
REMOVE_FIELDS = {**ADD_FIELDS, "gold": None}


def _draft_add_candidates(d: Data, seat) -> list[Action]:
    draft = _draft(d)
    if draft is None:
        return []
    actions = []
    for side, holder in (("give", draft["from"]), ("ask", draft["to"])):
        base = {"type": "draft_add", "side": side}
        actions += [{**base, "item": "gold", "amount": amount} for amount in GOLD_STEPS]
        actions += [{**base, "item": "estate", "estate": estate} for estate in estates_of(d, holder)]
    actions += [
        {"type": "draft_add", "side": "give", "item": "card", "card": card}
        for card in d["players"][seat]["hand"]
    ]
    actions.append({"type": "draft_add", "side": "give", "item": "pact"})
    return actions


def _draft_add_legal(d: Data, seat) -> list[Action]:
    """``_draft_add_candidates`` that pass ``_draft_add_check``, generated directly."""
    draft = _draft(d)
    if draft is None or draft["edits"] >= MAX_EDITS:
        return []
    author, players = draft["from"], d["players"]
    actions = []
    estates = estates_of_both(d, author, draft["to"])
    for side_name, holder, held in (("give", author, estates[0]), ("ask", draft["to"], estates[1])):
        side = draft[side_name]
        full = side_items(side) >= MAX_ITEMS
        if not full or side["gold"]:
            room = players[holder]["gold"] - side["gold"]
            actions += [
                {"type": "draft_add", "side": side_name, "item": "gold", "amount": amount}
                for amount in GOLD_STEPS
                if amount <= room
            ]
        if not full:
            taken = side["estates"]
            actions += [
                {"type": "draft_add", "side": side_name, "item": "estate", "estate": estate}
                for estate in held
                if estate not in taken
            ]
    give = draft["give"]
    if side_items(give) < MAX_ITEMS:
        # Cards and the pact are given by the author (the deciding seat).
        hand = players[author]["hand"]
        actions += [
            {"type": "draft_add", "side": "give", "item": "card", "card": card}
            for card in players[seat]["hand"]
            if card not in give["cards"] and card in hand
        ]
        if not give["pact"] and sorted([author, draft["to"]]) not in d["pacts"]:
            actions.append({"type": "draft_add", "side": "give", "item": "pact"})
    return actions


def _draft_add_perform(d: Data, seat, action: Action, events: list[Event]) -> None:
    draft = _draft(d)
    draft["edits"] += 1
    side = draft[action["side"]]
    item = action["item"]
    if item == "gold":
        side["gold"] += action["amount"]
    elif item == "pact":
        side["pact"] = True
    else:
        side[item + "s"].append(action[item])
    _draft_event(events, seat, "offer_draft_changed", {"change": "add", **_edit_details(action)})


def _draft_remove_check(d: Data, seat, action: Action) -> str | None:
    problem = _edit_problem(d, action, REMOVE_FIELDS)
    if problem:
        return problem
    side = _draft(d)[action["side"]]
    present = {
        "gold": side["gold"] > 0,
        "pact": side["pact"],
        "card": action.get("card") in side["cards"],
        "estate": action.get("estate") in side["estates"],
    }
    return None if present[action["item"]] else "not_in_offer"


def _draft_remove_candidates(d: Data, seat) -> list[Action]:
    draft = _draft(d)
    if draft is None:
        return []
    actions = []
    for side_name in SIDES:
        side, base = draft[side_name], {"type": "draft_remove", "side": side_name}
        actions += [{**base, "item": "gold"}] if side["gold"] else []
        actions += [{**base, "item": "card", "card": card} for card in side["cards"]]
        actions += [{**base, "item": "estate", "estate": estate} for estate in side["estates"]]
        actions += [{**base, "item": "pact"}] if side["pact"] else []
    return actions


def _draft_remove_legal(d: Data, seat) -> list[Action]:
    """Every item in the draft may be removed while edits are left."""
    draft = _draft(d)
    if draft is None or draft["edits"] >= MAX_EDITS:
        return []
    return _draft_remove_candidates(d, seat)


def _draft_remove_perform(d: Data, seat, action: Action, events: list[Event]) -> None:
    draft = _draft(d)
    draft["edits"] += 1
    side = draft[action["side"]]
    item = action["item"]
    if item == "gold":
        side["gold"] = 0
    elif item == "pact":
        side["pact"] = False
    else:
        side[item + "s"].remove(action[item])
    _draft_event(events, seat, "offer_draft_changed", {"change": "remove", **_edit_details(action)})


def _send_offer_check(d: Data, seat, action: Action) -> str | None:
    draft = _draft(d)
    if draft is None:
        return "no_draft"
    if not side_items(draft["give"]) and not side_items(draft["ask"]):
        return "empty_offer"
    return bundle_problem(d, draft)


def _send_offer_perform(d: Data, seat, action: Action, events: list[Event]) -> None:
    draft = d["trade"]["draft"]
    d["trade"]["draft"] = None
    offer = {"from": seat, "to": draft["to"], "give": draft["give"], "ask": draft["ask"]}
    d["offer"] = offer
    event(
        events,
        "offer_made",
        seat,
        to=offer["to"],
        private=private_to((seat, offer["to"]), offer=offer),
    )
    decide(d, "offer_reply", [offer["to"]])


def _cancel_draft_check(d: Data, seat, action: Action) -> str | None:
    return None if _draft(d) is not None else "no_draft"


def _cancel_draft_perform(d: Data, seat, action: Action, events: list[Event]) -> None:
    d["trade"]["draft"] = None
    _draft_event(events, seat, "offer_draft_cancelled", None)


# --- answering ----------------------------------------------------------------------------


def _accept_offer_check(d: Data, seat, action: Action) -> str | None:
    # Re-checked at acceptance: the bundle is carried out whole or not at all.
    return bundle_problem(d, d["offer"])


def _accept_offer_perform(d: Data, seat, action: Action, events: list[Event]) -> None:
    offer, d["offer"] = d["offer"], None
    giver = offer["from"]
    hand_over(d, giver, seat, offer["give"], events)
    hand_over(d, seat, giver, offer["ask"], events)
    if offer["give"]["pact"]:
        d["pacts"].append(sorted([giver, seat]))
        event(events, "pact_concluded", seat, parties=sorted([giver, seat]))
    event(events, "offer_accepted", seat, by=seat, offer_from=giver)
    settle_holdings(d, events)
    next_trader(d)


def _decline_offer_perform(d: Data, seat, action: Action, events: list[Event]) -> None:
    event(events, "offer_declined", seat, offer_from=d["offer"]["from"])
    d["offer"] = None
    next_trader(d)


SIDE = OneOf(list(SIDES), "give: from the offering player; ask: from the addressee")
ITEM = OneOf(["gold", "card", "estate", "pact"], "the kind of item")
GOLD_AMOUNT = IntRange(
    min(GOLD_STEPS), max(GOLD_STEPS), "gold " + ", ".join(map(str, GOLD_STEPS[:-1])) + f" or {GOLD_STEPS[-1]}"
)

# Annotated: mypyc (engine.native) cannot infer a type across the package's import cycle.
SPECS: list[ActionSpec[Any]] = [
    make_spec(
        "draft_offer",
        {"to": SEAT},
        _draft_offer_candidates,
        _draft_offer_check,
        _draft_offer_perform,
        f"Expert trade: start composing an offer to this player (at most {MAX_OFFERS} per phase).",
    ),
    make_spec(
        "draft_add",
        {
            "side": SIDE,
            "item": ITEM,
            "amount": Optional(GOLD_AMOUNT),
            "card": Optional(CARD),
            "estate": Optional(ESTATE),
        },
        _draft_add_candidates,
        _draft_add_check,
        _draft_add_perform,
        f"Add one item to your draft: gold (amount; repeated amounts add up), a card of yours "
        f"(give only), an Estate of its holder, or a non-aggression pact (give only); at most "
        f"{MAX_ITEMS} items per side and {MAX_EDITS} changes per draft.",
        _draft_add_legal,
    ),
    make_spec(
        "draft_remove",
        {"side": SIDE, "item": ITEM, "card": Optional(CARD), "estate": Optional(ESTATE)},
        _draft_remove_candidates,
        _draft_remove_check,
        _draft_remove_perform,
        "Remove one item from your draft (gold: the whole amount of that side).",
        _draft_remove_legal,
    ),
    make_spec(
        "send_offer",
        {},
        bare_action("send_offer"),
        _send_offer_check,
        _send_offer_perform,
        "Send your draft; the addressee accepts or declines it.",
    ),
    make_spec(
        "cancel_draft",
        {},
        bare_action("cancel_draft"),
        _cancel_draft_check,
        _cancel_draft_perform,
        "Drop your draft (it still counts as one of your offers).",
    ),
    make_spec(
        "accept_offer",
        {},
        bare_action("accept_offer"),
        _accept_offer_check,
        _accept_offer_perform,
        "Accept the offer made to you; every item is carried out at once and binds both.",
    ),
    make_spec(
        "decline_offer",
        {},
        bare_action("decline_offer"),
        always_allowed,
        _decline_offer_perform,
        "Decline the offer made to you; nothing changes.",
    ),
]
