"""How the Anno 1452 picture looks: page geometry, a parchment palette, shapes.

Every other module draws with these names, so a colour or a measure is
changed in one place.
"""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING

from ...games.anno1452.data import OTTOKAR_ID
from ..svg import el, seat_colour

if TYPE_CHECKING:
    pass


# --- page geometry: the map on the left, the "Now" box, panels and legend on the right ---

WIDTH = 1340
MARGIN = 12
MAP_X, MAP_Y = MARGIN, 104
RIGHT_X = 848
RIGHT_W = WIDTH - RIGHT_X - MARGIN
LINE = 17  # the pitch of 12-13 px text lines

# --- palette: a parchment map inked in browns ---

BACKGROUND = "#f4ecd8"
PARCHMENT = "#ecdfbb"
LAND = "#f8f0d9"
COAST = "#7a5a30"
BORDER = "#9b7b4b"
SEPIA = "#5b4326"
FAINT = "#7d6a4c"
PANEL = "#fffdf7"
GOLD = "#c9a227"
BATTLE = "#c0392b"
WASH = "#e6d8b4"  # a pale sepia: spent time-table rows, the turn-order badge
DIM_CROWN = "#cdbf9a"  # a crown nobody wears, or a coronation gone by
SERIF = "Georgia, 'DejaVu Serif', 'Times New Roman', serif"
CARD_KINDS = {  # kind -> (label, colour of the card's band)
    "marriage": ("Marriage", "#a23b5f"),
    "title": ("Title", "#6b4aa0"),
    "inheritance": ("Inheritance", "#2f7d4f"),
    "special": ("Special Action", "#1f5f99"),
    "reaction": ("Reaction", "#a5452a"),
    "event": ("Event", "#5f5f5f"),
}


def owner_colour(owner):
    """A seat's colour; Ottokar (and nobody) is neutral grey."""
    return seat_colour(None if owner == OTTOKAR_ID else owner)


# --- shapes drawn many times are defined once and <use>d: the picture stays small ---

HOUSE = "M0,11L15,0L30,11V32H0Z"
CASTLE = "M0,32V3h6v5h6v-5h6v5h6v-5h6V32Z"
TOWER = "M0,12V2h2.5v2h2v-2h2.5v2h2v-2h2.5V12Z"
DEFS = el(
    "defs",
    el("path", id="a1452-house", d=HOUSE),
    el("path", id="a1452-castle", d=CASTLE),
    el("path", id="a1452-tower", d=TOWER),
)


def use(shape, x=None, y=None, **values):
    """A copy of one of ``DEFS``' shapes: "house", "castle" or "tower"."""
    return el("use", href=f"#a1452-{shape}", x=x, y=y, **values)


def crown(x: float, y: float, fill):
    """A small crown (King, Anti-King, coronation years) with its top-left at ``(x, y)``."""
    return el("path", d=f"M{x:g},{y + 8:g}l1-7 3.5,4 2.5-5 2.5,5 3.5-4 1,7Z", fill=fill)


def rect(x, y, w, h, **values):
    return el("rect", x=x, y=y, width=w, height=h, **values)


def bare_text(x, y, content, **values):
    """A ``<text>`` that inherits size, weight and colour from its group (fewer bytes)."""
    return el("text", escape(str(content), quote=False), x=x, y=y, **values)
