"""What the Anno 1452 picture says in words: names of seats, Estates and cards, the phase.

Seats are named as the web client names them (``svg.seat_name``: the
player's name, else "Seat 1", "Seat 2"... counted from 1); Ottokar, the
neutral power of the Ottokar scenarios, by his own name.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...games.anno1452.data import CARDS, OTTOKAR_ID, REGION_NAMES
from ..svg import seat_name

if TYPE_CHECKING:
    from ...core import View


DECISION_TEXTS = {
    "place_initial": "place an initial Estate",
    "action_turn": "take the turn's action",
    "soldiers": "commit Soldiers to the battle",
    "reaction": "play a reaction card (or none)",
    "losses": "allocate the battle's losses",
    "tournament": "join the tournament (3 gold) or not",
    "discard": "discard cards or keep the hand",
    "er_special": "play a Special Action or pass",
    "open_swap": "swap a hand card for an open card",
    "trade": "draft an offer or end trading",
    "offer_reply": "accept or decline the offer",
    "position": "choose a place in the next turn order",
}
EFFECT_NAMES = {c["effect"]: c["name"] for c in CARDS if "effect" in c}
SCENARIOS = {"standard": "standard set-up", "ottokar_a": "Ottokar set-up A", "ottokar_b": "Ottokar set-up B"}


def player_name(view: View, seat):
    """A seat's name; ``OTTOKAR_ID`` is Ottokar, ``None`` nobody."""
    if seat == OTTOKAR_ID:
        return "Ottokar"
    if seat is None:
        return "nobody"
    return seat_name(view["players"][seat])


def seats_text(view: View, seats):
    return ", ".join(player_name(view, s) for s in seats) or "nobody"


def estate_name(at):
    """``[region, slot]`` as people say it: "Franken slot 2"."""
    r, s = at
    return f"{REGION_NAMES[r]} slot {s + 1}"


def card_name(card):
    return CARDS[card]["name"]


def phase_text(view: View):
    phase = view["phase"]
    if phase == "setup":
        return "Set-up"
    if phase == "action":
        return f"Action round {view['action_round']}"
    if phase == "evaluation":
        return "Evaluation round"
    return "Game over"


def battle_title(view: View):
    """The battle in a sentence (the map's arrow and the "Now" box both say it)."""
    b = view["battle"]
    source = f" from {estate_name(b['from'])}" if b.get("from") is not None else " with Soldiers alone"
    return (
        f"Battle: {player_name(view, b['attacker'])} attacks {player_name(view, b['defender'])} "
        f"at {estate_name(b['target'])}{source}"
    )
