"""One panel per seat: the home island, goals, warehouse, ships in stock; a variant's parts.

The home island has 7 inhabitant slots (1-2 red, safe from fire; 3-7 green),
public building sites under slots 4-7 and, per die number, the home
commodity with its bridge below (a branch office, a free gray bridge, or
none). Only the viewer's own warehouse is drawn card by card.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..svg import INK, el, fit, group, place, ref, seat_colour, seat_colour_name, text_width, title
from .board import ship_glyph
from .layout import PANEL_W, SLOT_H, SLOT_W
from .look import (
    DANGER,
    GREEN_SLOT,
    PALE_OUTLINES,
    RED_SLOT,
    WHITE,
    chip,
    commodity_colours,
    ink_class,
    label,
    track,
)
from .symbols import slot_href
from .words import BUILDING_SHORT, plain, seat_note, ship_number, ship_words

if TYPE_CHECKING:
    from typing import Any


if TYPE_CHECKING:
    from ...core import View


SLOT_STEP = 60
ISLAND_X, ISLAND_Y = 12, 70
ISLAND_W = 7 * SLOT_STEP + 12
ISLAND_H = 168
BRIDGE_STEP = 84
SIDE_X = ISLAND_X + ISLAND_W + 14  # the warehouse and the stock, right of the island
TITLE_BAR_H = 34
NAME_ROOM = 240  # about 23 bold letters at 16 px: the status pill and the gold still fit beside


def panel(player, view: View, names: list[str], viewer: int | None, index, lay):
    """The seat's panel, a ``data-seat`` group at its place in the grid of panels."""
    seat = player["seat"]
    x, y = lay.panel_xy(index)
    parts = [
        _title_bar(player, view, names[seat], seat == viewer, lay.panel_h),
        _goal_row(player, 12, 42, lay.look.goal_labels),
        el(
            "rect",
            x=ISLAND_X,
            y=ISLAND_Y,
            width=ISLAND_W,
            height=ISLAND_H,
            rx=14,
            fill="#eef3df",
            stroke="#a9c07d",
        ),
        _slots(player, seat),
        _bridges(player, seat, lay.look),
        _warehouse(player, seat, SIDE_X, ISLAND_Y + 12),
        _stock_and_turn(player, seat, names[seat], SIDE_X, ISLAND_Y + 112),
    ]
    extra = lay.look.panel_parts(player, ISLAND_Y + ISLAND_H + 10, PANEL_W - 24)
    if extra:
        parts += [*extra, _damaged_note(player, lay.look)]
    return place(x, y, *parts, data_seat=seat, class_="panel")


def _title_bar(player, view: View, name, you, height):
    """The frame in the seat's colour, its name (and "you"), a status pill, gold and VP."""
    seat = player["seat"]
    colour = seat_colour(seat)
    head = fit(name, NAME_ROOM, 16, bold=True) + (" (you)" if you else "")
    info = f"Island {player['island']['id']} · {player['gold']} gold · {player['victory_points']} VP"
    colour_name = seat_colour_name(seat)
    parts = [
        title(
            f"Home island of {name}{seat_note(player)}, {colour_name}: "
            f"{player['gold']} gold, {player['victory_points']} victory points" + (", you" if you else "")
        ),
        el(
            "rect",
            width=PANEL_W,
            height=height,
            rx=10,
            fill="#fffdf8",
            stroke=colour,
            stroke_width=3 if you else 2,
        ),
        # Rounded at the top only: the bar sits flush in the frame.
        el(
            "path",
            d=f"M0 {TITLE_BAR_H}V10a10 10 0 0 1 10-10H{PANEL_W - 10}a10 10 0 0 1 10 10V{TITLE_BAR_H}z",
            fill=colour,
        ),
        label(14, 23, head, "b w f16"),
        label(PANEL_W - 14, 23, info, "e b w f14"),
    ]
    status = _status(view, seat)
    if status:
        sx = round(14 + text_width(head, 16, bold=True) + 12)
        pill = round(text_width(status, 11, bold=True) + 16)
        parts += [
            el("rect", x=sx, y=8, width=pill, height=18, rx=9, fill=WHITE),
            label(sx + 8, 21, status, "b"),
        ]
    return "".join(parts)


def _status(view: View, seat):
    """Whether the seat is to act, active or the winner: words for the pill."""
    status = []
    if seat in (view.get("to_act") or []):
        status.append("to act")
    if seat == view.get("active"):
        status.append("active")
    if seat == view.get("winner"):
        status.append("winner")
    return " · ".join(status)


def _goal_row(player: dict[str, Any], x: float, y: float, labels):
    goals = player["goals"]
    held = [labels.get(g, g) for g, done in goals.items() if done]
    parts = [
        title(f"Goals held: {', '.join(held) or 'none'} ({len(held)} victory points)"),
        label(x, y + 13, "Goals", "u"),
    ]
    x += 38
    for goal, done in goals.items():
        caption = ("★ " if done else "") + labels.get(goal, plain(goal))
        element, width = chip(x, y, caption, None, "held" if done else "goal", "m b" if done else "m u")
        parts.append(element)
        x += width + 5
    return group(*parts)


# --- home island --------------------------------------------------------------------


def _slot_x(slot):
    return ISLAND_X + 10 + (slot - 1) * SLOT_STEP


def _slot_colour(slot):
    return RED_SLOT if slot <= 2 else GREEN_SLOT


def _slots(player: dict[str, Any], seat: int):
    """The 7 inhabitant slots (clickable ``data-slot``), their numbers and the building sites."""
    parts = []
    for slot, kind in enumerate(player["slots"], start=1):
        fire = " (red slot: safe from fire)" if slot <= 2 else ""
        parts.append(
            el(
                "use",
                title(f"Slot {slot}: {kind or 'empty'}{fire}"),
                href=slot_href(slot, kind),
                x=_slot_x(slot),
                y=ISLAND_Y + 18,
                data_slot=ref(seat, slot),
            )
        )
    numbers = "".join(
        el("tspan", str(slot), x=_slot_x(slot) + SLOT_W // 2, fill=_slot_colour(slot)) for slot in range(1, 8)
    )
    parts.append(el("text", numbers, y=ISLAND_Y + 13, class_="m b"))
    parts.append(_public_buildings(player["buildings"], ISLAND_Y + 18 + SLOT_H + 5))
    return "".join(parts)


def _public_buildings(buildings, y: float):
    """The sites under slots 4..7, built or free; one title tells the row."""
    words = ", ".join(f"slot {4 + j}: {plain(b or 'free site')}" for j, b in enumerate(buildings))
    parts = [title(f"Public buildings under the slots: {words}")]
    for slot, building in enumerate(buildings, start=4):
        x = _slot_x(slot)
        if building:
            parts += [
                el("rect", x=x, y=y, width=SLOT_W, height=22, rx=4, class_="bld"),
                label(x + SLOT_W / 2, y + 15, BUILDING_SHORT.get(building, building), "m"),
            ]
        else:
            parts.append(el("rect", x=x, y=y, width=SLOT_W, height=22, rx=4, class_="site"))
    return group(*parts)


def _bridges(player: dict[str, Any], seat: int, look):
    """The production table: per die number the home commodity, and its bridge below."""
    island = player["island"]
    gray = set(island["gray_bridges"])
    y = ISLAND_Y + 18 + SLOT_H + 34
    production = island["production"]
    table = [
        title(
            "Production by die number: "
            + ", ".join(
                f"{n} {'any commodity' if production[str(n)] == '?' else production[str(n)]}"
                for n in range(1, 6)
            )
        ),
        label(ISLAND_X + 10, y - 5, "Production (die) and bridges", "u"),
    ]
    for n in range(1, 6):
        x = ISLAND_X + 10 + (n - 1) * BRIDGE_STEP
        home = production[str(n)]
        fill, ink = commodity_colours(home)
        table += [
            label(x + 9, y + 15, n, "m b f14"),
            el("rect", x=x + 24, y=y, width=54, height=20, rx=4, fill=fill, class_="ch"),
            label(x + 51, y + 14, "any" if home == "?" else home, ink_class(ink)),
        ]
    parts = [group(*table)]
    for n in range(1, 6):
        x = ISLAND_X + 10 + (n - 1) * BRIDGE_STEP
        office = player["branch_offices"].get(str(n))
        parts.append(_bridge(seat, n, office, n in gray, look, x, y + 24))
    return "".join(parts)


# What a free gray bridge shows: (symbol, words); the ``?`` number's is the look's ``free_bridge``.
_FREE_GRAY = ("#a15-gray", "gray bridge, free")


def _bridge(seat: int, n, office, is_gray, look, x: float, y: float):
    """Bridge ``n`` of the home island (``data-bridge``): its office, or a free gray bridge, or none."""
    target = ref(seat, n)
    if office:
        fill, ink = look.tile_colours(office)
        return place(
            x,
            y,
            title(f"Bridge {n}: {look.tile_name(office)}"),
            el("rect", width=78, height=24, rx=4, fill=fill, class_="tl"),
            el("use", href="#a15-bo", fill=WHITE if ink == WHITE else INK),
            label(45, 16, office.get("commodity", ""), ink_class(ink, "m b")),
            data_bridge=target,
        )
    # The any-commodity number has no gray bridge; a variant may use it (``free_bridge``).
    href, words = _FREE_GRAY if is_gray else look.free_bridge
    return el("use", title(f"Bridge {n}: {words}"), href=href, x=x, y=y, data_bridge=target)


# --- beside the island ------------------------------------------------------------------


def _warehouse(player: dict[str, Any], seat: int, x: float, y: float):
    """The own hand in full (clickable ``data-commodity`` cards); another seat's only as a count."""
    parts = [label(x, y, "Warehouse", "b f13")]
    hand = player.get("hand")
    if hand is None:
        size = player.get("hand_size", 0)
        cards = "".join(el("use", href="#a15-card", x=i * 6, y=8 - i * 2) for i in range(min(size, 5)))
        parts.append(
            place(
                x,
                y + 4,
                title(f"{size} cards in the warehouse (hidden)"),
                cards,
                label(66, 34, f"{size} card{'' if size == 1 else 's'}", "b f14"),
            )
        )
        return "".join(parts)
    parts.append(label(x + 190, y, f"{sum(hand.values())} cards", "e u"))
    for i, (name, count) in enumerate(hand.items()):
        parts.append(
            place(
                x + (i % 3) * 64,
                y + 8 + (i // 3) * 27,
                title(f"{name}: {count} card{'' if count == 1 else 's'}"),
                *_card(name, count),
                data_commodity=ref(seat, name),
            )
        )
    return "".join(parts)


def _card(name, count):
    """A warehouse card: filled while held; none held, an outline in the commodity's colour,
    so the name stays legible."""
    fill, ink = commodity_colours(name)
    if count:
        return (
            el("rect", width=62, height=23, rx=4, fill=fill, class_="tl"),
            label(31, 16, f"{name} {count}", ink_class(ink)),
        )
    return (
        el(
            "rect",
            width=62,
            height=23,
            rx=4,
            fill=WHITE,
            stroke=PALE_OUTLINES.get(name, fill),
            stroke_width=2,
        ),
        label(31, 16, f"{name} {count}", "m u"),
    )


def _stock_and_turn(player: dict[str, Any], seat: int, name, x: float, y: float):
    """Trade agreements, ships in stock (``data-ship``) and this turn's purchases, under the warehouse."""
    agreements = player["trade_agreements"]
    parts = [
        label(x, y, f"Trade agreements {len(agreements)}/3", "u"),
        track(x + 134, y - 4, len(agreements), 3, 20, 15, "#d9b440"),
    ]
    y += 24
    parts.append(label(x, y, "Ships in stock", "u"))
    stock = [i for i, ship in enumerate(player["ships"]) if ship["at"] is None]
    for k, index in enumerate(stock):
        parts.append(
            el(
                "g",
                title(f"{ship_words(name, index)}, in stock"),
                ship_glyph(seat, index, 0, False, with_ap=False),
                transform=f"translate({x + 104 + k * 34},{y - 3})",
                data_ship=ref(seat, index),
            )
        )
    if not stock:
        parts.append(label(x + 96, y, "none", "u"))
    turn = player.get("turn") or {}
    if "buys" in turn:
        parts.append(label(x, y + 24, f"Bought this turn: {turn['buys']}/2", "u"))
    return "".join(parts)


def _damaged_note(player: dict[str, Any], look):
    """Which ships are damaged, in red beside the island ("" when none)."""
    damaged = [str(ship_number(i)) for i, d in enumerate(look.damaged_ships(player)) if d]
    if not damaged:
        return ""
    return label(SIDE_X, ISLAND_Y + 166, f"Damaged ship {', '.join(damaged)}", "b", fill=DANGER)
