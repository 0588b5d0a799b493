"""Determinization: a full Anno 1452 state consistent with one seat's view.

What the view hides is drawn uniformly: the cards nobody public holds (not in
the seat's hand, the discard, the open cards, titles or marriages) are dealt
to the other seats to match their hand sizes and the rest form the deck in a
random order; the generator (future dice) gets a fresh seed. The Special
Actions played in this evaluation round come from the view. The step queue,
which the view does not carry, is rebuilt: exactly for an action turn outside
a battle (the seats still to act, then the round's end), empty otherwise, so
a one-step look-ahead still works.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...games.anno1452.data import NUM_CARDS, REGION_INDEX, ROWS
from ...games.anno1452.state import copy_data

if TYPE_CHECKING:
    from ...core import View
    from ...rng import Rng


def unseen_cards(view: View, seat):
    """Card ids whose place the seat cannot know (other hands or the deck)."""
    known = set(view["players"][seat]["hand"]) | set(view["discard"]) | set(view["open_cards"])
    for p in view["players"]:
        known.update(p["titles"])
        if p["marriage"] is not None:
            known.add(p["marriage"]["card"])
    return [c for c in range(NUM_CARDS) if c not in known]


def _hands(view: View, seat, pool):
    hands = []
    for p in view["players"]:
        if "hand" in p:
            hands.append(list(p["hand"]))
        else:
            hands.append([pool.pop() for _ in range(p["hand_size"])])
    return hands


def _player(entry, hand):
    marriage = entry["marriage"]
    return {
        "gold": entry["gold"],
        "prestige": entry["prestige"],
        "hand": hand,
        "titles": list(entry["titles"]),
        "marriage": None
        if marriage is None
        else {"card": marriage["card"], "conveyed": [REGION_INDEX[r] for r in marriage["conveyed"]]},
        "married_this_epoch": entry["married_this_epoch"],
    }


def _queue(view: View):
    """The steps still to run: exact for an action turn outside a battle."""
    decision = view["decision"]
    if view["phase"] != "action" or view["battle"] is not None or decision["kind"] != "action_turn":
        return []
    order = view["order"]
    rest = order[order.index(view["turn"]) + 1 :]
    return [["turn", s] for s in rest] + [["ar_end", view["action_round"]]]


def _initial_regions(view: View):
    """During set-up every player's Estate is an initial one (Ottokar's are not)."""
    if view["phase"] != "setup":
        return []
    return [
        r
        for r, region in enumerate(view["regions"])
        if any(e is not None and e["owner"] != "ottokar" for e in region["slots"])
    ]


def _trade(view: View):
    public = view.get("trade")
    if public is None:
        return None
    return {
        "done": list(public["done"]),
        "offers": dict(public["offers"]),
        "cursor": public["cursor"],
        "draft": view["draft"],
    }


def sample_dump(view: View, seat, rng: Rng):
    """A dump (DESIGN.md format) consistent with ``view``; ``rng`` draws the rest."""
    pool = unseen_cards(view, seat)
    rng.shuffle(pool)
    hands = _hands(view, seat, pool)
    if len(pool) != view["deck_size"]:
        raise ValueError("the view's cards do not add up; cannot determinize")
    row = view["row"]
    return {
        "game": "anno1452",
        "rules_version": 1,
        "options": dict(view["options"]),
        "num_players": view["num_players"],
        "seed": 0,
        "rng": rng.next64(),
        "row": row,
        "ar": view["action_round"],
        "phase": view["phase"],
        "final_row": [r["year"] for r in ROWS].index(view["final_year"]),
        "order": list(view["order"]),
        "turn": view["turn"],
        "queue": _queue(view),
        "decision": dict(view["decision"]),
        "result": view["result"],
        "players": [_player(p, h) for p, h in zip(view["players"], hands)],
        "regions": [
            {"slots": [None if e is None else dict(e) for e in r["slots"]], "principality": r["principality"]}
            for r in view["regions"]
        ],
        "deck": pool,
        **_bookkeeping(view),
    }


def _bookkeeping(view: View):
    """The dump's public bookkeeping after the deck, copied from the view."""
    return {
        "discard": list(view["discard"]),
        "open_cards": list(view["open_cards"]),
        "initial_regions": _initial_regions(view),
        "event_acted": view["event_acted"],
        "interregnum": view["interregnum"],
        "crowned": view["crowned"],
        "king": view["king"],
        "anti_king": view["anti_king"],
        "anti_king_row": view["anti_king_row"],
        "soldiers": dict(view["soldiers"]),
        "battle": view["battle"],
        "landfrieden": list(view["landfrieden"]),
        "pacts": [list(p) for p in view["pacts"]],
        "offer": view["offer"] if view["offer"] is None or "give" in view["offer"] else None,
        "trade": _trade(view),
        "swap": None,
        "er_used": list(view["er_used"]),
        "er_effects": copy_data(view["er_effects"]),
        "new_order": None if view["new_order"] is None else list(view["new_order"]),
    }
