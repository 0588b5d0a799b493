"""Decisions inside a battle and a tournament, possibly by several seats.

``to_act`` lists every seat that still has to answer (both sides for
reactions and losses); the battle resumes once the last one has answered.
"""

from ...params import IntRange, OneOf, Optional
from .actionkit import CARD, discard_from_hand, make_spec
from .battle import apply_losses, loss_range, side_of, usable_reactions
from .data import CARDS, KING_SOLDIERS
from .deck import crowned_role
from .state import change_prestige, event, pay_gold
from .steps import push_front

TOURNAMENT_FEE = 3


def _answered(d, seat):
    """Drop ``seat`` from the pending decision; True when nobody is left."""
    d["decision"]["seats"].remove(seat)
    if d["decision"]["seats"]:
        return False
    d["decision"] = None
    return True


# --- soldiers ----------------------------------------------------------------------

def _soldier_range(d, seat):
    b = d["battle"]
    side = d["decision"]["side"]
    available = d["soldiers"][crowned_role(d, seat)]
    needs_one = side == "attacker" and b["from"] is None and b["soldiers"]["attacker"] == 0
    return (1 if needs_one else 0), available


def _check_commit(d, seat, a):
    lo, hi = _soldier_range(d, seat)
    return None if lo <= a["count"] <= hi else "soldiers_out_of_range"


def _cand_commit(d, seat):
    lo, hi = _soldier_range(d, seat)
    return [{"type": "commit_soldiers", "count": n} for n in range(lo, hi + 1)]


def _do_commit(d, seat, a, events):
    b = d["battle"]
    side = d["decision"]["side"]
    d["soldiers"][crowned_role(d, seat)] -= a["count"]
    b["soldiers"][side] += a["count"]
    b["committed"][side] = a["count"]
    event(events, "soldiers_committed", seat, side=side, count=a["count"])
    d["decision"] = None
    push_front(d, ["battle"])


# --- reactions -----------------------------------------------------------------------

def _check_react(d, seat, a):
    b = d["battle"]
    card = a.get("card")
    if card is None:
        return None
    return None if card in usable_reactions(d, b, side_of(b, seat)) else "reaction_not_playable"


def _cand_react(d, seat):
    b = d["battle"]
    cards = usable_reactions(d, b, side_of(b, seat))
    return [{"type": "react", "card": None}] + [{"type": "react", "card": c} for c in cards]


def _do_react(d, seat, a, events):
    b = d["battle"]
    side = side_of(b, seat)
    b["answered"].append(side)
    card = a.get("card")
    if card is not None:
        discard_from_hand(d, seat, card)
        b["reactions"][side] = CARDS[card]["effect"]
        event(events, "reaction_played", seat, card=card, effect=CARDS[card]["effect"], side=side)
    else:
        event(events, "no_reaction", seat, side=side)
    if _answered(d, seat):
        push_front(d, ["battle"])


# --- losses --------------------------------------------------------------------------

def _check_losses(d, seat, a):
    b = d["battle"]
    lo, hi = loss_range(d, b, side_of(b, seat))
    return None if lo <= a["citizens"] <= hi else "losses_out_of_range"


def _cand_losses(d, seat):
    b = d["battle"]
    lo, hi = loss_range(d, b, side_of(b, seat))
    return [{"type": "take_losses", "citizens": n} for n in range(lo, hi + 1)]


def _do_losses(d, seat, a, events):
    b = d["battle"]
    apply_losses(d, b, side_of(b, seat), a["citizens"], events)
    if _answered(d, seat):
        b["stage"] = "after_losses"
        push_front(d, ["battle"])


# --- tournament ------------------------------------------------------------------------

def _check_join(d, seat, a):
    if a["join"] == "yes" and d["players"][seat]["gold"] < TOURNAMENT_FEE:
        return "not_enough_gold"
    return None


def _cand_join(d, seat):
    return [{"type": "join_tournament", "join": "no"}, {"type": "join_tournament", "join": "yes"}]


def _do_join(d, seat, a, events):
    if a["join"] == "yes":
        pay_gold(d, seat, TOURNAMENT_FEE, events, "turnier")
        change_prestige(d, seat, 1, events, "turnier")
    else:
        event(events, "tournament_declined", seat)
    _answered(d, seat)


SPECS = [
    make_spec("commit_soldiers", {"count": IntRange(0, KING_SOLDIERS)}, _cand_commit, _check_commit, _do_commit,
              "King/Anti-King: bring this many Soldiers into the battle (they are lost afterwards)."),
    make_spec("react", {"card": Optional(CARD)}, _cand_react, _check_react, _do_react,
              "Play one reaction card in this battle, or null for none."),
    make_spec("take_losses", {"citizens": IntRange(0, 24)}, _cand_losses, _check_losses, _do_losses,
              "Allocate the hits: this many Citizens, the rest Soldiers, then the Estate."),
    make_spec("join_tournament", {"join": OneOf(["yes", "no"])}, _cand_join, _check_join, _do_join,
              "Turnier: pay 3 gold for +1 Prestige, or not."),
]
