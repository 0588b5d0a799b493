"""The page's header (the year, the round, the options, the time table) and the legend."""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from ...games.anno1452.data import ROWS
from ..svg import INK, el, group, legend, mix, place, seat_colour, text, title
from .look import (
    BATTLE,
    BORDER,
    COAST,
    DIM_CROWN,
    FAINT,
    GOLD,
    LAND,
    MARGIN,
    PANEL,
    RIGHT_W,
    RIGHT_X,
    SEPIA,
    SERIF,
    WASH,
    WIDTH,
    bare_text,
    crown,
    rect,
    use,
)
from .words import SCENARIOS, phase_text

if TYPE_CHECKING:
    from ...core import View


def header(view: View):
    options = view["options"]
    subtitle = (
        f"{options['rules'].capitalize()} rules · {SCENARIOS.get(options['scenario'], options['scenario'])}"
        f" · {view['num_players']} players · ends {view['final_year']}"
    )
    return group(
        text(MARGIN + 4, 36, "Anno 1452", size=28, weight="bold", fill=SEPIA, font_family=SERIF),
        text(MARGIN + 196, 34, subtitle, size=13, fill=FAINT),
        text(
            WIDTH - MARGIN - 4,
            36,
            f"{view['year']} · {phase_text(view)}",
            size=22,
            weight="bold",
            anchor="end",
            fill=SEPIA,
            font_family=SERIF,
        ),
        _year_track(view),
    )


def _year_track(view: View):
    """The time table: one cell per row; past rows faded, the current one dark, the final one framed."""
    w = (WIDTH - 2 * MARGIN) / len(ROWS)
    final = next((i for i, row in enumerate(ROWS) if row["year"] == view["final_year"]), len(ROWS) - 1)
    cells = [
        place(MARGIN + i * w, 50, *_year_cell(row, w, i == view["row"], i < view["row"], i == final))
        for i, row in enumerate(ROWS)
    ]
    return group(*cells, text_anchor="middle", class_="year-track")


def _year_cell(row, w, current, past, final):
    """One time-table row's cell, ``w`` wide (a gap of 4 to the next)."""
    fill = SEPIA if current else (WASH if past else PANEL)
    ink = "#ffffff" if current else (FAINT if past else SEPIA)
    label = (
        f"{row['year']}: {row['note']}"
        + (", a coronation" if row["coronation"] else "")
        + (" - now" if current else "")
        + (" - the final evaluation" if final else "")
    )
    parts = [
        title(label),
        rect(
            0,
            0,
            w - 4,
            40,
            rx=5,
            fill=fill,
            stroke=COAST if final else BORDER,
            stroke_width=2.5 if final else 1,
        ),
        bare_text(w / 2 - 2, 17, row["year"], font_size=14, font_weight="bold", fill=ink),
    ]
    if final:
        parts.append(bare_text(w / 2 - 2, 34, "final", font_size=11, font_weight="bold", fill=ink))
    elif row["coronation"]:
        parts.append(crown(w / 2 - 9, 23, DIM_CROWN if past else GOLD))
    elif row["kind"] != "final":
        parts.append(bare_text(w / 2 - 2, 34, "interregnum", font_size=11, fill=ink))
    return parts


@lru_cache(maxsize=1)
def _legend_swatches():
    """(swatch, label) rows after the seats; the first, Ottokar's, only in his scenarios."""
    house = {"transform": "translate(0,-11) scale(0.4)", "stroke": INK}
    return (
        (use("house", fill=seat_colour(None), **house), "Ottokar (neutral grey)"),
        (use("house", fill="#c9b891", **house), "Estate, with its number of Citizens"),
        (use("castle", fill="#c9b891", **house), "Estate with a City"),
        (
            el(
                "g",
                el("circle", cx=2, cy=-4, r=2.4, fill=INK),
                el("circle", cx=8, cy=-4, r=2.4, fill="none", stroke=INK),
            ),
            "Estate strength left (after a battle)",
        ),
        (
            use(
                "house",
                fill=LAND,
                transform="translate(0,-11) scale(0.4)",
                stroke=BORDER,
                stroke_dasharray="3 2",
                stroke_width=2,
            ),
            "free Estate slot",
        ),
        (use("tower", 0, -11, fill=SEPIA, stroke=SEPIA), "City towers: built (filled) of allowed"),
        (
            rect(0, -11, 13, 13, rx=2, fill=mix(seat_colour(0), LAND, 0.3), stroke=seat_colour(0)),
            "tint and name banner: Principality holder",
        ),
        (
            el("line", x1=0, y1=-4, x2=13, y2=-4, stroke=BORDER, stroke_width=2, stroke_dasharray="4 2"),
            "dashed line: a border between regions",
        ),
        (
            el("path", d="M0,-4H8M13,-4L7,-9V1Z", stroke=BATTLE, stroke_width=2, fill=BATTLE),
            "battle: from the attacker to the target",
        ),
    )


def legend_box(view: View, viewer: int | None, y):
    """The legend at the foot of the right column; returns (svg, height)."""
    extra = _legend_swatches() if view["ottokar"] else _legend_swatches()[1:]
    height = (len(view["players"]) + len(extra)) * 18 + 34
    return place(
        RIGHT_X,
        y,
        rect(0, 0, RIGHT_W, height, rx=8, fill=PANEL, stroke=BORDER),
        legend(14, 32, view["players"], viewer, extra),
    ), height
