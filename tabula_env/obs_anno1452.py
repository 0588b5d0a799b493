"""Anno 1452's observation groups, from one seat's view.

- ``game`` (1-D): year, row, final year, action round, phase, the pending
  decision's kind and whether it is the viewer's, turn order and the seat
  whose turn it is, King and Anti-King, their soldiers, Ottokar, deck size,
  battle / offer / draft present (an offer's content only shows to its two
  parties: here only its presence), interregnum, crowned, event played, and
  the evaluation round's public marks (Landfrieden, pacts, ER cards used and
  their effects).
- ``board`` (regions x slots x channels): slot exists, Estate there, its
  owner (seat-relative; last channel Ottokar / neutral), strength, City,
  citizens.
- ``regions`` (regions x channels): principality holder, Estate and City limits.
- ``hand``: the viewer's own cards (count per card id); ``open_cards`` and
  ``discard``: the face-up cards (public).
- ``players`` (seats x features, the viewer first): gold, prestige, victory
  points, Estates, citizens, Cities, principalities, titles, married,
  married this epoch, hand size.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

import engine

from .features import number, one_hot, relative_players, seat_one_hot, seats_multi_hot

if TYPE_CHECKING:
    from typing import Any


if TYPE_CHECKING:
    from engine.core import View


_SPECS: Any = engine.get_game("anno1452").action_specs  # parameter domains by name
NUM_CARDS = _SPECS["discard"].params["card"].hi + 1
_ESTATE = _SPECS["settle"].params["at"]
NUM_REGIONS, MAX_SLOTS = _ESTATE.rows, _ESTATE.cols
PHASES = ("setup", "action", "evaluation", "over")
DECISIONS = (
    "place_initial",
    "action_turn",
    "soldiers",
    "reaction",
    "losses",
    "tournament",
    "discard",
    "position",
    "er_special",
    "trade",
    "open_swap",
    "offer_reply",
)
ER_MARKS = ("sondersteuer", "messe", "steuerpacht", "reichstag", "landfrieden")


def _cards(ids):
    out = [0.0] * NUM_CARDS
    for card in ids or ():
        out[card] += 1.0
    return out


def _order(view: View, seat: int, n):
    """Each seat's (relative) place in the turn order, 0 when not in it."""
    out = [0.0] * n
    for place, s in enumerate(view.get("order") or (), start=1):
        out[(s - seat) % n] = float(place)
    return out


def _game(view: View, seat: int, n):
    decision = view.get("decision") or {}
    soldiers = view.get("soldiers") or {}
    trade = view.get("trade") or {}
    effects = view.get("er_effects") or {}
    pacts = [other for pair in view.get("pacts") or () if seat in pair for other in pair if other != seat]
    return (
        [number(view.get(k)) for k in ("year", "row", "final_year", "action_round")]
        + one_hot(view.get("phase"), PHASES)
        + one_hot(decision.get("kind"), DECISIONS)
        + [1.0 if seat in (decision.get("seats") or ()) else 0.0]
        + _order(view, seat, n)
        + seat_one_hot(view.get("turn"), seat, n)
        + seat_one_hot(view.get("king"), seat, n)
        + seat_one_hot(view.get("anti_king"), seat, n)
        + [number(soldiers.get("king")), number(soldiers.get("anti_king")), number(view.get("ottokar"))]
        + [number(view.get("deck_size"))]
        + [0.0 if view.get(k) is None else 1.0 for k in ("battle", "offer", "draft", "new_order")]
        + [number(view.get(k)) for k in ("interregnum", "crowned", "event_acted")]
        + seats_multi_hot(view.get("landfrieden"), seat, n)
        + seats_multi_hot(pacts, seat, n)
        + seats_multi_hot(trade.get("done"), seat, n)
        + seats_multi_hot(view.get("er_used"), seat, n)
        + [x for mark in ER_MARKS for x in seats_multi_hot(effects.get(mark), seat, n)]
        + seat_one_hot(effects.get("bestechung"), seat, n)
    )


def _board(view: View, seat: int, n):
    channels = 2 + (n + 1) + 3
    flat = [0.0] * (NUM_REGIONS * MAX_SLOTS * channels)  # a flat list: cheaper than numpy item writes
    for r, region in enumerate(view["regions"]):
        for s, estate in enumerate(region["slots"]):
            at = (r * MAX_SLOTS + s) * channels
            flat[at] = 1.0
            if estate is not None:
                owner = estate.get("owner")
                flat[at + 1] = 1.0
                flat[at + 2 + ((owner - seat) % n if type(owner) is int else n)] = 1.0
                flat[at + 3 + n : at + channels] = (
                    number(estate.get("strength")),
                    number(estate.get("city")),
                    number(estate.get("citizens")),
                )
    return np.array(flat, dtype=np.float32).reshape(NUM_REGIONS, MAX_SLOTS, channels)


def _regions(view: View, seat: int, n):
    out = []
    for region in view["regions"]:
        holder = region.get("principality")
        out.append(
            (seat_one_hot(holder, seat, n) if holder is not None else [0.0] * (n + 1))
            + [number(region.get("max_estates")), number(region.get("max_cities"))]
        )
    return out


def _player(player: dict[str, Any]):
    hand = player.get("hand")
    return (
        [
            number(player.get(k))
            for k in ("gold", "prestige", "victory_points", "estates", "citizens", "cities")
        ]
        + [float(len(player.get("principalities") or ())), float(len(player.get("titles") or ()))]
        + [0.0 if player.get("marriage") is None else 1.0, number(player.get("married_this_epoch"))]
        + [float(len(hand)) if hand is not None else number(player.get("hand_size"))]
    )


def encode(view: View, seat: int, num_players: int):
    """The groups of ``view`` for ``seat`` (see the module docstring)."""
    return {
        "game": _game(view, seat, num_players),
        "board": _board(view, seat, num_players),
        "regions": _regions(view, seat, num_players),
        "hand": _cards(view["players"][seat].get("hand")),
        "open_cards": _cards(view.get("open_cards")),
        "discard": _cards(view.get("discard")),
        "players": [_player(p) for p in relative_players(view, seat)],
    }
