"""The Empire's map: 16 regions, their borders, Estate slots, City towers and a battle.

The rules data has no geometry: the polygons, name positions and slot
columns live in ``data/anno1452_layout.json``. Everything that does not
change during a match (slot positions, border and coast paths) is computed
once at import.
"""

from __future__ import annotations

import json
import math
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from ...games.anno1452.data import MAX_ESTATES, REGION_NAMES
from ..svg import INK, el, group, ink_on, mix, place, ref, seat_colour, text, text_width, title
from .boxes import empire_cartouche
from .look import (
    BATTLE,
    BORDER,
    COAST,
    GOLD,
    LAND,
    MAP_X,
    MAP_Y,
    PARCHMENT,
    SEPIA,
    SERIF,
    bare_text,
    owner_colour,
    rect,
    use,
)
from .words import battle_title, estate_name, player_name

if TYPE_CHECKING:
    pass


if TYPE_CHECKING:
    from ...core import View


LAYOUT = json.loads((Path(__file__).parents[1] / "data" / "anno1452_layout.json").read_text(encoding="utf-8"))
MAP_W, MAP_H = LAYOUT["size"]
REGION_LAYOUT = [LAYOUT["regions"][name] for name in REGION_NAMES]
SLOT_W, SLOT_H, SLOT_PITCH_X, SLOT_PITCH_Y = 30, 32, 36, 42


# --- static geometry ---


def _edges(polygon):
    n = len(polygon)
    return {tuple(sorted((tuple(polygon[i]), tuple(polygon[(i + 1) % n])))) for i in range(n)}


def _edge_sets():
    """(edges two regions share, keyed by index pair; edges of one region only: the coast)."""
    edges = [_edges(r["polygon"]) for r in REGION_LAYOUT]
    shared = {}
    for a in range(len(edges)):
        for b in range(a + 1, len(edges)):
            if edges[a] & edges[b]:
                shared[(a, b)] = sorted(edges[a] & edges[b])
    inner = {e for common in shared.values() for e in common}
    coast = sorted(e for region in edges for e in region if e not in inner)
    return shared, coast


SHARED_EDGES, COAST_EDGES = _edge_sets()


def layout_adjacency():
    """Region index pairs whose polygons share an edge (a test compares them to map.json)."""
    return set(SHARED_EDGES)


def _path(edges):
    return "".join(f"M{a[0]:g},{a[1]:g}L{b[0]:g},{b[1]:g}" for a, b in edges)


def _slot_positions(r, count):
    """Top-left corners of a region's slots: rows of ``cols`` centred under its name."""
    lx, ly = REGION_LAYOUT[r]["label"]
    cols = REGION_LAYOUT[r]["cols"]
    out = []
    for s in range(count):
        row, col = divmod(s, cols)
        in_row = min(cols, count - row * cols)
        x0 = lx - (in_row * SLOT_PITCH_X - (SLOT_PITCH_X - SLOT_W)) / 2
        out.append((x0 + col * SLOT_PITCH_X, ly + 24 + row * SLOT_PITCH_Y))
    return out


SLOTS = [_slot_positions(r, MAX_ESTATES[r]) for r in range(len(REGION_NAMES))]
POLYGON_POINTS = [" ".join(f"{x:g},{y:g}" for x, y in r["polygon"]) for r in REGION_LAYOUT]
BORDER_PATH = _path(e for common in SHARED_EDGES.values() for e in common)
COAST_PATH = _path(COAST_EDGES)


# --- drawing ---


def _line(d, colour, width, class_, **style):
    """A path drawn over the regions that never takes a click."""
    return el(
        "path",
        d=d,
        fill="none",
        stroke=colour,
        stroke_width=width,
        **style,
        stroke_linecap="round",
        pointer_events="none",
        class_=class_,
    )


# The region borders (dashed) and the coast: the same on every map.
_BORDERS_AND_COAST = _line(BORDER_PATH, BORDER, 1.6, "borders", stroke_dasharray="6 4") + _line(
    COAST_PATH, COAST, 2.4, "coast", stroke_linejoin="round"
)


def draw_map(view: View):
    """The map at its place on the page, with the Empire's cartouche in its south-western sea."""
    free: list[str] = []
    taken: list[str] = []
    for r, region in enumerate(view["regions"]):
        for s, estate in enumerate(region["slots"]):
            (free if estate is None else taken).append(_slot(view, r, s, estate))
    return place(
        MAP_X,
        MAP_Y,
        rect(0, 0, MAP_W, MAP_H, rx=10, fill=PARCHMENT, stroke=COAST, stroke_width=2),
        rect(5, 5, MAP_W - 10, MAP_H - 10, rx=7, fill="none", stroke=BORDER, stroke_width=0.8),
        _sea(),
        group(*(_region(view, r) for r in range(len(view["regions"]))), class_="regions"),
        # Borders and coast are drawn over the regions, whose fills would hide shared edges.
        _BORDERS_AND_COAST,
        # Free slots and Estates share their styles through their layer's attributes.
        group(*free, fill=LAND, stroke=BORDER, stroke_width=1.2, stroke_dasharray="3 2", class_="free"),
        group(
            *taken,
            stroke=INK,
            stroke_width=1.2,
            font_size=15,
            font_weight="bold",
            text_anchor="middle",
            class_="estates",
        ),
        _battle_arrow(view),
        empire_cartouche(view, 16, MAP_H - 14),
        class_="map",
    )


@lru_cache(maxsize=1)
def _sea():
    """The seas' names and a compass rose: they never change."""
    style = {"font_family": SERIF, "font_style": "italic", "fill": "#a48e63", "pointer_events": "none"}
    return group(
        text(300, 19, "Mare Germanicum", size=13, anchor="middle", **style),
        text(745, 700, "Mare Adriaticum", size=13, anchor="middle", transform="rotate(62 745 700)", **style),
        text(100, 602, "Regnum Franciae", size=13, anchor="middle", **style),
        place(
            785,
            612,
            el("path", d="M0,-22L6,0L0,22L-6,0Z", fill="#d8c79e", stroke=COAST, stroke_width=1),
            el("path", d="M0,-22L6,0H-6Z", fill=COAST),
            text(0, -27, "N", size=12, anchor="middle", weight="bold", fill=COAST, font_family=SERIF),
        ),
    )


def _region(view: View, r):
    region = view["regions"][r]
    holder = region["principality"]
    built = sum(1 for e in region["slots"] if e is not None and e["city"])
    taken = sum(1 for e in region["slots"] if e is not None)
    lx, ly = REGION_LAYOUT[r]["label"]
    description = (
        f"{region['name']}: {taken} of {region['max_estates']} Estates, "
        f"{built} of {region['max_cities']} Cities, "
        + ("no Principality holder" if holder is None else f"Principality of {player_name(view, holder)}")
    )
    return group(
        title(description),
        el(
            "polygon",
            points=POLYGON_POINTS[r],
            fill=LAND if holder is None else mix(seat_colour(holder), LAND, 0.2),
        ),
        _region_name(region["name"], holder, lx, ly),
        _towers(lx, ly + 5, built, region["max_cities"]),
        data_region=region["name"],
        class_="region",
    )


def _region_name(name, holder, x: float, y: float):
    """The region's name; on a banner in the holder's colour when it is a Principality."""
    if holder is None:
        return text(x, y, name, size=15, anchor="middle", weight="bold", fill=SEPIA, font_family=SERIF)
    colour = seat_colour(holder)
    w = text_width(name, 15, bold=True) * 0.95 + 14
    return group(
        rect(x - w / 2, y - 15.5, w, 19, rx=4, fill=colour, stroke=COAST, stroke_width=0.8),
        text(x, y, name, size=15, anchor="middle", weight="bold", fill=ink_on(colour), font_family=SERIF),
    )


def _towers(cx, y: float, built, allowed):
    """One small tower per City the region allows; built ones filled."""
    x0 = cx - (allowed * 16 - 4) / 2
    return group(
        *(use("tower", x0 + i * 16, y, fill=SEPIA if i < built else "none") for i in range(allowed)),
        stroke=SEPIA,
        stroke_width=1,
        pointer_events="none",
    )


def _slot(view: View, r, s, estate):
    """One Estate slot, drawn even when free: a client clicks it to settle or attack there."""
    x, y = SLOTS[r][s]
    name = estate_name((r, s))
    if estate is None:
        return place(x, y, title(f"{name}: free"), use("house"), data_estate=ref(r, s))
    owner = estate["owner"]
    colour = owner_colour(owner)
    safe = owner in view["landfrieden"]
    label = (
        f"{name}: Estate of {player_name(view, owner)}, {estate['citizens']} Citizens"
        + (", a City" if estate["city"] else "")
        + (f", strength {estate['strength']} of 3" if estate["strength"] < 3 else "")
        + (", safe under Landfrieden" if safe else "")
    )
    parts = [
        title(label),
        use("castle" if estate["city"] else "house", fill=colour),
        bare_text(15, 28, estate["citizens"], fill=ink_on(colour), stroke="none"),
    ]
    if estate["strength"] < 3:
        parts.extend(
            el(
                "circle",
                cx=7 + 8 * i,
                cy=37,
                r=2.6,
                stroke_width=0.8,
                fill=INK if i < estate["strength"] else "none",
            )
            for i in range(3)
        )
    if safe:
        parts.append(rect(-3, -3, 36, 38, rx=4, fill="none", stroke=GOLD, stroke_width=2))
    return place(x, y, *parts, data_estate=ref(r, s))


def _slot_centre(at):
    x, y = SLOTS[at[0]][at[1]]
    return x + SLOT_W / 2, y + SLOT_H / 2 + 2


def _battle_arrow(view: View):
    """A red arrow from the attacking Estate to its target; a ring when Soldiers attack alone."""
    battle = view["battle"]
    if not battle or battle.get("target") is None:
        return ""
    tx, ty = _slot_centre(battle["target"])
    parts = [el("circle", cx=tx, cy=ty, r=25, fill="none", stroke=BATTLE, stroke_width=3.5)]
    if battle.get("from") is not None:
        fx, fy = _slot_centre(battle["from"])
        length = math.hypot(tx - fx, ty - fy) or 1
        ux, uy = (tx - fx) / length, (ty - fy) / length
        ex, ey = tx - ux * 33, ty - uy * 33
        parts.append(
            el(
                "line",
                x1=fx + ux * 20,
                y1=fy + uy * 20,
                x2=ex,
                y2=ey,
                stroke=BATTLE,
                stroke_width=4,
                stroke_linecap="round",
            )
        )
        # The head: a triangle from the ring back along the line.
        px, py = -uy * 8, ux * 8
        parts.append(
            el(
                "path",
                d=f"M{tx - ux * 25:.1f},{ty - uy * 25:.1f}L{ex + px:.1f},{ey + py:.1f}"
                f"L{ex - px:.1f},{ey - py:.1f}Z",
                fill=BATTLE,
            )
        )
    return group(title(battle_title(view)), *parts, pointer_events="none", class_="battle")
