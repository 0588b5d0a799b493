"""Anno 1452's action types whose parameter product is too big to list
(Estates are [region, slot] squares, cards are 89 ids): only what the rules
can ever offer, read from the printed content (map and card list).

- settle: 1-3 Estates in ascending order (repeats allowed), as the rules list them;
- attack / Söldner / Fehde: a target Estate from an Estate in the same or a
  bordering region, or from nowhere (King / Anti-King);
- build_city: a region card and an Estate of that card's region;
- marry: a Marriage card, and a card to discard only for marriages whose
  disadvantage is "discard a card";
- play_special: each Special Action card bare, and with the parameter its
  effect takes (amount, region, target, target and from);
- draft_add / draft_remove: a side and one item (gold amount, card, Estate, pact).

Each list is a superset of what ``legal_actions`` can yield: values never
legal cost only an index each.
"""

from __future__ import annotations

from itertools import combinations_with_replacement
from typing import TYPE_CHECKING

from engine.games.anno1452.data import (
    BORDERS,
    CARDS,
    MAX_ESTATES,
    REGION_INDEX,
    REGION_NAMES,
)

if TYPE_CHECKING:
    pass


ESTATES = [[r, s] for r in range(len(REGION_NAMES)) for s in range(MAX_ESTATES[r])]
CARD_IDS = [card["id"] for card in CARDS]
GOLD_AMOUNTS = range(1, 11)
SIDES = ("give", "ask")


def _cards(kind=None, effect=None):
    return [
        c["id"]
        for c in CARDS
        if (kind is None or c["kind"] == kind) and (effect is None or c.get("effect") == effect)
    ]


def _in_reach(origin, target):
    return origin != target and (target[0] == origin[0] or target[0] in BORDERS[origin[0]])


def attack_pairs(base):
    """Every target from every Estate in reach, then every target from nowhere."""
    out = [{**base, "target": t, "from": o} for o in ESTATES for t in ESTATES if _in_reach(o, t)]
    return out + [{**base, "target": t} for t in ESTATES]


def settle(num_players: int):
    out = []
    for k in (1, 2, 3):
        for combo in combinations_with_replacement(ESTATES, k):
            action = {"type": "settle", "at": combo[0]}
            action.update({f"at{i + 1}": ref for i, ref in enumerate(combo[1:], start=1)})
            out.append(action)
    return out


def attack(num_players: int):
    return attack_pairs({"type": "attack"})


def build_city(num_players: int):
    return [
        {"type": "build_city", "card": c["id"], "at": ref}
        for c in CARDS
        if c["kind"] in ("marriage", "title", "inheritance")
        for ref in ESTATES
        if ref[0] == REGION_INDEX[c["region"]]
    ]


def marry(num_players: int):
    out = []
    for card in _cards("marriage"):
        out.append({"type": "marry", "card": card})
        if any("discard" in dis for dis in CARDS[card]["disadvantages"]):
            out += [{"type": "marry", "card": card, "discard": other} for other in CARD_IDS if other != card]
    return out


def play_special(num_players: int):
    out = []
    for card in _cards("special"):
        base = {"type": "play_special", "card": card}
        out.append(base)
        effect = CARDS[card].get("effect")
        if effect == "ablass":
            out += [{**base, "amount": n} for n in (1, 2)]
        elif effect in ("soeldner", "fehde"):
            out += attack_pairs(base)
        elif effect == "pest":
            out += [{**base, "region": name} for name in REGION_NAMES]
        elif effect == "stadtrecht":
            out += [{**base, "target": ref} for ref in ESTATES]
    return out


def _draft_items(kind, side, with_amount):
    base = {"type": kind, "side": side}
    gold = (
        [{**base, "item": "gold", "amount": g} for g in GOLD_AMOUNTS]
        if with_amount
        else [{**base, "item": "gold"}]
    )
    return (
        gold
        + [{**base, "item": "card", "card": c} for c in CARD_IDS]
        + [{**base, "item": "estate", "estate": ref} for ref in ESTATES]
        + [{**base, "item": "pact"}]
    )


def draft_add(num_players: int):
    return [a for side in SIDES for a in _draft_items("draft_add", side, with_amount=True)]


def draft_remove(num_players: int):
    return [a for side in SIDES for a in _draft_items("draft_remove", side, with_amount=False)]


ENUMERATORS = {
    "settle": settle,
    "attack": attack,
    "build_city": build_city,
    "marry": marry,
    "play_special": play_special,
    "draft_add": draft_add,
    "draft_remove": draft_remove,
}
