"""Evaluation-round decisions: discarding before the refill, turn order."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...kit import event
from ...params import IntRange
from .actionkit import CARD, bare_action, discard_from_hand, end_decision, make_spec
from .evaluation import discard_limits
from .steps import change_decision

if TYPE_CHECKING:
    from ...core import Action, ActionSpec, Event
    from .state import Data


def _discard_check(d: Data, seat, action: Action) -> str | None:
    if action["card"] not in d["players"][seat]["hand"]:
        return "card_not_in_hand"
    return None if discard_limits(d, seat)[1] > 0 else "discard_limit_reached"


def _discard_candidates(d: Data, seat) -> list[Action]:
    return [{"type": "discard", "card": card} for card in d["players"][seat]["hand"]]


def _discard_legal(d: Data, seat) -> list[Action]:
    """``_discard_candidates`` that pass ``_discard_check``: all of them or none."""
    return _discard_candidates(d, seat) if discard_limits(d, seat)[1] > 0 else []


def _discard_perform(d: Data, seat, action: Action, events: list[Event]) -> None:
    discard_from_hand(d, seat, action["card"])
    event(events, "card_discarded", seat, card=action["card"], reason="cards_phase")
    change_decision(d, discarded=d["decision"]["discarded"] + 1)
    if discard_limits(d, seat)[1] == 0 or not d["players"][seat]["hand"]:
        end_decision(d)


def _keep_hand_check(d: Data, seat, action: Action) -> str | None:
    return None if discard_limits(d, seat)[0] == 0 else "too_many_cards"


def _keep_hand_perform(d: Data, seat, action: Action, events: list[Event]) -> None:
    # Every accepted move leaves an event, so a client that follows the
    # stream learns that the decision passed on.
    event(events, "hand_kept", seat, cards=len(d["players"][seat]["hand"]))
    end_decision(d)


def _free_positions(d: Data):
    return [index + 1 for index, seat in enumerate(d["new_order"]) if seat is None]


def _choose_position_check(d: Data, seat, action: Action) -> str | None:
    return None if action["position"] in _free_positions(d) else "position_taken"


def _choose_position_candidates(d: Data, seat) -> list[Action]:
    return [{"type": "choose_position", "position": p} for p in _free_positions(d)]


def _choose_position_perform(d: Data, seat, action: Action, events: list[Event]) -> None:
    d["new_order"][action["position"] - 1] = seat
    event(events, "position_chosen", seat, position=action["position"])
    end_decision(d)


# Annotated: mypyc (engine.native) cannot infer a type across the package's import cycle.
SPECS: list[ActionSpec[Any]] = [
    make_spec(
        "discard",
        {"card": CARD},
        _discard_candidates,
        _discard_check,
        _discard_perform,
        "Cards phase: discard one card before refilling to 5.",
        _discard_legal,
    ),
    make_spec(
        "keep_hand",
        {},
        bare_action("keep_hand"),
        _keep_hand_check,
        _keep_hand_perform,
        "Cards phase: stop discarding and refill to 5.",
    ),
    make_spec(
        "choose_position",
        {"position": IntRange(1, 4)},
        _choose_position_candidates,
        _choose_position_check,
        _choose_position_perform,
        "King, Anti-King, Landfrieden: choose a free space (1 = first) on the turn-order display.",
    ),
]
