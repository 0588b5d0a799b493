"""The supply under the sea, and the legend beside it.

The supply has one title per row: the chips' own text already says what
they hold.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from ..svg import el, fit, group, legend, text_width, title
from .layout import MARGIN, WIDTH
from .look import (
    AP_BADGE,
    COMMODITY_COLOURS,
    MUTED,
    SEA_FILL,
    START_FILL,
    TILE_COLOURS,
    chip_row,
    commodity_colours,
    ink_class,
    label,
)
from .words import BUILDING_SHORT, counts, tile_name

if TYPE_CHECKING:
    from ...core import View


ROW_H = 27
CHIPS_X = MARGIN + 84  # right of the row's heading


def supply(view: View, lay):
    """Stacks and reserve; public buildings; the variant's supply (``supply_parts``)."""
    y = lay.supply_y
    stacks = view["stacks"]
    chips, x = chip_row(
        CHIPS_X, y, [(f"{name} {count}", *_commodity_look(name)) for name, count in stacks.items()]
    )
    parts = [
        group(
            title(f"Supply: {counts(stacks.items())} cards"), label(MARGIN, y + 13, "Supply", "b f13"), *chips
        ),
        label(x + 14, y + 13, f"Reserve: {view['reserve_size']} tiles", "f13"),
    ]
    removed = view.get("removed") or []
    if removed:
        parts.append(
            group(
                title("Treasures used: " + ", ".join(tile_name(t) for t in removed)),
                label(x + 150, y + 13, f"Treasures used: {len(removed)}", "u f13"),
            )
        )
    y += ROW_H
    buildings = view["buildings"]
    chips, _ = chip_row(
        CHIPS_X,
        y,
        [
            (f"{BUILDING_SHORT.get(name, name)} {count}", None, *(("bld", "m") if count else ("goal", "m u")))
            for name, count in buildings.items()
        ],
    )
    parts.append(
        group(
            title(f"Public buildings in the supply: {counts(buildings.items())}"),
            label(MARGIN, y + 13, "Buildings", "b f13"),
            *chips,
        )
    )
    parts += lay.look.supply_parts(view, y + ROW_H)
    return "".join(parts)


def _commodity_look(name):
    """``(fill, class, text class)`` of a commodity chip: white text on the dark ones."""
    fill, ink = commodity_colours(name)
    return fill, "ch", ink_class(ink)


# --- legend ---------------------------------------------------------------------------


def board_legend(view: View, names: list[str], viewer: int | None, lay):
    """svg.legend beside the sea: the seats (names cut to the room left), then the board's marks."""
    # svg.legend writes "name (colour) - you" at 12 px after an 18-unit swatch.
    room = WIDTH - MARGIN - lay.legend_x - 18 - text_width(" (orange) - you", 12)
    players = [{"seat": p["seat"], "name": fit(names[p["seat"]], room, 12)} for p in view["players"]]
    return legend(lay.legend_x, lay.board_y + 14, players, viewer, _legend_rows(lay.look))


def swatch(fill=None, cls=None, caption=None):
    out = el("rect", width=14, height=14, y=-11, rx=2, fill=fill, class_=cls or "ch")
    if caption is not None:
        out += label(7, 0, caption, "m b w")
    return out


@lru_cache(maxsize=2)
def _legend_rows(look):
    rows = [
        (swatch(SEA_FILL), "Sea square"),
        (swatch(START_FILL), "Start square (new ships)"),
        (swatch(cls="sand"), "Island space (no tile)"),
        (swatch(cls="back", caption="2"), "Face-down tile: back number"),
        (swatch(COMMODITY_COLOURS["spice"][0]), "Branch office (its commodity)"),
        (swatch(TILE_COLOURS["trade_agreement"][0]), "Trade agreement"),
        (swatch(TILE_COLOURS["treasure_gold"][0]), "Treasure (gold or upgrade)"),
        (
            el("circle", cx=7, cy=-4, r=7, fill=AP_BADGE, class_="ch") + label(7, 0, "3", "m b"),
            "Ship: AP left",
        ),
        (el("circle", cx=7, cy=-4, r=3.5, fill=MUTED), "Dot: who looked at a tile"),
    ]
    return (*rows, *look.legend_rows())
