"""The ``<defs>``: shapes drawn many times are defined once and placed by ``<use>``.

A ``<use>``'s copy lives in a shadow tree where the ``.a15 ...`` selectors
never match, so everything here is styled by presentation attributes, not
classes. Ids all start ``a15-``, so a page with two pictures of different
games does not mix them up.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from ..svg import INK, el, seat_colour
from .layout import SLOT_H, SLOT_W
from .look import (
    GREEN_SLOT,
    ISLET,
    KIND_COLOURS,
    KIND_ROOFS,
    MUTED,
    RED_SLOT,
    SAND,
    SAND_EDGE,
    SEA_FILL,
    TILE_BACK,
    WHITE,
    style_sheet,
)

if TYPE_CHECKING:
    from ...core import View


def defs(lay, num_players, looks):
    """The style sheet and every symbol but the slots (see ``slot_defs``).

    One sheet and one set of symbols serve every variant's picture: the base
    game's, and what each of ``looks`` (every variant's look) adds at its hooks
    (``BaseLook.style_rules``, ``sea_patterns``, ``sea_mark_defs``, ``back_kinds``,
    ``bridge_kinds``).
    """
    looks = tuple(looks)
    return el(
        "defs",
        el("style", style_sheet(looks)),
        _sea_defs(lay, looks),
        _island_defs(lay.square, tuple(kind for look in looks for kind in look.back_kinds)),
        _piece_defs(num_players, tuple(kind for look in looks for kind in look.bridge_kinds)),
    )


# The printed marks of the base game's special sea squares: anchor (start), dolphin.
_SEA_MARK_DEFS = el(
    "g",
    el(
        "path",
        d="M0 -8v22m-10-8a10 10 0 0 0 20 0m-15-11h10",
        fill="none",
        stroke=WHITE,
        stroke_width=3,
        stroke_linecap="round",
    ),
    el("circle", cy=-12, r=3.5, fill="none", stroke=WHITE, stroke_width=2.5),
    id="a15-anchor",
    opacity=0.8,
) + el(
    "path",
    d="M-15 6q8-18 24-10q4 2 6 0q-2 6-6 5q-10-6-18 7z",
    fill=WHITE,
    fill_opacity=0.6,
    id="a15-dolphin",
)


def _sea_defs(lay, looks):
    """Sea patterns (with waves), the square shape, the special squares' marks."""
    s = lay.square
    wave = el(
        "path",
        d=f"M4 {s * 0.3:.0f}q{s / 8:.0f}-5 {s / 4:.0f} 0t{s / 4:.0f} 0"
        f"M{s / 2:.0f} {s * 0.75:.0f}q{s / 8:.0f}-5 {s / 4:.0f} 0t{s / 4:.0f} 0",
        fill="none",
        stroke=WHITE,
        stroke_opacity=0.22,
        stroke_width=1.5,
    )
    # Patterns in board units, so the waves line up across squares.
    pattern = {"width": s, "height": s, "patternUnits": "userSpaceOnUse", "x": lay.board_x, "y": lay.board_y}
    seas = (("a15-sea", SEA_FILL),) + tuple(p for look in looks for p in look.sea_patterns)
    return (
        "".join(
            el("pattern", el("rect", width=s, height=s, fill=fill), wave, id=id_, **pattern)
            for id_, fill in seas
        )
        + el("rect", width=s, height=s, id="a15-q")
        + _SEA_MARK_DEFS
        + "".join(look.sea_mark_defs for look in looks)
    )


def _island_defs(s, back_kinds):
    """Island spaces with 2-4 islets (``#a15-s3``), tile backs numbered 2-4 (brown ``#a15-back3``,
    then the variants' ``back_kinds``)."""
    corners = ((10, 10), (s - 10, s - 10), (s - 10, 10), (10, s - 10))
    sands = "".join(
        el(
            "g",
            el(
                "rect",
                x=3,
                y=3,
                width=s - 6,
                height=s - 6,
                rx=s // 5,
                fill=SAND,
                stroke=SAND_EDGE,
                stroke_width=1.5,
            ),
            *(el("circle", cx=cx, cy=cy, r=4.5, fill=ISLET) for cx, cy in corners[:n]),
            id=f"a15-s{n}",
        )
        for n in (2, 3, 4)
    )
    t = round(s * 0.52)
    backs = "".join(
        el(
            "g",
            el("rect", x=(s - t) // 2, y=(s - t) // 2, width=t, height=t, rx=6, fill=fill, stroke=INK),
            el(
                "text",
                str(n),
                x=s // 2,
                y=s // 2 + 6,
                font_size=18,
                font_weight="bold",
                text_anchor="middle",
                fill=WHITE,
            ),
            id=f"a15-{name}{n}",
        )
        for name, fill in (("back", TILE_BACK), *back_kinds)
        for n in (2, 3, 4)
    )
    return sands + backs


# The base bridge kinds of a home island's production table (``#a15-gray``, ``-nob``).
BRIDGE_KINDS = (
    ("gray", "gray bridge", "#b5b5b5", "#7a7a7a", None, INK),
    ("nob", "no bridge", "none", "#b5b5b5", "4 3", MUTED),
)


@cache
def _bridge_defs(kinds):
    """The bridge kinds ``(name, caption, fill, stroke, dash, ink)``: ``#a15-gray``."""
    return "".join(
        el(
            "g",
            el("rect", width=78, height=24, rx=4, fill=fill, stroke=stroke, stroke_dasharray=dash),
            el("text", caption, x=39, y=16, text_anchor="middle", fill=ink),
            id=f"a15-{name}",
        )
        for name, caption, fill, stroke, dash, ink in kinds
    )


def _piece_defs(num_players, bridge_kinds):
    """Per seat colour a hull and sail (``#a15-ship0``) and a seen-by dot (``#a15-d0``);
    the bridge kinds (the base's, then ``bridge_kinds``), a card back, an office's house."""
    ships = "".join(
        el(
            "g",
            el("path", d="M-13 3h26l-6 8h-14z", fill=seat_colour(seat), stroke=INK),
            el(
                "rect",
                x=-8,
                y=-13,
                width=16,
                height=15,
                rx=2,
                fill=WHITE,
                stroke=seat_colour(seat),
                stroke_width=2,
            ),
            id=f"a15-ship{seat}",
        )
        for seat in range(num_players)
    )
    dots = "".join(
        el("circle", r=3.5, fill=seat_colour(seat), stroke=WHITE, id=f"a15-d{seat}")
        for seat in range(num_players)
    )
    return (
        ships
        + _bridge_defs(BRIDGE_KINDS + bridge_kinds)
        + dots
        + el("rect", width=30, height=40, rx=4, fill="#7a5236", stroke=WHITE, stroke_width=1.2, id="a15-card")
        + el("path", d="M6 19v-7l6-6l6 6v7z", id="a15-bo", opacity=0.8)
    )


# --- inhabitant slots -----------------------------------------------------------


def slot_look(slot, kind):
    """A slot's look: ``(kind or "empty", "r" | "g")``; slots 1-2 are red, 3-7 green."""
    return (kind if kind in KIND_COLOURS else "empty", "r" if slot <= 2 else "g")


def slot_href(slot, kind):
    return "#a15-{}-{}".format(*slot_look(slot, kind))


def slot_defs(view: View):
    """The slot looks this view needs: ten looks would cost more than the slots they serve."""
    looks = {slot_look(i + 1, kind) for p in view["players"] for i, kind in enumerate(p["slots"])}
    return el("defs", *(_slot_def(look) for look in sorted(looks)))


@cache
def _slot_def(look):
    """The picture of one slot look: ``#a15-settler-r``."""
    kind, code = look
    middle = SLOT_W // 2
    if kind == "empty":
        inside = el("text", "empty", x=middle, y=29, text_anchor="middle", fill=MUTED)
    else:
        house = el(
            "path",
            d=f"M{middle - 11} 20l11-11l11 11v11h-22z",
            fill=KIND_ROOFS[kind],
            stroke=INK,
            stroke_width=0.8,
        ) + el("rect", x=middle - 3, y=24, width=6, height=7, fill=KIND_COLOURS[kind])
        inside = house + el("text", kind, x=middle, y=44, text_anchor="middle", letter_spacing=-0.3)
    return el(
        "g",
        el(
            "rect",
            width=SLOT_W,
            height=SLOT_H,
            rx=6,
            fill=KIND_COLOURS.get(kind, "#f7f3e6"),
            stroke=RED_SLOT if code == "r" else GREEN_SLOT,
            stroke_width=2.5,
            stroke_dasharray="5 3" if kind == "empty" else None,
        ),
        inside,
        id=f"a15-{kind}-{code}",
    )
