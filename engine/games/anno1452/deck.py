"""The action deck: drawing, Event cards as they are drawn, the crowns.

Events are never held: the first one drawn in each Action Round or
Evaluation Round takes effect, later ones are discarded, and the drawer
draws a replacement (ruling 11). "Bitte Karten mischen" always acts.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...kit import event
from .board import totals
from .data import CARDS, KING_SOLDIERS, PRICES
from .state import change_prestige, players_of, roll, shuffle

if TYPE_CHECKING:
    from ...core import Event
    from .state import Data


# What a new King or Anti-King draws and gains.
CROWN_CARDS = PRICES["crown"]["cards"]
CROWN_PRESTIGE = PRICES["crown"]["prestige"]


def next_card(d: Data, events: list[Event]):
    if not d["deck"] and d["discard"]:
        d["deck"], d["discard"] = d["discard"], []
        shuffle(d, d["deck"])
        event(events, "deck_reshuffled", size=len(d["deck"]))
    return d["deck"].pop() if d["deck"] else None


def draw_cards(d: Data, seat, count, events: list[Event], events_act=True):
    """``seat`` draws ``count`` non-Event cards; Events act or are discarded.

    ``events_act`` is False during the set-up deal, where Events are only
    replaced (ruling 11).
    """
    drawn: list[int] = []
    while len(drawn) < count:
        card = next_card(d, events)
        if card is None:
            break
        if CARDS[card]["kind"] == "event":
            event(events, "event_drawn", seat, card=card, effect=CARDS[card]["effect"])
            resolve_event(d, seat, card, events, events_act)
            continue
        d["players"][seat]["hand"].append(card)
        drawn.append(card)
    if drawn:
        event(events, "cards_drawn", seat, count=len(drawn), private={str(seat): {"cards": drawn}})
    return drawn


def resolve_event(d: Data, seat, card, events: list[Event], events_act) -> None:
    effect = CARDS[card]["effect"]
    if events_act and effect == "mischen":
        d["deck"].extend(d["discard"])
        d["deck"].append(card)
        d["discard"] = []
        shuffle(d, d["deck"])
        event(events, "deck_reshuffled", size=len(d["deck"]), reason="event")
        return
    d["discard"].append(card)
    if not events_act or d["event_acted"]:
        event(events, "event_discarded", seat, card=card)
        return
    d["event_acted"] = True
    if effect == "interregnum":
        _interregnum(d, events)
    elif effect == "gegenkoenig":
        elect_anti_king(d, events)


def _interregnum(d: Data, events: list[Event]) -> None:
    """Before the Coronation phase it is skipped; afterwards the King dies."""
    if d["phase"] == "evaluation" and not d["crowned"]:
        d["interregnum"] = True
        event(events, "interregnum", skip_coronation=True)
    else:
        event(events, "interregnum", skip_coronation=False)
    end_crowns(d, events, "interregnum")


def end_crowns(d: Data, events: list[Event], reason) -> None:
    for role in ("king", "anti_king"):
        if d[role] is not None:
            event(events, "crown_lost", d[role], role=role, reason=reason)
            d[role] = None
            d["soldiers"][role] = 0


def _pick(d: Data, candidates, key, events: list[Event], purpose):
    """The candidate with the best ``key``; a die roll breaks ties."""
    keys = [key(seat) for seat in candidates]  # once each: a key counts the map
    best = max(keys)
    tied = [seat for seat, value in zip(candidates, keys) if value == best]
    while len(tied) > 1:
        dice = roll(d, len(tied), events, purpose)
        top = max(dice)
        tied = [seat for seat, value in zip(tied, dice) if value == top]
    return tied[0]


def _crown(d: Data, role, seat, events: list[Event]) -> None:
    d[role] = seat
    event(events, "crowned", seat, role=role)
    change_prestige(d, seat, CROWN_PRESTIGE, events, role)
    draw_cards(d, seat, CROWN_CARDS, events)


def elect_king(d: Data, events: list[Event], bribed_by=None) -> None:
    """Fewest Estates, then most Prestige, then dice (rulings 5)."""
    seats = list(players_of(d))
    if bribed_by is not None:
        seat = bribed_by
    else:
        seat = _pick(
            d, seats, lambda seat: (-totals(d, seat)[0], d["players"][seat]["prestige"]), events, "coronation"
        )
    d["soldiers"]["king"] = KING_SOLDIERS
    _crown(d, "king", seat, events)


def elect_anti_king(d: Data, events: list[Event]) -> None:
    """Gegenkönig: most Estates (not the King), then Prestige, then dice."""
    if d["king"] is None:
        event(events, "event_without_effect", effect="gegenkoenig")
        return
    seats = [seat for seat in players_of(d) if seat != d["king"]]
    if d["anti_king"] is not None:
        event(events, "crown_lost", d["anti_king"], role="anti_king", reason="new_anti_king")
    seat = _pick(
        d, seats, lambda seat: (totals(d, seat)[0], d["players"][seat]["prestige"]), events, "anti_king"
    )
    half = d["soldiers"]["king"] // 2
    d["soldiers"]["king"] = half
    d["soldiers"]["anti_king"] = half
    d["anti_king_row"] = d["row"]
    _crown(d, "anti_king", seat, events)


def crowned_role(d: Data, seat):
    if d["king"] == seat:
        return "king"
    if d["anti_king"] == seat:
        return "anti_king"
    return None
