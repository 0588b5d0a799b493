"""A panel per player in the right column: name, badges, numbers, holdings.

The panel is the one element that carries ``data-seat``: a client hangs the
actions aimed at a seat (an offer, Kindbett) on it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..svg import (
    INK,
    el,
    fit,
    group,
    ink_on,
    place,
    seat_colour,
    seat_colour_name,
    seat_name,
    text,
    text_width,
    title,
)
from .look import BORDER, LINE, PANEL, RIGHT_W, RIGHT_X, SEPIA, WASH, bare_text, rect
from .words import card_name, seats_text

if TYPE_CHECKING:
    from typing import Any


if TYPE_CHECKING:
    from ...core import View


# Fixed columns, so the players' numbers line up from panel to panel.
STATS = (
    ("gold", "gold", 22),
    ("prestige", "prestige", 94),
    ("victory_points", "VP", 190),
    ("estates", "Estates", 250),
    ("citizens", "Citizens", 330),
    ("cities", "Cities", 412),
)


def player_panel(view: View, viewer: int | None, seat, y):
    """The panel of ``seat`` at height ``y``; returns (svg, height taken)."""
    player = view["players"][seat]
    colour = seat_colour(seat)
    name = seat_name(player)
    acting = seat in view["to_act"]
    lines = _holdings(view, player)
    height = 66 + LINE * len(lines)
    badges, badges_w = _badge_row(_badges(view, viewer, seat), RIGHT_W - 10, 8)
    parts = [
        title(_panel_title(viewer, player)),
        # The seat to act is framed in its colour, thick enough to find at a glance.
        rect(
            0,
            0,
            RIGHT_W,
            height,
            rx=8,
            fill=PANEL,
            stroke=colour if acting else BORDER,
            stroke_width=3.5 if acting else 1.2,
        ),
        # The seat's colour down the left edge, following the panel's rounded corners.
        el("path", d=f"M8,0H11V{height:g}H8A8,8 0 0 1 0,{height - 8:g}V8A8,8 0 0 1 8,0Z", fill=colour),
        text(22, 24, fit(name, RIGHT_W - 44 - badges_w, 17, bold=True), size=17, weight="bold", fill=INK),
        badges,
        _stat_row(player, 50),
        group(
            *(bare_text(22, 74 + i * LINE, fit(line, RIGHT_W - 36, 12)) for i, line in enumerate(lines)),
            font_size=12,
            fill=SEPIA,
        ),
    ]
    return place(RIGHT_X, y, *parts, data_seat=seat, class_="player"), height + 2


def _badges(view: View, viewer: int | None, seat):
    """(label, fill) badges for a panel's first row, most important first."""
    out = []
    if seat == viewer:
        out.append(("you", INK))
    if seat in view["to_act"]:
        out.append(("to act", seat_colour(seat)))
    if view["king"] == seat:
        out.append(("King", "#a8861c"))
    if view["anti_king"] == seat:
        out.append(("Anti-King", "#857652"))
    if seat in view["landfrieden"]:
        out.append(("Landfrieden", "#5d7d1e"))
    if view["trade"] and seat in view["trade"]["done"]:
        out.append(("done trading", "#6f6f6f"))
    if seat in view["order"]:
        out.append((f"turn order {view['order'].index(seat) + 1}", WASH))
    return out


def _badge_row(badges, right, y: float):
    """Pills aligned right from ``right``; returns (svg, width taken) so the name can be fitted."""
    parts, x = [], right
    for label, fill in badges:
        w = text_width(label, 12, bold=True) * 0.92 + 14
        x -= w
        parts.append(rect(x, y, w, 21, rx=10.5, fill=fill))
        parts.append(bare_text(x + w / 2, y + 15, label, fill=ink_on(fill)))
        x -= 5
    return group(*parts, font_size=12, font_weight="bold", text_anchor="middle"), right - x


def _stat_row(player: dict[str, Any], y: float):
    return group(
        *(
            el(
                "text",
                el("tspan", str(player[key]), font_size=15, font_weight="bold", fill=INK),
                f" {label}",
                x=x,
                y=y,
            )
            for key, label, x in STATS
        ),
        font_size=12,
        fill=SEPIA,
    )


def _holdings(view: View, player):
    """The panel's lines under the numbers: Principalities, Titles, marriage, hand, pacts."""
    titles = ", ".join(card_name(c) for c in player["titles"]) or "none"
    marriage = player["marriage"]
    if marriage is None:
        married = "Not married" + (" (married this epoch)" if player["married_this_epoch"] else "")
    else:
        married = f"Married: {card_name(marriage['card'])}"
        if marriage["conveyed"]:
            married += f" (conveys {', '.join(marriage['conveyed'])})"
    hand = (
        f"{len(player['hand'])} cards in hand (below)"
        if "hand" in player
        else f"{player['hand_size']} cards in hand"
    )
    lines = [
        f"Principalities: {', '.join(player['principalities']) or 'none'}",
        f"Titles: {titles}",
        f"{married} · {hand}",
    ]
    seat = player["seat"]
    partners = [b if a == seat else a for a, b in view["pacts"] if seat in (a, b)]
    if partners:
        lines.append(f"Non-aggression pact with {seats_text(view, partners)}")
    return lines


def _panel_title(viewer: int | None, player):
    """The panel's tooltip: everything on it in one sentence, for screen readers too."""
    seat = player["seat"]
    hand = len(player["hand"]) if "hand" in player else player["hand_size"]
    return (
        f"{seat_name(player)} ({seat_colour_name(seat)})"
        f"{' - you' if seat == viewer else ''}: "
        f"{player['gold']} gold, prestige {player['prestige']}, {player['victory_points']} victory points, "
        f"{player['estates']} Estates, {player['citizens']} Citizens, {player['cities']} Cities, "
        f"{hand} cards in hand"
    )
