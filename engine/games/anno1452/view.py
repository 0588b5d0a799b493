"""What one viewer may see: everything public, their own hand, their offers.

Never shown: the generator, the deck order, other players' hands (only their
size), the content of an offer to anyone but its two parties, a draft offer
to anyone but its author.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .board import principalities_of, totals
from .data import CARDS, MAX_CITIES, MAX_ESTATES, REGION_NAMES, ROWS
from .evaluation import victory_points
from .state import copy_data

if TYPE_CHECKING:
    from .state import Data


def _player_view(d: Data, seat, viewer):
    player = d["players"][seat]
    estates, citizens, cities = totals(d, seat)
    out = {
        "seat": seat,
        "name": None,
        "gold": player["gold"],
        "prestige": player["prestige"],
        "victory_points": victory_points(d, seat),
        "estates": estates,
        "citizens": citizens,
        "cities": cities,
        "principalities": [REGION_NAMES[region] for region in principalities_of(d, seat)],
        "titles": list(player["titles"]),
        "marriage": None
        if player["marriage"] is None
        else {
            "card": player["marriage"]["card"],
            "conveyed": [REGION_NAMES[region] for region in player["marriage"]["conveyed"]],
        },
        "married_this_epoch": player["married_this_epoch"],
    }
    if viewer == seat:
        out["hand"] = list(player["hand"])
    else:
        out["hand_size"] = len(player["hand"])
    return out


def _region_view(d: Data, region):
    area = d["regions"][region]
    return {
        "name": REGION_NAMES[region],
        "max_estates": MAX_ESTATES[region],
        "max_cities": MAX_CITIES[region],
        "slots": [None if estate is None else dict(estate) for estate in area["slots"]],
        "principality": area["principality"],
    }


def _offer_view(d: Data, viewer):
    offer = d["offer"]
    if offer is None:
        return None
    if viewer in (offer["from"], offer["to"]):
        return copy_data(offer)
    return {"from": offer["from"], "to": offer["to"]}


def _trade_view(d: Data):
    """Who is done trading and how many offers each made: public; drafts are not."""
    trade = d["trade"]
    if not trade:
        return None
    return {"done": list(trade["done"]), "offers": dict(trade["offers"]), "cursor": trade["cursor"]}


def _draft_view(d: Data, viewer):
    """A draft being composed is its author's alone (not even the addressee's)."""
    draft = d["trade"]["draft"] if d["trade"] else None
    return copy_data(draft) if draft is not None and draft["from"] == viewer else None


def build_view(d: Data, viewer):
    decision = d["decision"]
    return {
        "game": "anno1452",
        "options": dict(d["options"]),
        "num_players": d["num_players"],
        "year": ROWS[d["row"]]["year"],
        "row": d["row"],
        "final_year": ROWS[d["final_row"]]["year"],
        "action_round": d["ar"],
        "phase": d["phase"],
        "to_act": [] if d["result"] else list(decision["seats"]) if decision else [],
        "decision": None if decision is None else dict(decision),
        "order": list(d["order"]),
        "turn": d["turn"],
        "king": d["king"],
        "anti_king": d["anti_king"],
        "soldiers": dict(d["soldiers"]),
        "ottokar": d["options"]["scenario"] != "standard",
        "regions": [_region_view(d, region) for region in range(len(REGION_NAMES))],
        "deck_size": len(d["deck"]),
        "discard": list(d["discard"]),
        "open_cards": list(d["open_cards"]),
        "battle": None if d["battle"] is None else _battle_view(d["battle"]),
        "landfrieden": list(d["landfrieden"]),
        "pacts": [list(pact) for pact in d["pacts"]],
        "offer": _offer_view(d, viewer),
        "draft": _draft_view(d, viewer),
        "trade": _trade_view(d),
        # Public at the table; an AI needs them to rebuild a consistent state.
        "new_order": None if d.get("new_order") is None else list(d["new_order"]),
        "event_acted": d["event_acted"],
        "interregnum": d["interregnum"],
        "crowned": d["crowned"],
        "anti_king_row": d.get("anti_king_row"),
        # Special Actions played this evaluation round (face up at the table):
        # who has played one, and what their ER texts hold for the round.
        "er_used": list(d["er_used"]),
        "er_effects": copy_data(d["er_effects"]),
        "players": [_player_view(d, seat, viewer) for seat in range(d["num_players"])],
        "result": d["result"],
    }


def _battle_view(battle):
    return {
        key: (dict(value) if isinstance(value, dict) else list(value) if isinstance(value, list) else value)
        for key, value in battle.items()
    }


def card_catalogue():
    """The public card texts, for clients that render hands."""
    return CARDS
