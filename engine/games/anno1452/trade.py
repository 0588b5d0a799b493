"""Expert phase 3, Trade & Agreements, and the 2-player open-card swap.

Players take turns, in turn order, to make an offer to one other player or
to declare themselves done. An offer is a bundle composed item by item
(``draft_offer``, ``draft_add``/``draft_remove``, then ``send_offer``): each
side holds at most ``MAX_ITEMS`` items (gold, cards and Estates given, gold
and Estates asked, one non-aggression pact that lasts until the next Trade
phase). The addressee accepts or declines; acceptance re-checks that both
sides can still deliver and carries out every item at once; pacts are
enforced by ``attack_problem``. Termination: each player starts at most
``MAX_OFFERS`` drafts per phase and changes a draft at most ``MAX_EDITS``
times (see ``offers.py``), so the phase always ends; it ends when every
player has declared done. Drafts are private to their author (``view``), offers to their two parties.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...kit import event
from ...params import IntRange
from . import offers
from .actionkit import CARD, bare_action, make_spec
from .data import CARDS, HAND_SIZE
from .deck import next_card, resolve_event
from .steps import decide, push_front

if TYPE_CHECKING:
    from collections.abc import Callable

    from ...core import Action, ActionSpec, Event
    from .state import Data


OPEN_CARDS = HAND_SIZE


def _trade_start(d: Data, events: list[Event]) -> None:
    if d["pacts"]:
        event(events, "pacts_expired", pacts=d["pacts"])
    d["pacts"] = []
    d["trade"] = {"done": [], "offers": {str(seat): 0 for seat in d["order"]}, "cursor": 0, "draft": None}
    if d["num_players"] == 2:
        _deal_open_cards(d, events)
        # In the first trade round the second player swaps first.
        first = d["order"][1] if d["row"] == 0 else d["order"][0]
        d["swap"] = {"seat": first, "swaps": 0, "declined_first": False}
        push_front(d, ["open_swap"], ["trade_round"])
    else:
        push_front(d, ["trade_round"])


def _deal_open_cards(d: Data, events: list[Event]) -> None:
    while len(d["open_cards"]) < OPEN_CARDS:
        card = next_card(d, events)
        if card is None:
            break
        if CARDS[card]["kind"] == "event":
            event(events, "event_drawn", None, card=card, effect=CARDS[card]["effect"])
            resolve_event(d, None, card, events, True)
            continue
        d["open_cards"].append(card)
    event(events, "open_cards_dealt", cards=list(d["open_cards"]))


def _open_swap(d: Data, events: list[Event]) -> None:
    if d["swap"] is not None:
        decide(d, "open_swap", [d["swap"]["seat"]])


def _other(d: Data, seat):
    return d["order"][1] if d["order"][0] == seat else d["order"][0]


def pass_open_swap(d: Data, seat, events: list[Event]) -> None:
    swap = d["swap"]
    event(events, "open_swap_stopped", seat)
    d["decision"] = None
    if swap["swaps"] == 0 and not swap["declined_first"]:
        swap["declined_first"] = True
        swap["seat"] = _other(d, seat)
        push_front(d, ["open_swap"])
    else:
        d["swap"] = None


def _swap_open_check(d: Data, seat, action: Action) -> str | None:
    if action["card"] not in d["players"][seat]["hand"]:
        return "card_not_in_hand"
    return None if action["open_card"] < len(d["open_cards"]) else "no_such_open_card"


def _swap_open_candidates(d: Data, seat) -> list[Action]:
    return [
        {"type": "swap_open", "card": card, "open_card": index}
        for card in d["players"][seat]["hand"]
        for index in range(len(d["open_cards"]))
    ]


def _swap_open_perform(d: Data, seat, action: Action, events: list[Event]) -> None:
    hand = d["players"][seat]["hand"]
    taken = d["open_cards"][action["open_card"]]
    hand.remove(action["card"])
    hand.append(taken)
    d["open_cards"][action["open_card"]] = action["card"]
    event(events, "open_card_swapped", seat, given=action["card"], taken=taken)
    d["swap"]["swaps"] += 1
    d["swap"]["seat"] = _other(d, seat)
    d["decision"] = None
    push_front(d, ["open_swap"])


# --- the phase's turns --------------------------------------------------------------------


def _trade_round(d: Data, events: list[Event]) -> None:
    trading = d["trade"]
    seats = len(d["order"])
    for offset in range(seats):
        seat = d["order"][(trading["cursor"] + offset) % seats]
        if seat not in trading["done"]:
            trading["cursor"] = (trading["cursor"] + offset + 1) % seats
            decide(d, "trade", [seat])
            return
    d["discard"] += d["open_cards"]
    d["open_cards"] = []
    d["trade"] = None
    event(events, "trade_ended")


def _end_trading_check(d: Data, seat, action: Action) -> str | None:
    return "draft_open" if d["trade"]["draft"] is not None else None


def _end_trading_perform(d: Data, seat, action: Action, events: list[Event]) -> None:
    d["trade"]["done"].append(seat)
    event(events, "trading_done", seat)
    offers.next_trader(d)


STEPS: dict[str, Callable[..., Any]] = {
    "trade": _trade_start,
    "open_swap": _open_swap,
    "trade_round": _trade_round,
}

# Decision kinds this module asks for (joined into flow.DECISION_TYPES).
DECISIONS: dict[str, tuple[str, ...]] = {
    "trade": ("draft_offer", "draft_add", "draft_remove", "send_offer", "cancel_draft", "end_trading"),
    "offer_reply": ("accept_offer", "decline_offer"),
}

# Annotated: mypyc (engine.native) cannot infer a type across the package's import cycle.
SPECS: list[ActionSpec[Any]] = [
    make_spec(
        "swap_open",
        {"card": CARD, "open_card": IntRange(0, OPEN_CARDS - 1)},
        _swap_open_candidates,
        _swap_open_check,
        _swap_open_perform,
        "2 players, expert: exchange a hand card for the open card at this index.",
        _swap_open_candidates,  # every candidate passes the check
    ),
    make_spec(
        "end_trading",
        {},
        bare_action("end_trading"),
        _end_trading_check,
        _end_trading_perform,
        "Declare that you have concluded your deals for this phase.",
    ),
] + offers.SPECS
