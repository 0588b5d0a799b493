"""Evaluation-round decisions: discarding before the refill, turn order."""

from ...params import IntRange
from .actionkit import CARD, discard_from_hand, end_decision, make_spec
from .evaluation import discard_limits
from .state import event


def _check_discard(d, seat, a):
    if a["card"] not in d["players"][seat]["hand"]:
        return "card_not_in_hand"
    return None if discard_limits(d, seat)[1] > 0 else "discard_limit_reached"


def _cand_discard(d, seat):
    return [{"type": "discard", "card": c} for c in d["players"][seat]["hand"]]


def _do_discard(d, seat, a, events):
    discard_from_hand(d, seat, a["card"])
    event(events, "card_discarded", seat, card=a["card"], reason="cards_phase")
    d["decision"]["discarded"] += 1
    if discard_limits(d, seat)[1] == 0 or not d["players"][seat]["hand"]:
        end_decision(d)


def _check_keep(d, seat, a):
    return None if discard_limits(d, seat)[0] == 0 else "too_many_cards"


def _do_keep(d, seat, a, events):
    # Every accepted move leaves an event, so a client that follows the
    # stream learns that the decision passed on.
    event(events, "hand_kept", seat, cards=len(d["players"][seat]["hand"]))
    end_decision(d)


def _free_positions(d):
    return [i + 1 for i, s in enumerate(d["new_order"]) if s is None]


def _check_position(d, seat, a):
    return None if a["position"] in _free_positions(d) else "position_taken"


def _cand_position(d, seat):
    return [{"type": "choose_position", "position": p} for p in _free_positions(d)]


def _do_position(d, seat, a, events):
    d["new_order"][a["position"] - 1] = seat
    event(events, "position_chosen", seat, position=a["position"])
    end_decision(d)


SPECS = [
    make_spec("discard", {"card": CARD}, _cand_discard, _check_discard, _do_discard,
              "Cards phase: discard one card before refilling to 5."),
    make_spec("keep_hand", {}, lambda d, seat: [{"type": "keep_hand"}], _check_keep, _do_keep,
              "Cards phase: stop discarding and refill to 5."),
    make_spec("choose_position", {"position": IntRange(1, 4)}, _cand_position, _check_position, _do_position,
              "King, Anti-King, Landfrieden: choose a free space (1 = first) on the turn-order display."),
]
