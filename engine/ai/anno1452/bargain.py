"""``hard``'s trade: a non-aggression pact is sold, not given away.

A pact is worth more to one side than to the other: to the seat whose
Estates the partner could attack from next door (``decisions.pact_worth``).
The medium rule gives pacts for free (or pays for them) and accepts any
offer worth more to it than it costs. ``hard`` instead prices a pact at what
it saves the partner: it asks for the most gold the partner should still
accept, reckoned on public facts only (who borders whose Estates, the
partner's gold), and declines a free pact from a partner who would pay for
one, to sell it on its own trade turn. Where no partner would pay, it trades
as medium does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...games.anno1452.offers import GOLD_STEPS, MAX_EDITS, MAX_OFFERS
from ..levels import greedy
from .decisions import _ACCEPT_MARGIN, RULES, _by, _has_pact, pact_worth
from .evaluate import GOLD
from .policy import score_actions as policy_scores

if TYPE_CHECKING:
    from typing import Any

    from ...core import Action, Game


# A price this far below the partner's limit still leaves it a reason to
# accept: the sum is reckoned as the partner reckons it, and float rounding
# must not turn a near-limit offer into a refusal.
_SLACK = 1e-6


def pact_price(d, seller, buyer):
    """The most gold ``buyer`` should pay ``seller`` for a pact: its safety
    gain less the margin it wants, at its price of gold; within its purse
    and what one draft can ask (one edit goes to the pact itself)."""
    if _has_pact(d, seller, buyer):
        return 0
    room = pact_worth(d, buyer, seller) - _ACCEPT_MARGIN - _SLACK
    most = (MAX_EDITS - 1) * max(GOLD_STEPS)
    return max(0, min(int(room / GOLD), d["players"][buyer]["gold"], most))


def buyers(d, seat):
    """``{partner: price}`` of every other seat that would pay for a pact."""
    prices = {other: pact_price(d, seat, other) for other in range(d["num_players"]) if other != seat}
    return {other: price for other, price in prices.items() if price > 0}


def _open_sale(actions: list[Action], prices):
    """Start a draft to the partner who would pay most."""
    partner = max(prices, key=lambda s: (prices[s], -s))
    wanted = {"type": "draft_offer", "to": partner}
    return _by(actions, lambda a: 1.0 if a == wanted else 0.0)


def _next_gold_step(asked, price):
    """The largest gold step that keeps the ask within ``price``, or None."""
    fitting = [g for g in GOLD_STEPS if asked + g <= price]
    return max(fitting) if fitting else None


def _compose_sale(draft, actions: list[Action], price):
    """Give the pact, ask gold up to the price step by step, then send (with
    what is asked so far if the draft runs out of edits first)."""
    step = _next_gold_step(draft["ask"]["gold"], price)

    def score(a):
        kind = a["type"]
        if kind == "draft_add" and a["side"] == "give" and a["item"] == "pact":
            return 3.0 if not draft["give"]["pact"] else 0.0
        if kind == "draft_add" and a["side"] == "ask" and a["item"] == "gold":
            return 2.5 if draft["give"]["pact"] and a["amount"] == step else 0.0
        return 2.0 if kind == "send_offer" and draft["give"]["pact"] else 0.0

    return _by(actions, score)


def _trade(d, seat, actions: list[Action], base):
    draft = d["trade"]["draft"]
    prices = buyers(d, seat)
    if draft is None:
        if prices and _offers_left(d, seat):
            return _open_sale(actions, prices)
        return RULES["trade"](d, seat, actions, base)
    if draft["to"] in prices:
        return _compose_sale(draft, actions, prices[draft["to"]])
    return RULES["trade"](d, seat, actions, base)


def _offers_left(d, seat):
    return MAX_OFFERS - d["trade"]["offers"][str(seat)]


def _offer_reply(d, seat, actions: list[Action], base):
    """Decline a pact its giver would pay for, while offers are left to sell
    every such pact; otherwise answer as medium does."""
    offer = d["offer"]
    giver = offer["from"]
    prices = buyers(d, seat)
    price = prices.get(giver, 0)
    free_pact = offer["give"]["pact"] and not any(offer["ask"][k] for k in ("gold", "cards", "estates"))
    if free_pact and price > offer["give"]["gold"] and _offers_left(d, seat) >= len(prices):
        return _by(actions, lambda a: float(a["type"] == "decline_offer"))
    return RULES["offer_reply"](d, seat, actions, base)


HARD_RULES = {"trade": _trade, "offer_reply": _offer_reply}


def score_actions(game: Game[Any], state, seat, actions: list[Action]):
    """The policy's scores, with ``hard``'s own rules for trade decisions."""
    rule = HARD_RULES.get(state.data["decision"]["kind"])
    if rule is None:
        return policy_scores(game, state, seat, actions)
    return rule(state.data, seat, actions, None)


greedy_choice = greedy(score_actions)
