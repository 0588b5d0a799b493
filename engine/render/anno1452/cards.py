"""Cards drawn face up under the map: the viewer's own hand and the open cards.

Other seats' hands are never drawn (the view holds only their counts).
The card data holds rules, not texts: marriages, Titles and inheritances
are put into words from their requirements; the other cards' short texts
are in ``data/anno1452_card_texts.json``.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from ...games.anno1452.data import CARDS
from ..svg import INK, el, fit, group, place, text, title, wrap
from .look import CARD_KINDS, FAINT, MAP_X, PANEL, SEPIA, SERIF, bare_text, rect
from .map import MAP_W

if TYPE_CHECKING:
    pass


if TYPE_CHECKING:
    from ...core import View


CARD_W, CARD_H, CARD_GAP = 154, 148, 12
EFFECT_TEXTS = json.loads(
    (Path(__file__).parents[1] / "data" / "anno1452_card_texts.json").read_text(encoding="utf-8")
)["effects"]


# --- the cards' rules in words ---


def card_text(card):
    """The card's rules in a sentence or three (card face and tooltip)."""
    c = CARDS[card]
    kind = c["kind"]
    if kind == "marriage":
        return (
            f"Needs {_requirement_text(c['requirement'])}. Gain "
            + ", ".join(_say(BENEFITS, b) for b in c["benefits"])
            + ". Costs "
            + ", ".join(_say(COSTS, d) for d in c["disadvantages"])
            + "."
        )
    if kind == "title":
        return f"Needs {_requirement_text(c['requirement'])}. +2 prestige while held."
    if kind == "inheritance":
        return f"A free Estate in {c['region']}."
    return EFFECT_TEXTS.get(c.get("effect"), "")


def _requirement_text(req):
    if "all" in req:
        return " and ".join(_requirement_text(part) for part in req["all"])
    return _say(REQUIREMENTS, req)


def _say(table, rule):
    """The words of the first ``(key, words)`` of ``table`` whose key ``rule`` holds; "?" for none."""
    return next((words(rule) for key, words in table if key in rule), "?")


def _estates(req):
    n = req.get("min", 1)
    return f"{n} {'Estate' if n == 1 else 'Estates'}"


def _cities(n):
    return f"{n} {'City' if n == 1 else 'Cities'}"


def _either(places):
    """ "Tirol", "Tirol or Bayern", "Tirol, Bayern or Schwaben"."""
    return places[0] if len(places) == 1 else f"{', '.join(places[:-1])} or {places[-1]}"


# Card rules in words, one table per part of a card; the first key a rule holds says it.
REQUIREMENTS = (
    (
        "estates_in",
        lambda r: (
            f"{_estates(r)} in {'or next to ' if 'or_bordering' in r else ''}{_either(r['estates_in'])}"
        ),
    ),
    ("estates_bordering", lambda r: f"{_estates(r)} next to {r['estates_bordering']}"),
    ("prestige", lambda r: f"prestige {r['prestige']}"),
    ("citizens", lambda r: f"{r['citizens']} Citizens"),
    ("cities", lambda r: _cities(r["cities"])),
    ("principality", lambda r: f"the Principality {r['principality']}"),
    ("cities_in", lambda r: f"{_cities(r.get('min', 1))} in {r['cities_in']}"),
    ("citizens_in", lambda r: f"{r.get('min', 1)} Citizens in {r['citizens_in']}"),
)
BENEFITS = (
    (
        "estate",
        lambda b: (
            f"an Estate in {b['estate']}" + (f" with {b['citizens']} Citizens" if b.get("citizens") else "")
        ),
    ),
    ("gold", lambda b: f"{b['gold']} gold"),
    ("prestige", lambda b: f"{b['prestige']} prestige"),
    ("principality", lambda b: f"the Principality {b['principality']}"),
    ("city", lambda b: f"a City in {b['city']}"),
)
COSTS = (
    ("pay", lambda c: f"{c['pay']} gold"),
    ("remove_citizens", lambda c: f"{c['remove_citizens']} Citizen{'s' if c['remove_citizens'] > 1 else ''}"),
    ("lose_prestige", lambda c: f"{c['lose_prestige']} prestige"),
    ("discard", lambda c: f"discard {c['discard']} card"),
)


# --- drawing ---


@cache
def _card_face(card, w):
    """A card drawn at the origin (it never changes: cached per card and width)."""
    c = CARDS[card]
    label, colour = CARD_KINDS[c["kind"]]
    parts = [
        rect(0, 0, w, CARD_H, rx=7, fill=PANEL, stroke=colour, stroke_width=1.6),
        el("path", d=f"M0,7a7,7 0 0 1 7,-7H{w - 7:g}a7,7 0 0 1 7,7V21H0Z", fill=colour),
        bare_text(8, 15, label, font_weight="bold", fill="#ffffff"),
        bare_text(w - 8, 15, f"#{card}", text_anchor="end", fill="#ffffff"),
    ]
    y = 38
    for line in wrap(c["name"], w - 16, 13, bold=True, max_lines=2):
        parts.append(bare_text(8, y, line, font_size=13, font_weight="bold", fill=INK))
        y += 15
    if "region" in c:
        parts.append(bare_text(8, y, fit(f"{c['region']} · {c['city']}", w - 16, 11), fill=FAINT))
        y += 15
    y += 1
    # The rules text takes the lines left above the card's bottom edge.
    for line in wrap(card_text(card), w - 16, 11, max_lines=max(1, (CARD_H - y + 4) // 13)):
        parts.append(bare_text(8, y, line, fill=SEPIA))
        y += 13
    summary = f"{c['name']} ({label} card #{card}): {card_text(card)}"
    if "region" in c:
        summary += f" Also the City card of {c['region']} ({c['city']})."
    return title(summary) + group(*parts, font_size=11)


def _card_row(cards, y: float, heading, open_cards=False):
    """A heading and rows of face-up cards under the map; returns (svg, height)."""
    per_row = max(1, min(len(cards), int((MAP_W + CARD_GAP) // (CARD_W + CARD_GAP))))
    parts = [_heading(y, heading)]
    for i, card in enumerate(cards):
        row, col = divmod(i, per_row)
        extra = {"data_open_card": i} if open_cards else {}
        parts.append(
            place(
                MAP_X + col * (CARD_W + CARD_GAP),
                y + 24 + row * (CARD_H + 10),
                _card_face(card, CARD_W),
                data_card=card,
                class_="card",
                **extra,
            )
        )
    rows = (len(cards) + per_row - 1) // per_row
    return group(*parts), 24 + rows * (CARD_H + 10)


def _heading(y: float, content):
    return text(MAP_X, y + 15, content, size=16, weight="bold", fill=SEPIA, font_family=SERIF)


def cards_under_map(view: View, viewer: int | None, y):
    """The viewer's hand (a seat's view holds it) and the open cards; returns (svg, height)."""
    parts, height = [], 0
    players = view["players"]
    me = players[viewer] if isinstance(viewer, int) and 0 <= viewer < len(players) else None
    if me is not None and "hand" in me:
        if me["hand"]:
            row, h = _card_row(me["hand"], y, f"Your hand ({len(me['hand'])} cards)")
        else:
            row, h = _heading(y, "Your hand is empty"), 24
        parts.append(row)
        height += h + 4
    if view["open_cards"]:
        row, h = _card_row(
            view["open_cards"], y + height, "Open cards (a hand card can be swapped for one)", open_cards=True
        )
        parts.append(row)
        height += h + 4
    return group(*parts), height
