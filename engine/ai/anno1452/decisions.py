"""Rules of thumb for the decisions outside a turn: battle, cards, trade.

Each rule returns ``[(score, index)]`` like ``policy.score_actions`` so the
easy level's noise applies to them too. The value ``base`` of the position
is passed for rules that compare with standing still.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...games.anno1452.battle import side_estate
from ...games.anno1452.board import iter_estates
from ...games.anno1452.data import BORDERS, CARDS
from .cards import DRAW, card_value
from .evaluate import CARD, GOLD

if TYPE_CHECKING:
    from ...core import Action


_ACCEPT_MARGIN = 0.1
_SWAP_MARGIN = 0.3
_TOURNAMENT_GOLD = 6  # keep enough gold to build after paying 3


def _by(actions: list[Action], key):
    return [(key(a), i) for i, a in enumerate(actions)]


def _soldiers(d, seat, actions: list[Action], base):
    # Soldiers are lost after any battle they fight; in one's own battle all of them help.
    return _by(actions, lambda a: a["count"])


# What a reaction card adds to a battle, in rough points; below _KEEP_REACTION
# it is kept for a later battle. A truce saves the whole Estate, extra dice
# every round beat a single first strike; archers and treason depend on the
# Citizens that fight.
_REACTION_WORTH = {"waffenstillstand": 3.0, "verstaerkung": 2.0, "hinterhalt": 1.6, "befestigung": 1.4}
_KEEP_REACTION = 0.3


def _fighting_citizens(d, b, side):
    estate = side_estate(d, b, side)
    return estate["citizens"] if estate else 0


def reaction_worth(d, seat, effect):
    b = d["battle"]
    side = "attacker" if b["attacker"] == seat else "defender"
    other = "defender" if side == "attacker" else "attacker"
    if effect == "bogenschuetzen":
        return 0.4 * _fighting_citizens(d, b, side)
    if effect == "verrat":
        theirs = _fighting_citizens(d, b, other)
        return 0.6 * min(2, theirs) if theirs else 0.6
    return _REACTION_WORTH.get(effect, 0.0)


def _reaction(d, seat, actions: list[Action], base):
    def score(a):
        if a.get("card") is None:
            return _KEEP_REACTION
        return reaction_worth(d, seat, CARDS[a["card"]]["effect"])

    return _by(actions, score)


def _losses(d, seat, actions: list[Action], base):
    # Citizens are points and income; Soldiers are gone after the battle anyway.
    return _by(actions, lambda a: -a["citizens"])


def _tournament(d, seat, actions: list[Action], base):
    p = d["players"][seat]
    worth = p["gold"] >= _TOURNAMENT_GOLD and p["prestige"] < 20
    return _by(actions, lambda a: float((a["join"] == "yes") == worth))


def _discard(d, seat, actions: list[Action], base):
    def score(a):
        if a["type"] == "keep_hand":
            return 0.0
        return DRAW - card_value(d, seat, a["card"])

    return _by(actions, score)


def _open_swap(d, seat, actions: list[Action], base):
    def score(a):
        if a["type"] == "pass":
            return _SWAP_MARGIN
        gain = card_value(d, seat, d["open_cards"][a["open_card"]])
        return gain - card_value(d, seat, a["card"])

    return _by(actions, score)


def _position(d, seat, actions: list[Action], base):
    return _by(actions, lambda a: -a["position"])


# --- trade ------------------------------------------------------------------------------


def threat(d, attacker, defender):
    """How many of ``defender``'s Estates ``attacker`` could attack from next door."""
    regions = {r for r, _, _ in iter_estates(d, attacker)}
    reach = regions | {b for r in regions for b in BORDERS[r]}
    return sum(1 for r, _, _ in iter_estates(d, defender) if r in reach)


def _has_pact(d, a, b) -> bool:
    return [a, b] in d["pacts"] or [b, a] in d["pacts"]


def pact_worth(d, me, other):
    """A pact's worth to ``me``: safety from ``other`` minus the targets given up."""
    return 0.4 * threat(d, other, me) - 0.25 * threat(d, me, other)


def _estate_worth(d, ref):
    e = d["regions"][ref[0]]["slots"][ref[1]]
    return 0 if e is None else 1.5 + e["citizens"] * 0.6 + (1.5 if e["city"] else 0)


def side_worth(d, holder, side, taker):
    """What ``side`` (given by ``holder``) is worth to ``taker``."""
    worth = side["gold"] * GOLD + len(side["cards"]) * CARD * 2
    worth += sum(_estate_worth(d, ref) for ref in side["estates"])
    if side["pact"]:
        worth += pact_worth(d, taker, holder)
    return worth


def _offer_reply(d, seat, actions: list[Action], base):
    offer = d["offer"]
    gain = side_worth(d, offer["from"], offer["give"], seat)
    cost = side_worth(d, seat, offer["ask"], offer["from"]) if not offer["ask"]["pact"] else 0.0
    cost += sum(card_value(d, seat, c) for c in offer["ask"]["cards"])
    accept = gain - cost > _ACCEPT_MARGIN
    return _by(actions, lambda a: float((a["type"] == "accept_offer") == accept))


def _pact_target(d, seat):
    """The most threatening neighbour without a pact, or None."""
    scored = [
        (threat(d, other, seat), other)
        for other in range(d["num_players"])
        if other != seat and not _has_pact(d, seat, other) and pact_worth(d, seat, other) > 0.3
    ]
    return max(scored)[1] if scored else None


def _trade(d, seat, actions: list[Action], base):
    """Offer a pact (with 2 gold if the partner would lose by it) to a threatening neighbour."""
    draft = d["trade"]["draft"] if d["trade"] else None
    if draft is None:
        target = _pact_target(d, seat)
        wanted = {"type": "draft_offer", "to": target}
        return _by(actions, lambda a: 2.0 if a == wanted else 1.0 if a["type"] == "end_trading" else 0.0)
    partner = draft["to"]
    sweeten = pact_worth(d, partner, seat) < _ACCEPT_MARGIN and d["players"][seat]["gold"] >= 8
    give = draft["give"]

    def score(a):
        if a["type"] == "draft_add" and a["side"] == "give" and a["item"] == "pact" and not give["pact"]:
            return 3.0
        if (
            a["type"] == "draft_add"
            and a["side"] == "give"
            and a["item"] == "gold"
            and give["pact"]
            and sweeten
            and give["gold"] == 0
            and a.get("amount") == 2
        ):
            return 2.5
        if a["type"] == "send_offer":
            return 2.0
        return 1.0 if a["type"] == "cancel_draft" else 0.0

    return _by(actions, score)


RULES = {
    "soldiers": _soldiers,
    "reaction": _reaction,
    "losses": _losses,
    "tournament": _tournament,
    "discard": _discard,
    "open_swap": _open_swap,
    "position": _position,
    "trade": _trade,
    "offer_reply": _offer_reply,
}
