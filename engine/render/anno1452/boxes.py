"""Text boxes: "The Empire" (a cartouche in the map's sea) and "Now" (what is being decided).

The Empire shows what belongs to no player: King and Anti-King with their
Soldiers, Interregnum, the turn order (and the next one while it is being
chosen), deck and discard pile, Ottokar, Landfrieden and pacts. "Now" says
whose decision it is and what, the battle, the trade, the evaluation
round's Special Actions and the result.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...games.anno1452.data import OTTOKAR_ID
from ..svg import INK, el, fit, group, ink_on, place, seat_colour, text, text_width, title, wrap
from .look import (
    BATTLE,
    BORDER,
    COAST,
    DIM_CROWN,
    FAINT,
    GOLD,
    LAND,
    LINE,
    PANEL,
    RIGHT_W,
    RIGHT_X,
    SEPIA,
    SERIF,
    bare_text,
    crown,
    owner_colour,
    rect,
)
from .words import DECISION_TEXTS, EFFECT_NAMES, battle_title, card_name, estate_name, player_name, seats_text

if TYPE_CHECKING:
    from ...core import View


CARTOUCHE_W = 300


# --- "The Empire" ---


def empire_cartouche(view: View, x, bottom):
    """The cartouche standing on ``bottom``; it grows upwards with what it has to say."""
    inner = CARTOUCHE_W - 28
    rows, y = [], 50
    for role, label in (("king", "King"), ("anti_king", "Anti-King")):
        rows.append(_crown_row(view, role, label, y, inner))
        y += 22
    if view["interregnum"]:
        rows.append(text(14, y, "Interregnum: no coronation", size=12, fill=BATTLE, weight="bold"))
        y += 20
    rows.append(_order_row(view, "Turn order", view["order"], y, inner))
    y += 50
    if view["new_order"] is not None:
        rows.append(
            _order_row(view, "Next turn order (being chosen)", view["new_order"], y, inner, choosing=True)
        )
        y += 50
    for line, fill in _empire_lines(view, inner):
        rows.append(text(14, y, line, size=12, fill=fill))
        y += LINE
    height = y + 2
    return place(
        x,
        bottom - height,
        rect(0, 0, CARTOUCHE_W, height, rx=8, fill=PANEL, fill_opacity=0.94, stroke=COAST, stroke_width=1.5),
        rect(4, 4, CARTOUCHE_W - 8, height - 8, rx=6, fill="none", stroke=BORDER, stroke_width=0.7),
        text(
            CARTOUCHE_W / 2,
            27,
            "The Empire",
            size=17,
            anchor="middle",
            weight="bold",
            fill=SEPIA,
            font_family=SERIF,
        ),
        *rows,
        class_="empire",
    )


def _empire_lines(view: View, width):
    """(line, colour) under the turn order: Ottokar, the cards, treaties (wrapped to ``width``)."""
    lines = []
    if view["ottokar"]:
        lines.append((_ottokar_text(view), SEPIA))
    lines.append((f"Deck: {view['deck_size']} · discard pile: {len(view['discard'])}", SEPIA))
    if view["discard"]:
        lines.append((fit(f"on top: {card_name(view['discard'][-1])}", width, 12), FAINT))
    for treaty in _treaty_lines(view):
        lines.extend((part, SEPIA) for part in wrap(treaty, width, 12, max_lines=2))
    return lines


def _crown_row(view: View, role, label, y, width):
    seat = view[role]
    if seat is None:
        return group(crown(14, y - 11, DIM_CROWN), text(34, y, f"{label}: none", size=13, fill=FAINT))
    soldiers = view["soldiers"].get(role, 0)
    head = f"{label}: "
    x = 34 + text_width(head, 13)
    return group(
        title(f"{label}: {player_name(view, seat)} with {soldiers} Soldiers"),
        crown(14, y - 11, GOLD if role == "king" else "#9c8b63"),
        text(34, y, head, size=13, fill=SEPIA),
        rect(x, y - 11, 12, 12, rx=2, fill=seat_colour(seat)),
        text(
            x + 16,
            y,
            fit(f"{player_name(view, seat)}, {soldiers} Soldiers", width - x - 2, 13, bold=True),
            size=13,
            weight="bold",
            fill=INK,
        ),
    )


def _order_row(view: View, heading, seats, y, width, choosing=False):
    """Chips in turn order; while the next order is chosen its places are clickable."""
    n = max(1, len(seats))
    w = (width - 4 * (n - 1)) / n
    parts = [text(14, y, heading, size=12, fill=SEPIA)]
    for i, seat in enumerate(seats):
        x = 14 + i * (w + 4)
        data = {"data_position": i + 1} if choosing else {}
        if seat is None:
            parts.append(
                place(
                    x,
                    y + 7,
                    title(f"Place {i + 1} of the next turn order: free"),
                    rect(0, 0, w, 24, rx=5, fill=LAND, stroke=SEPIA, stroke_dasharray="3 2"),
                    text(w / 2, 16, f"{i + 1} free", size=11, anchor="middle", fill=SEPIA),
                    **data,
                )
            )
            continue
        colour = seat_colour(seat)
        parts.append(
            place(
                x,
                y + 7,
                title(f"Place {i + 1}: {player_name(view, seat)}"),
                rect(0, 0, w, 24, rx=5, fill=colour, stroke=INK, stroke_width=0.8),
                text(
                    w / 2,
                    16,
                    fit(f"{i + 1} {player_name(view, seat)}", w - 6, 11, bold=True),
                    size=11,
                    anchor="middle",
                    weight="bold",
                    fill=ink_on(colour),
                ),
                **data,
            )
        )
        if not choosing and view["turn"] == seat and view["phase"] == "action":
            # A caret under the seat whose turn it is.
            parts.append(el("path", d=f"M{x + w / 2 - 6:g},{y + 40:g}h12l-6,-6Z", fill=INK))
    return group(*parts)


def _ottokar_text(view: View):
    estates = [
        e for region in view["regions"] for e in region["slots"] if e is not None and e["owner"] == OTTOKAR_ID
    ]
    return (
        f"Ottokar: {len(estates)} Estates, {sum(e['citizens'] for e in estates)} Citizens, "
        f"{sum(1 for e in estates if e['city'])} Cities"
    )


def _treaty_lines(view: View):
    lines = []
    if view["landfrieden"]:
        lines.append(f"Landfrieden: the Estates of {seats_text(view, view['landfrieden'])} are safe")
    for a, b in view["pacts"]:
        lines.append(f"Pact: {player_name(view, a)} and {player_name(view, b)}")
    return lines


# --- "Now" ---


def now_box(view: View, viewer: int | None, y):
    """The box at the top of the right column; returns (svg, height)."""
    rows, cy = [], 48
    for content, seat, bold in _now_lines(view, viewer):
        indent = 14
        if seat is not None:
            rows.append(rect(14, cy - 11, 12, 12, rx=2, fill=owner_colour(seat)))
            indent = 32
        for line in wrap(content, RIGHT_W - indent - 14, 13, bold, max_lines=3):
            rows.append(bare_text(indent, cy, line, font_weight="bold" if bold else None))
            cy += LINE
        cy += 3
    height = cy + 2
    return place(
        RIGHT_X,
        y,
        rect(0, 0, RIGHT_W, height, rx=8, fill=PANEL, stroke=COAST, stroke_width=1.2),
        text(14, 25, "Now", size=17, weight="bold", fill=SEPIA, font_family=SERIF),
        group(*rows, font_size=13, fill=INK),
        class_="now",
    ), height


def _now_lines(view: View, viewer: int | None):
    """(text, seat for a colour chip or None, bold) lines about what is going on."""
    lines = []
    result = view["result"]
    if result:
        scores, winners = result.get("scores", {}), result.get("winners", [])
        lines.append(
            (
                f"Game over - {'winner' if len(winners) == 1 else 'winners'}: "
                + ", ".join(f"{player_name(view, w)} ({scores.get(str(w), '?')} VP)" for w in winners),
                winners[0] if winners else None,
                True,
            )
        )
    decision = view["decision"]
    if decision and view["to_act"]:
        what = DECISION_TEXTS.get(decision["kind"], decision["kind"].replace("_", " "))
        if decision["kind"] == "er_special" and decision.get("window"):
            what += f" (window: {decision['window']})"
        you = " (you)" if viewer in view["to_act"] else ""
        lines.append((f"{seats_text(view, view['to_act'])}{you} to {what}", view["to_act"][0], True))
    if view["battle"]:
        lines.extend(_battle_lines(view))
    lines.extend(_trade_lines(view))
    if view["phase"] == "evaluation":
        lines.extend(_evaluation_lines(view))
    return lines or [("Nothing to decide", None, False)]


def _battle_lines(view: View):
    b = view["battle"]
    soldiers, hits = b.get("soldiers", {}), b.get("hits", {})
    reactions = ", ".join(
        f"{side} {EFFECT_NAMES.get(effect, effect) if effect else 'none'}"
        for side, effect in b.get("reactions", {}).items()
    )
    return [
        (battle_title(view), b["attacker"], True),
        (
            f"Stage: {b.get('stage', '?')}, round {b.get('round', 0)} · Soldiers {soldiers.get('attacker', 0)}"
            f" against {soldiers.get('defender', 0)} · hits to take: attacker {hits.get('attacker', 0)},"
            f" defender {hits.get('defender', 0)}",
            None,
            False,
        ),
        (f"Reactions: {reactions}", None, False),
    ]


def _side_text(side):
    """One side of a deal: gold, cards, Estates, a pact."""
    parts = [f"{side['gold']} gold"] if side.get("gold") else []
    parts.extend(card_name(c) for c in side.get("cards", []))
    parts.extend(f"Estate {estate_name(e)}" for e in side.get("estates", []))
    if side.get("pact"):
        parts.append("a pact")
    return ", ".join(parts) or "nothing"


def _trade_lines(view: View):
    lines = []
    trade = view["trade"]
    if trade:
        # A no-break space keeps each count with its name when the line wraps.
        made = ", ".join(f"{player_name(view, int(s))}:\u00a0{n}" for s, n in trade["offers"].items())
        done = f" · done: {seats_text(view, trade['done'])}" if trade["done"] else ""
        lines.append((f"Trade & Agreements - offers made (of 3): {made}{done}", None, False))
    offer = view["offer"]
    if offer:
        head = f"Offer from {player_name(view, offer['from'])} to {player_name(view, offer['to'])}"
        if "give" in offer:
            lines.append(
                (
                    f"{head}: gives {_side_text(offer['give'])}; asks {_side_text(offer['ask'])}",
                    offer["from"],
                    False,
                )
            )
        else:
            lines.append((f"{head} (its content is theirs to see)", offer["from"], False))
    draft = view["draft"]
    if draft:
        lines.append(
            (
                f"Your draft to {player_name(view, draft['to'])}: give {_side_text(draft['give'])};"
                f" ask {_side_text(draft['ask'])}",
                draft["from"],
                False,
            )
        )
    return lines


def _evaluation_lines(view: View):
    lines = []
    if view["er_used"]:
        lines.append((f"Special Actions played this ER: {seats_text(view, view['er_used'])}", None, False))
    for effect, seats in view["er_effects"].items():
        if seats is not None and seats != []:
            seats = seats if isinstance(seats, list) else [seats]
            lines.append((f"{EFFECT_NAMES.get(effect, effect)}: {seats_text(view, seats)}", None, False))
    return lines
