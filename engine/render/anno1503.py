"""The SVG board picture of an Anno 1503 match, drawn from one viewer's view.

``render(view, viewer)`` reads only ``game.view(state, viewer)``, so the
picture is redacted exactly as the view is: the viewer's own hand (and own
aristocrat cards) in full, other seats as counts, face-down tiles as their
back number unless the view shows them face up. Printed content that never
changes (the sea grid, start, dolphins, pirate squares, the port) comes from
the game's data, never from a state.

What is drawn, top to bottom:

- a header: turn, active player, phase, last roll, who is to act and on what
  (the pending ``choice``), a discovery or sea battle in progress, the winner;
- the sea: every square of the main board (5x12) and, with Pirates &
  Aristocrats, the pirate sea east of it (6x6, joined at the dolphins).
  Island spaces show their tile face up, its back number, or nothing; dots in
  seat colours tell who looked at a tile (``seen_by``). Ships sit on their
  squares in seat colours with their index and a yellow badge of AP left (a
  red cross when damaged). Squares a pending choice offers are outlined;
- a legend (seat colours, "you", square and tile kinds) beside the sea;
- the supply: commodity stacks, public buildings, reserve, and with the
  expansion the pirate and aristocrat piles and aristocrat buildings;
- one panel per seat: the home island (7 inhabitant slots, 1-2 red and 3-7
  green, public buildings under 4-7, the production table with its bridges
  and branch offices), trade agreements, the warehouse, ships in stock and,
  with the expansion, the aristocrat island.

Clickable things carry ``data-`` attributes that name them the way action
parameters do, so a client matches legal actions to them without knowing the
geometry (values are ``svg.ref`` strings: parts joined with ","):

- every board square, sea and island space, main board and pirate sea:
  ``data-space="r,c"`` (exactly one per square; a ship is drawn inside its
  square's group, so a click on a ship also reaches its square);
- ships: ``data-ship="seat,index"`` (on their square, or in the panel's stock);
- inhabitant slots: ``data-slot="seat,slot"`` (slot 1..7);
- bridges 1..5 of a home island: ``data-bridge="seat,n"``;
- the viewer's own warehouse cards: ``data-commodity="seat,name"``;
- player panels: ``data-seat="n"`` (the legend's rows carry it too).

``CLICK_TARGETS`` tells which action parameter each attribute stands for:
``{type: [[param, attribute, own], ...]}`` in order of preference; the
attribute's value is the parameter's value (a list joined with ",", else
``str``), prefixed with the acting seat and "," when ``own`` is true. The
root ``<svg>`` carries it as ``data-click-targets`` (compact JSON) so a
client can read it from the picture. Actions without a place on the board
(buy, sell, end_turn, respond, ...) are left to buttons.

Size and speed: shared styles live in one ``<style>`` (class selectors under
``.a15``), the board's fixed squares are built once per set of options, and a
picture is a join of strings (a few ms, well under 60 KB).
"""

import json
from functools import lru_cache
from html import escape

from ..games.anno1503.data import DOLPHIN, EVENTS, MARKS, SEA, SPACES, START
from ..games.anno1503.xdata import PIRATE_DOLPHIN, PIRATE_SPACES, PIRATE_SQUARES, PORT, X_GEO, X_SEA
from .svg import INK, SEAT_COLOUR_NAMES, document, el, group, legend, place, ref, seat_colour, title

CLICK_TARGETS = {
    "lose_tile": [["bridge", "bridge", True]],
    "place_reserve_tile": [["space", "space", False]],
    "build_ship": [["at", "space", False]],
    "develop": [["slot", "slot", True]],
    "move_ship": [["to", "space", False]],
    "discover": [["space", "space", False]],
    "take_tile": [["bridge", "bridge", True], ["slot", "slot", True]],
    "big_branch_office": [["target", "seat", False]],
    "discard": [["commodity", "commodity", True]],
    # Pirates & Aristocrats: the Library's slot, the ship to repair.
    "build_aristocrat": [["slot", "slot", True]],
    "repair_ship": [["ship", "ship", True]],
    "play_card": [["ship", "ship", True]],
}
_CLICK_JSON = json.dumps(CLICK_TARGETS, separators=(",", ":"))

EXPANSION = "pirates_aristocrats"

# --- palette ------------------------------------------------------------------

SEA_FILL = "#5b9fd4"
PIRATE_SEA_FILL = "#4b86bd"
SEA_LINE = "#3d7cb3"
START_FILL = "#8cc4ea"
PIRATE_SQUARE_FILL = "#2f4a66"
SAND = "#ecdcaa"
SAND_EDGE = "#c9b27a"
ISLET = "#7db36a"
TILE_BACK = "#8a5a35"
CROWN_BACK = "#6b4a7a"  # expansion tiles only ever lie on the pirate sea
MUTED = "#6b6b6b"
HIGHLIGHT = "#ffd23f"
DANGER = "#c62828"
AP_BADGE = "#ffd54f"
WHITE = "#ffffff"
ARISTO = "#8e63b5"

# fill, text colour (text dark or white, whichever reads on the fill)
COMMODITY_COLOURS = {
    "stone": ("#a9a9a9", INK), "wood": ("#9c6b3f", WHITE), "tool": ("#56798a", WHITE),
    "cloth": ("#efe0c0", INK), "spice": ("#e3843f", INK), "tobacco": ("#6f8a2e", WHITE),
    "silk": ("#d04b80", WHITE), "marble": ("#e4e8ec", INK), "gems": ("#6c4fb5", WHITE),
    "?": (WHITE, INK),
}
KIND_COLOURS = {"pioneer": "#f3e3b5", "settler": "#f5b486", "citizen": "#9fc8ea", "merchant": "#c9a8ea"}
KIND_ROOFS = {"pioneer": "#b08d3c", "settler": "#c0622a", "citizen": "#2f6ea3", "merchant": "#6b3fa0"}
TILE_COLOURS = {
    "trade_agreement": ("#f5dc8c", INK), "treasure_gold": ("#e9b824", INK),
    "treasure_upgrade": ("#9b7bd0", WHITE), "lair": ("#3a2a2a", WHITE),
}
RED_SLOT, GREEN_SLOT = "#c0392b", "#2e8b57"

# Class selectors only, under the root's ``a15`` class: inlined in a page they
# touch nothing else, and they never fight a presentation attribute (svg.py's
# legend sets its own sizes). Defaults (11 px, ink) are inherited from a group.
STYLE = (
    ".a15 .b{font-weight:700}.a15 .m{text-anchor:middle}.a15 .e{text-anchor:end}"
    ".a15 .u{fill:#6b6b6b}.a15 .w{fill:#fff}.a15 .f13{font-size:13px}.a15 .f14{font-size:14px}"
    ".a15 .f16{font-size:16px}.a15 .f18{font-size:18px}"
    f".a15 .sea{{fill:url(#a15-sea);stroke:{SEA_LINE}}}.a15 .psea{{fill:url(#a15-psea);stroke:#346c9f}}"
    f".a15 .start{{fill:{START_FILL};stroke:{SEA_LINE}}}.a15 .pir{{fill:{PIRATE_SQUARE_FILL};stroke:#22384f}}"
    f".a15 .sand{{fill:{SAND};stroke:{SAND_EDGE};stroke-width:1.5}}"
    f".a15 .back{{fill:{TILE_BACK};stroke:{INK}}}.a15 .cback{{fill:{CROWN_BACK};stroke:{INK}}}"
    f".a15 .tl{{stroke:{INK};stroke-width:1.2}}.a15 .ch{{stroke:{INK};stroke-width:.8}}"
    ".a15 .goal{fill:#f1efe9;stroke:#d8d3c6}.a15 .held{fill:#f6c945;stroke:#c9a227}"
    ".a15 .bld{fill:#e8e0d4;stroke:#8c7b63}.a15 .site{fill:none;stroke:#b8ab98;stroke-dasharray:3 3}"
    f".a15 .ab{{fill:#d9c6ea;stroke:{ARISTO}}}.a15 .asite{{fill:none;stroke:#b59cc7;stroke-dasharray:3 3}}"
)

# --- words --------------------------------------------------------------------

PHASES = {
    "production": "production", "golden_times": "golden times", "pirates": "pirates",
    "reserve_placement": "reserve placement", "main": "main", "tile_decision": "tile decision",
    "discard": "discard", "over": "game over", "sea_battle": "sea battle",
    "card_discard": "card discard",
}
CHOICES = {
    "production": "choose a commodity", "golden_times": "golden times: choose a commodity",
    "lose_tile": "pirates: give up a tile", "reserve_placement": "place the reserve tile",
    "pirate_sea_placement": "place a tile on the pirate sea",
    "pirate_attack": "pirates attack (pay 3 gold or fight)",
    "sea_hero": "tie: play the Sea Hero or reroll", "pirate_penalty": "battle lost: give a card or gold",
    "pirate_offer": "peaceful pirates offer goods",
}
BUILDING_SHORT = {
    "big_branch_office": "Big BO", "fire_brigade": "Fire", "smithy": "Smithy", "church": "Church",
    "school": "School", "bath_house": "Bath", "restaurant": "Restaur.", "shipyard": "Shipyard",
}
ARISTO_SHORT = {
    "richest_aristocrat": "Richest", "university": "University", "library": "Library",
    "park": "Park", "cathedral": "Cathedral", "theatre": "Theatre",
}
GOAL_LABELS = {
    "gold": "30 gold", "branch_offices": "4 offices", "trade_agreements": "3 agreements",
    "public_buildings": "4 buildings", "merchants": "3 merchants",
    "aristocrat_buildings": "3 aristocrat bldgs", "lairs": "2 lairs", "manor": "manor 9",
}

# --- layout -------------------------------------------------------------------

WIDTH = 1360
MARGIN = 16
HEADER_H = 78
PANEL_GAP = 16
PANEL_W = (WIDTH - 2 * MARGIN - PANEL_GAP) // 2
BASE_PANEL_H = 246
X_PANEL_H = 352
PIRATE_COL = 12  # first column of the pirate sea (xdata: col_offset)
# Islets printed on each island space (2-4), main board and pirate sea.
_MARKS = {**dict(zip(SPACES, MARKS)), **dict(zip(PIRATE_SPACES, X_GEO.marks[len(SPACES):]))}


class Layout:
    """Where the sea, legend, supply and panels go for one set of options."""

    def __init__(self, expansion, num_players):
        self.expansion = expansion
        self.square = 56 if expansion else 80
        self.gap = 28 if expansion else 0  # between the main board and the pirate sea
        self.board_x = MARGIN + 22  # room for row numbers
        self.board_y = HEADER_H + 26  # room for column numbers
        rows, cols = (6, 18) if expansion else (5, 12)
        self.board_w = cols * self.square + self.gap
        self.board_h = rows * self.square
        self.legend_x = self.board_x + self.board_w + 28
        # svg.legend writes "name (colour) - you" at 12 px: names are cut to fit.
        self.legend_name_chars = int((WIDTH - MARGIN - self.legend_x - 18) / 7.2) - len(" (orange) - you")
        self.supply_y = self.board_y + self.board_h + 24
        self.supply_h = 86 if expansion else 58
        self.panels_y = self.supply_y + self.supply_h + 10
        self.panel_h = X_PANEL_H if expansion else BASE_PANEL_H
        panel_rows = (num_players + 1) // 2
        self.height = self.panels_y + panel_rows * (self.panel_h + PANEL_GAP)

    def xy(self, r, c):
        """Top-left corner of square ``[r, c]``; the pirate sea sits east past the gap."""
        x = self.board_x + c * self.square + (self.gap if c >= PIRATE_COL else 0)
        return x, self.board_y + r * self.square

    def panel_xy(self, index):
        return (MARGIN + (index % 2) * (PANEL_W + PANEL_GAP),
                self.panels_y + (index // 2) * (self.panel_h + PANEL_GAP))


@lru_cache(maxsize=16)
def _layout(expansion, num_players):
    return Layout(expansion, num_players)


def _square_kinds(expansion):
    """``{(r, c): kind}`` for every square of the board, main board first."""
    sea = X_SEA if expansion else SEA
    spaces = set(SPACES) | (set(PIRATE_SPACES) if expansion else set())
    kinds = {}
    for sq in sorted(sea | spaces, key=lambda s: (s[1] >= PIRATE_COL, s[0], s[1])):
        if sq in spaces:
            kinds[sq] = "port" if expansion and sq == PORT else "space"
        elif sq == START:
            kinds[sq] = "start"
        elif sq in (DOLPHIN, PIRATE_DOLPHIN):
            kinds[sq] = "dolphin"
        elif sq in PIRATE_SQUARES:
            kinds[sq] = "pirate"
        else:
            kinds[sq] = "sea"
    return kinds


# --- small helpers -------------------------------------------------------------


def _t(x, y, content, cls=None, **values):
    """A ``<text>`` styled by classes (``b`` bold, ``m`` centred, ``u`` muted...).

    Leaner than ``svg.text`` for the hundreds of small labels: size and ink
    are inherited from the picture's root group.
    """
    return el("text", escape(str(content), quote=False), x=x, y=y, class_=cls, **values)


def spans(x, y, parts, cls=None, **values):
    """One ``<text>`` of coloured runs: ``parts`` are ``(content, fill, bold)``.

    A general helper (svg.py has none): the header mixes seat-coloured names
    with plain words on one baseline.
    """
    runs = "".join(
        el("tspan", escape(str(content), quote=False), fill=fill, class_="b" if bold else None)
        for content, fill, bold in parts if content
    )
    return el("text", runs, x=x, y=y, class_=cls, **values)


def _clip(name, limit):
    return name if len(name) <= limit else name[: limit - 1] + "…"


def _text_width(content, size=11):
    # No font metrics here: 0.6 em per character is close enough to size chips.
    return len(str(content)) * size * 0.6


def _chip(x, y, label, fill=None, cls=None, text_cls="m", hint=None):
    """A rounded label fitted to its text, with an optional title; returns (element, width)."""
    w = round(_text_width(label) + 12)
    chip = (el("rect", x=x, y=y, width=w, height=18, rx=9, fill=fill, class_=cls)
            + _t(x + w / 2, y + 13, label, text_cls))
    return (group(title(hint), chip) if hint else chip), w


def _names(view):
    return [p.get("name") or f"Seat {p['seat']}" for p in view["players"]]


def _name_of(names, seat):
    return names[seat] if seat is not None and 0 <= seat < len(names) else "nobody"


# --- static board (once per set of options) ---------------------------------------------

_KIND_TITLES = {
    "sea": "Sea square", "start": "Start square (new ships)",
    "dolphin": "Dolphin square (passage between the seas)",
    "pirate": "Pirate square (entering draws a pirate card)",
}


_SEA_MARKS = {"start": "#a15-anchor", "dolphin": "#a15-dolphin", "pirate": "#a15-skull"}
_SEA_CLASSES = {"start": "start", "pirate": "pir"}


def _sea_mark(kind, s):
    """The fixed picture on a special sea square of side ``s`` (none on plain sea)."""
    if kind not in _SEA_MARKS:
        return ""
    return el("use", href=_SEA_MARKS[kind], transform=f"translate({s // 2},{s // 2})")


def _sea_class(kind, sq):
    return _SEA_CLASSES.get(kind, "psea" if sq[1] >= PIRATE_COL else "sea")


# Everything below in <defs> is drawn through <use>, so it takes presentation
# attributes, not classes: a use's copy lives in a shadow tree where the
# ".a15 ..." selectors never match.


def _sea_defs(lay):
    """Sea patterns (with waves), the square shape, anchor, dolphin and skull."""
    s = lay.square
    wave = el("path", d=f"M4 {s * .3:.0f}q{s / 8:.0f}-5 {s / 4:.0f} 0t{s / 4:.0f} 0"
                        f"M{s / 2:.0f} {s * .75:.0f}q{s / 8:.0f}-5 {s / 4:.0f} 0t{s / 4:.0f} 0",
              fill="none", stroke=WHITE, stroke_opacity=0.22, stroke_width=1.5)
    pattern = dict(width=s, height=s, patternUnits="userSpaceOnUse", x=lay.board_x, y=lay.board_y)
    return (
        el("pattern", el("rect", width=s, height=s, fill=SEA_FILL), wave, id="a15-sea", **pattern)
        + el("pattern", el("rect", width=s, height=s, fill=PIRATE_SEA_FILL), wave, id="a15-psea", **pattern)
        + el("rect", width=s, height=s, id="a15-q")
        + el("g", el("path", d="M0 -8v22m-10-8a10 10 0 0 0 20 0m-15-11h10", fill="none", stroke=WHITE,
                     stroke_width=3, stroke_linecap="round"),
             el("circle", cy=-12, r=3.5, fill="none", stroke=WHITE, stroke_width=2.5),
             id="a15-anchor", opacity=0.8)
        + el("path", d="M-15 6q8-18 24-10q4 2 6 0q-2 6-6 5q-10-6-18 7z", fill=WHITE, fill_opacity=0.6,
             id="a15-dolphin")
        + el("g", el("circle", cy=-3, r=10, fill=WHITE),
             el("rect", x=-6, y=4, width=12, height=7, rx=2, fill=WHITE),
             el("circle", cx=-4, cy=-3, r=3, fill=PIRATE_SQUARE_FILL),
             el("circle", cx=4, cy=-3, r=3, fill=PIRATE_SQUARE_FILL), id="a15-skull", opacity=0.85)
    )


def _island_defs(s):
    """Island spaces with 2-4 islets, and tile backs numbered 2-4 (brown; purple on the pirate sea)."""
    corners = ((10, 10), (s - 10, s - 10), (s - 10, 10), (10, s - 10))
    sands = "".join(
        el("g", el("rect", x=3, y=3, width=s - 6, height=s - 6, rx=s // 5, fill=SAND, stroke=SAND_EDGE,
                   stroke_width=1.5),
           *(el("circle", cx=cx, cy=cy, r=4.5, fill=ISLET) for cx, cy in corners[:n]), id=f"a15-s{n}")
        for n in (2, 3, 4)
    )
    t = round(s * 0.52)
    backs = "".join(
        el("g", el("rect", x=(s - t) // 2, y=(s - t) // 2, width=t, height=t, rx=6, fill=fill, stroke=INK),
           el("text", str(n), x=s // 2, y=s // 2 + 6, font_size=18, font_weight="bold", text_anchor="middle",
              fill=WHITE), id=f"a15-{name}{n}")
        for name, fill in (("back", TILE_BACK), ("cback", CROWN_BACK)) for n in (2, 3, 4)
    )
    return sands + backs


def _slot_defs():
    """A slot per inhabitant kind (and empty), with a red or green frame: ``#a15-settler-r``..."""
    houses = "".join(
        el("g", el("path", d="M-11 20l11-11l11 11v11h-22z", fill=KIND_ROOFS[k], stroke=INK, stroke_width=0.8),
           el("rect", x=-3, y=24, width=6, height=7, fill=KIND_COLOURS[k]), id=f"a15-h-{k}")
        for k in KIND_COLOURS
    )
    middle = SLOT_W // 2

    def inside(kind):
        if kind == "empty":
            return el("text", "empty", x=middle, y=29, text_anchor="middle", fill=MUTED)
        return (el("use", href=f"#a15-h-{kind}", x=middle)
                + el("text", kind, x=middle, y=44, text_anchor="middle", letter_spacing=-0.3))

    slots = "".join(
        el("g", el("rect", width=SLOT_W, height=SLOT_H, rx=6, fill=KIND_COLOURS.get(kind, "#f7f3e6"),
                   stroke=edge, stroke_width=2.5, stroke_dasharray="5 3" if kind == "empty" else None),
           inside(kind), id=f"a15-{kind}-{code}")
        for kind in (*KIND_COLOURS, "empty") for code, edge in (("r", RED_SLOT), ("g", GREEN_SLOT))
    )
    return houses + slots


def _piece_defs(num_players):
    """Per seat colour a hull and sail (a ship adds its index and AP) and a seen-by dot; bridges,
    a card back, an office's house."""
    ships = "".join(
        el("g", el("path", d="M-13 3h26l-6 8h-14z", fill=seat_colour(seat), stroke=INK),
           el("rect", x=-8, y=-13, width=16, height=15, rx=2, fill=WHITE, stroke=seat_colour(seat),
              stroke_width=2),
           id=f"a15-ship{seat}")
        for seat in range(num_players)
    )
    bridges = "".join(
        el("g", el("rect", width=78, height=24, rx=4, fill=fill, stroke=stroke, stroke_dasharray=dash),
           el("text", label, x=39, y=16, text_anchor="middle", fill=ink), id=f"a15-{name}")
        for name, label, fill, stroke, dash, ink in (
            ("gray", "gray bridge", "#b5b5b5", "#7a7a7a", None, INK),
            ("nob", "no bridge", "none", "#b5b5b5", "4 3", MUTED),
            ("lux", "luxury only", "none", "#b5b5b5", "4 3", MUTED),
        )
    )
    dots = "".join(el("circle", r=3.5, fill=seat_colour(seat), stroke=WHITE, id=f"a15-d{seat}")
                   for seat in range(num_players))
    return (ships + bridges + dots
            + el("rect", width=30, height=40, rx=4, fill="#7a5236", stroke=WHITE, stroke_width=1.2,
                 id="a15-card")
            + el("path", d="M6 19v-7l6-6l6 6v7z", id="a15-bo", opacity=0.8))


def _defs(lay, num_players):
    return el("defs", el("style", STYLE), _sea_defs(lay), _island_defs(lay.square), _slot_defs(),
              _piece_defs(num_players))


@lru_cache(maxsize=8)
def _static_board(expansion, num_players):
    """``(layout, [(sq, kind, head, body, bare)], frame)`` for one set of options.

    ``head`` opens the square's group (with ``data-space``); ``body`` is its
    fixed picture (sea squares: with their title); tiles, ships and
    highlights go after it per view. ``bare`` is the whole square as one
    element, for a plain sea square with nothing on it. ``frame`` is drawn
    once under the squares.
    """
    lay = _layout(expansion, num_players)
    s = lay.square
    squares = []
    for sq, kind in _square_kinds(expansion).items():
        x, y = lay.xy(*sq)
        key = ref(*sq)
        head = f'<g data-space="{key}" transform="translate({x},{y})">'
        bare = None
        if kind in ("space", "port"):
            # Island: sand on the sea; the title depends on the tile, so it comes per view.
            body = el("use", href=f"#a15-s{_MARKS.get(sq, 2)}")
        else:
            body = (title(f"{_KIND_TITLES[kind]} {key}")
                    + el("use", href="#a15-q", class_=_sea_class(kind, sq)) + _sea_mark(kind, s))
            if kind == "sea":
                # Most squares are plain sea with nothing on them: one element is enough.
                bare = el("use", title(f"Sea square {key}"), href="#a15-q", class_=_sea_class(kind, sq),
                          x=x, y=y, data_space=key)
        squares.append((sq, kind, head, body, bare))
    return lay, tuple(squares), _defs(lay, num_players) + _board_frame(lay)


def _board_frame(lay):
    s = lay.square
    parts = [el("rect", x=lay.board_x - 4, y=lay.board_y - 4, width=12 * s + 8, height=5 * s + 8, rx=8,
                fill=SEA_LINE),
             el("rect", x=lay.board_x, y=lay.board_y, width=12 * s, height=5 * s, fill="url(#a15-sea)")]
    columns = list(range(18 if lay.expansion else 12))
    parts += [_t(lay.xy(0, c)[0] + s / 2, lay.board_y - 8, c, "m u") for c in columns]
    parts += [_t(lay.board_x - 8, lay.board_y + r * s + s / 2 + 4, r, "e u") for r in range(5)]
    if lay.expansion:
        px, py = lay.xy(0, PIRATE_COL)
        parts.append(el("rect", x=px - 4, y=py - 4, width=6 * s + 8, height=6 * s + 8, rx=8, fill="#22384f"))
        parts.append(el("rect", x=px, y=py, width=6 * s, height=6 * s, fill="url(#a15-psea)"))
        # The main board has no row 5: its number sits by the pirate sea only.
        parts.append(_t(px - 8, lay.board_y + 5 * s + s / 2 + 4, 5, "e u"))
        # The only passage between the seas: a dashed wake across the gap.
        (ax, ay), (bx, _) = lay.xy(*DOLPHIN), lay.xy(*PIRATE_DOLPHIN)
        parts.append(el("path", d=f"M{ax + s - 4} {ay + s // 2}H{bx + 4}", stroke=WHITE, stroke_width=4,
                        stroke_dasharray="6 5", stroke_linecap="round"))
        parts.append(_t(lay.board_x + 6 * s, lay.board_y + 5 * s + 20, "Main board", "m u f13"))
        parts.append(_t(px + 3 * s, py + 6 * s + 20, "Pirate sea", "m b f13"))
    return "".join(parts)


# --- board: tiles, ships, highlights -------------------------------------------------

def _tile_words(tile):
    """Two short lines naming a face-up tile, and its full description for a title."""
    kind = tile.get("kind")
    if kind == "branch_office":
        return ("Office", tile["commodity"]), f"branch office ({tile['commodity']})"
    if kind == "luxury_office":
        return ("Luxury", tile["commodity"]), f"luxury office ({tile['commodity']})"
    if kind == "trade_agreement":
        return ("Trade", "deal"), "trade agreement"
    if kind == "treasure_gold":
        return ("Gold", "+12"), "gold treasure (12 gold)"
    if kind == "treasure_upgrade":
        return ("Up-", "grade"), "upgrade treasure (develops an inhabitant)"
    if kind == "lair":
        return (("Lair", f"str {tile.get('strength')}"),
                f"pirate lair (strength {tile.get('strength')}, luxuries -{tile.get('discount')} gold)")
    return (str(kind), ""), str(kind)


def _tile_colours(tile):
    if tile.get("kind") in ("branch_office", "luxury_office"):
        return COMMODITY_COLOURS.get(tile.get("commodity"), (WHITE, INK))
    return TILE_COLOURS.get(tile.get("kind"), (WHITE, INK))


def _face_up_tile(tile, x, y, w, h):
    (line1, line2), _ = _tile_words(tile)
    fill, ink = _tile_colours(tile)
    cls = "w" if ink == WHITE else None
    return (el("rect", x=x, y=y, width=w, height=h, rx=5, fill=fill, class_="tl")
            + _t(x + w / 2, y + h / 2 - 2, line1, f"m b {cls or ''}".strip())
            + _t(x + w / 2, y + h / 2 + 11, line2, f"m {cls or ''}".strip()))


def _space_content(space, s, names):
    """Tile (face up / back / none), islets and seen-by dots; and the title's words."""
    r, c = space["space"]
    tile = space.get("tile")
    parts = []
    if tile is None:
        words = "no tile"
    elif "kind" in tile:
        parts.append(_face_up_tile(tile, 5, s / 2 - 17, s - 10, 34))
        words = f"{_tile_words(tile)[1]} (back {tile.get('back')}), seen by you"
    else:
        parts.append(el("use", href=f"#a15-{'cback' if c >= PIRATE_COL else 'back'}{tile['back']}"))
        words = f"tile face down, back {tile['back']}"
    seen = space.get("seen_by") or []
    for i, seat in enumerate(seen):
        parts.append(el("use", href=f"#a15-d{seat}", x=s - 9 - 8 * i, y=s - 9))
    if seen:
        words += "; looked at by " + ", ".join(_name_of(names, p) for p in seen)
    return "".join(parts), f"Island space {ref(r, c)}: {words}"


def _port(s):
    """The expansion's port: a wooden pier on the island space."""
    pier = (f"M{s * .22:.0f} {s * .34:.0f}h{s * .56:.0f}v{s * .13:.0f}h-{s * .56:.0f}z"
            f"M{s * .43:.0f} {s * .1:.0f}h{s * .14:.0f}v{s * .56:.0f}h-{s * .14:.0f}z")
    return (el("path", d=pier, fill="#8d6e4a")
            + _t(s / 2, s - 7, "Port", "m b"))


def _ship_glyph(seat, index, ap, damaged, with_ap=True):
    """A ship: seat-coloured hull, white sail with its index, AP badge; red cross when damaged."""
    # 12 px inside the glyph: a ship drawn at 0.92 scale (four on a square) still reads at 11.
    parts = [el("use", href=f"#a15-ship{seat}"), _t(0, -1, index, "m b", font_size=12)]
    if damaged:
        parts.append(el("path", d="M-11-11l22 22M11-11l-22 22", stroke=DANGER, stroke_width=3,
                        stroke_linecap="round"))
    elif with_ap:
        parts.append(el("circle", cx=12, cy=-10, r=7, fill=AP_BADGE if ap else "#cfcfcf", class_="ch"))
        parts.append(_t(12, -6, ap, "m b", font_size=12))
    return "".join(parts)


def _ship_spots(n, s):
    """Centres and scale of ``n`` ships on a square of side ``s``.

    A ship with its AP badge is about 32 wide and 28 tall at scale 1: one
    sits large in the middle, two go corner to corner (side by side they
    would have to shrink), more share a grid of cells.
    """
    if n == 1:
        return [(s / 2, s / 2 + 1)], min(1.6, s / 38)
    if n == 2:
        return [(s * 0.3, s * 0.32), (s * 0.66, s * 0.72)], s / 56
    cols = 2 if n <= 4 else 3
    rows = (n + cols - 1) // cols
    cell_w, cell_h = s / cols, s / rows
    spots = [(cell_w * (i % cols) + cell_w / 2 - 2, cell_h * (i // cols) + cell_h / 2 + 2) for i in range(n)]
    return spots, min(1.5, cell_w / 30, cell_h / 30)


def _ships_on_square(ships, s):
    """Ships sharing a square, each a clickable ``data-ship`` group."""
    spots, scale = _ship_spots(len(ships), s)
    scale = round(scale, 2)
    out = []
    for (seat, index, ship, damaged, name), (cx, cy) in zip(ships, spots):
        cx, cy = round(cx, 1), round(cy, 1)
        state = "damaged, cannot sail" if damaged else f"{ship['ap']} AP left"
        out.append(el("g", title(f"{name}'s ship {index}, {state}"),
                      _ship_glyph(seat, index, ship["ap"], damaged),
                      transform=f"translate({cx:g},{cy:g}) scale({scale:g})", data_ship=ref(seat, index)))
    return "".join(out)


def _highlight(s, colour, label=None, dash=None):
    ring = el("rect", x=2, y=2, width=s - 4, height=s - 4, rx=6, fill="none", stroke=colour, stroke_width=4,
              stroke_dasharray=dash)
    if label:
        # At the bottom edge: the tile or ship in the middle stays visible.
        ring += _t(s / 2, s - 5, label, "m b", stroke=WHITE, stroke_width=3, paint_order="stroke")
    return ring


def _damaged(player):
    aristocrat = player.get("aristocrat")
    return aristocrat["damaged"] if aristocrat else (False, False)


def _square_marks(view, s):
    """Outlines on the squares the match is about: choice options, discovery, battle."""
    marks = {}
    choice = view.get("choice")
    if choice and choice.get("kind") in ("reserve_placement", "pirate_sea_placement"):
        for option in choice.get("options", []):
            marks[tuple(option)] = (_highlight(s, HIGHLIGHT, dash="7 4"), "; may receive the reserve tile")
    discovery = view.get("discovery")
    if discovery:
        marks[tuple(discovery["space"])] = (_highlight(s, HIGHLIGHT), "; being discovered")
    combat = (view.get("expansion") or {}).get("combat")
    if combat:
        at = combat.get("space")
        if at is None and combat.get("seat") is not None:
            at = view["players"][combat["seat"]]["ships"][combat["ship"]]["at"]
        if at is not None:
            marks[tuple(at)] = (_highlight(s, DANGER, "battle"), "; sea battle here")
    return marks


def _board(view, names, expansion):
    lay, squares, frame = _static_board(expansion, view["num_players"])
    s = lay.square
    spaces = {tuple(sp["space"]): sp for sp in view["spaces"]}
    ships = {}
    for player in view["players"]:
        seat = player["seat"]
        damaged = _damaged(player)
        for index, ship in enumerate(player["ships"]):
            if ship["at"] is not None:
                ships.setdefault(tuple(ship["at"]), []).append(
                    (seat, index, ship, bool(damaged[index]), names[seat]))
    marks = _square_marks(view, s)
    out = [frame]
    for sq, kind, head, body, bare in squares:
        mark, note = marks.get(sq, ("", ""))
        if bare and not mark and sq not in ships:
            out.append(bare)
            continue
        out.append(head)
        if kind == "port":
            out += [title(f"Port {ref(*sq)}: new ships may start beside it{note}"), body, _port(s)]
        elif kind == "space":
            content, label = ("", f"Island space {ref(*sq)}")
            if sq in spaces:
                content, label = _space_content(spaces[sq], s, names)
            out += [title(label + note), body, content]
        else:
            out.append(body)
        out.append(mark)
        if sq in ships:
            out.append(_ships_on_square(ships[sq], s))
        out.append("</g>")
    return "".join(out), lay


# --- header ---------------------------------------------------------------------------


def _option_text(option):
    if isinstance(option, dict):
        if option.get("tile") == "branch_office":
            return f"branch office on bridge {option.get('bridge')}"
        return " ".join(str(v).replace("_", " ") for v in option.values())
    if isinstance(option, (list, tuple)):
        return ref(*option)
    return str(option).replace("_", " ")


def _name_run(names, seat, bold=True):
    if seat is None or not 0 <= seat < len(names):
        return ("nobody", MUTED, False)
    return (_clip(names[seat], 18), seat_colour(seat), bold)


# Runs of spaces collapse in SVG text: words are kept apart by a dot.
SEP = "  ·  "


def _fit(runs, size, width):
    """The runs cut (with an ellipsis) where they would pass ``width`` units."""
    out, used = [], 0.0
    for content, fill, bold in runs:
        per_char = size * (0.66 if bold else 0.6)
        room = int((width - used) / per_char)
        if len(content) > room:
            out.append((_clip(content, max(room, 1)), fill, bold))
            break
        out.append((content, fill, bold))
        used += len(content) * per_char
    return out


def _runs_width(runs, size):
    return sum(len(content) * size * (0.66 if bold else 0.6) for content, _, bold in runs)


def _header(view, names, viewer):
    """Line 1: turn, phase, roll (and a battle, or who is looking, on the right); line 2: the status."""
    roll = view.get("last_roll") or {}
    line = [("Anno 1503", INK, True), (f"{SEP}Turn {view.get('turn')}", INK, False),
            (f"{SEP}Phase: {PHASES.get(view['phase'], view['phase'])}", INK, False)]
    if roll.get("production") is not None:
        line.append((f"{SEP}Roll: {roll['production']}", INK, False))
        event = roll.get("event")
        if event is not None:
            what = str(EVENTS.get(event, event)).replace("_", " ")
            line.append((f" → event {event}: {what}", DANGER, True))
    full = WIDTH - 2 * MARGIN
    left = _runs_width(line, 18)
    status = _status_runs(view, names)
    combat = (view.get("expansion") or {}).get("combat")
    if combat:
        right = _combat_runs(combat, names)
    elif viewer is not None and 0 <= viewer < len(names):
        right = [("You: ", MUTED, False), _name_run(names, viewer)]
    else:
        right = [("Spectator view", MUTED, False)]
    return (spans(MARGIN, 30, line, "f18")
            + spans(WIDTH - MARGIN, 30, _fit(right, 14, full - left - 24), "f14 e")
            + group(title("".join(content for content, _, _ in status)),
                    spans(MARGIN, 58, _fit(status, 14, full), "f14")))


def _status_runs(view, names):
    """Line 2: the winner, else who is to act and on what, a discovery, the queue."""
    if view.get("winner") is not None:
        return [("Winner: ", INK, True), _name_run(names, view["winner"]),
                (" - the match is over", MUTED, False)]
    runs = [("Active: ", MUTED, False), _name_run(names, view.get("active")),
            (f"{SEP}To act: ", MUTED, False)]
    to_act = view.get("to_act") or []
    for i, seat in enumerate(to_act):
        runs += [(", " if i else "", INK, False), _name_run(names, seat)]
    if not to_act:
        runs.append(("nobody", MUTED, False))
    choice = view.get("choice")
    if choice:
        what = CHOICES.get(choice["kind"], choice["kind"].replace("_", " "))
        options = " / ".join(_option_text(o) for o in choice.get("options", []))
        if choice.get("branch"):
            options += f" (branch office: {choice['branch']})"
        runs.append((f" - {what}: {options}", INK, False))
    discovery = view.get("discovery")
    if discovery:
        runs += [(f"{SEP}Discovering ", MUTED, False), (ref(*discovery["space"]), INK, True),
                 (f" with ship {discovery['ship']}", MUTED, False)]
        if discovery.get("tile"):
            runs.append((f": {_tile_words(discovery['tile'])[1]}", INK, True))
    if view.get("queue"):
        runs.append((f"{SEP}Still to resolve: ", MUTED, False))
        for i, seat in enumerate(view["queue"]):
            runs += [(", " if i else "", INK, False), _name_run(names, seat, bold=False)]
    return runs


def _combat_runs(combat, names):
    runs = [("Battle: ", DANGER, True), _name_run(names, combat.get("seat")),
            (f"'s ship {combat.get('ship')} vs ", INK, False)]
    if combat.get("kind") == "lair":
        tile = combat.get("tile") or {}
        runs.append((f"a lair (strength {tile.get('strength', combat.get('strength'))})", INK, True))
    elif (combat.get("card") or {}).get("kind") == "peaceful":
        runs.append(("peaceful pirates", INK, True))
    elif combat.get("pirate") is not None:
        runs += [("pirate ", INK, False), _name_run(names, combat["pirate"]),
                 (f" (strength {combat.get('strength')})", INK, False)]
    elif combat.get("strength") is not None:
        runs.append((f"pirates as strong ({combat.get('strength')})", INK, True))
    else:
        runs.append(("pirates", INK, True))
    return runs


# --- supply --------------------------------------------------------------------------


def _commodity_chip(x, y, name, count):
    fill, ink = COMMODITY_COLOURS.get(name, (WHITE, INK))
    return _chip(x, y, f"{name} {count}", fill, "ch", "m w" if ink == WHITE else "m")


def _counts(items, names=None):
    return ", ".join(f"{(names or {}).get(k, k.replace('_', ' '))} {v}" for k, v in items)


def _supply(view, lay):
    y = lay.supply_y
    # One title per row: the chips' own text already says what they hold.
    row = [title(f"Supply: {_counts(view['stacks'].items())} cards"), _t(MARGIN, y + 13, "Supply", "b f13")]
    x = MARGIN + 84
    for name, count in view["stacks"].items():
        chip, w = _commodity_chip(x, y, name, count)
        row.append(chip)
        x += w + 6
    parts = [group(*row)]
    parts.append(_t(x + 14, y + 13, f"Reserve: {view['reserve_size']} tiles", "f13"))
    removed = view.get("removed") or []
    if removed:
        parts.append(group(title("Treasures used: " + ", ".join(_tile_words(t)[1] for t in removed)),
                           _t(x + 150, y + 13, f"Treasures used: {len(removed)}", "u f13")))
    y += 27
    row = [title(f"Public buildings in the supply: {_counts(view['buildings'].items())}"),
           _t(MARGIN, y + 13, "Buildings", "b f13")]
    x = MARGIN + 84
    for name, count in view["buildings"].items():
        chip, w = _chip(x, y, f"{BUILDING_SHORT.get(name, name)} {count}", None, "bld" if count else "goal",
                        "m" if count else "m u")
        row.append(chip)
        x += w + 6
    parts.append(group(*row))
    x_view = view.get("expansion")
    if x_view:
        y += 27
        row = [_t(MARGIN, y + 13, "Expansion", "b f13")]
        x = MARGIN + 84
        piles = (("Pirate deck", x_view["pirate_deck_size"]),
                 ("Pirate discard", len(x_view.get("pirate_discard") or [])),
                 ("Aristocrat deck", x_view["aristocrat_deck_size"]),
                 ("Aristocrat discard", x_view["aristocrat_discard_size"]),
                 ("Luxury reserve", x_view["expansion_reserve_size"]))
        for label, count in piles:
            chip, w = _chip(x, y, f"{label} {count}", "#e6edf5", "ch")
            row.append(chip)
            x += w + 6
        parts.append(group(title(f"Piles: {_counts(piles)}"), *row))
        supply = x_view["aristocrat_buildings"]
        row = [title(f"Aristocrat buildings in the supply: {_counts(supply.items())}")]
        x += 8
        for name, count in supply.items():
            chip, w = _chip(x, y, f"{ARISTO_SHORT.get(name, name)} {count}", None, "ab" if count else "goal",
                            "m" if count else "m u")
            row.append(chip)
            x += w + 5
        parts.append(group(*row))
    return "".join(parts)


# --- player panels --------------------------------------------------------------------

SLOT_W, SLOT_H, SLOT_STEP = 56, 48, 60
ISLAND_X, ISLAND_Y = 12, 70
ISLAND_W = 7 * SLOT_STEP + 12
BRIDGE_STEP = 84


def _slots(player, seat):
    parts = []
    for i, kind in enumerate(player["slots"]):
        slot = i + 1
        x = ISLAND_X + 10 + i * SLOT_STEP
        edge = RED_SLOT if slot <= 2 else GREEN_SLOT
        fire = " (red slot: safe from fire)" if slot <= 2 else ""
        look = f"#a15-{kind if kind in KIND_COLOURS else 'empty'}-{'r' if slot <= 2 else 'g'}"
        parts.append(el("use", title(f"Slot {slot}: {kind or 'empty'}{fire}"), href=look,
                        x=x, y=ISLAND_Y + 18, data_slot=ref(seat, slot)))

    numbers = "".join(el("tspan", str(slot), x=ISLAND_X + 10 + (slot - 1) * SLOT_STEP + SLOT_W // 2,
                         fill=RED_SLOT if slot <= 2 else GREEN_SLOT) for slot in range(1, 8))
    parts.append(el("text", numbers, y=ISLAND_Y + 13, class_="m b"))
    # Public buildings sit under slots 4..7.
    y = ISLAND_Y + 18 + SLOT_H + 5
    for j, building in enumerate(player["buildings"]):
        x = ISLAND_X + 10 + (3 + j) * SLOT_STEP
        if building:
            label = f"Public building under slot {4 + j}: {building.replace('_', ' ')}"
            parts.append(place(x, y, title(label),
                               el("rect", width=SLOT_W, height=22, rx=4, class_="bld"),
                               _t(SLOT_W / 2, 15, BUILDING_SHORT.get(building, building), "m")))
        else:
            parts.append(el("rect", title(f"Building site under slot {4 + j}: free"), x=x, y=y,
                            width=SLOT_W, height=22, rx=4, class_="site"))
    return "".join(parts)


def _bridges(player, seat, expansion):
    """The production table: per die number the home commodity, and its bridge below."""
    island = player["island"]
    gray = set(island["gray_bridges"])
    y = ISLAND_Y + 18 + SLOT_H + 34
    production = island["production"]
    table = [title("Production by die number: " + ", ".join(
        f"{n} {'any commodity' if production[str(n)] == '?' else production[str(n)]}" for n in range(1, 6))),
        _t(ISLAND_X + 10, y - 5, "Production (die) and bridges", "u")]
    for n in range(1, 6):
        x = ISLAND_X + 10 + (n - 1) * BRIDGE_STEP
        home = production[str(n)]
        fill, ink = COMMODITY_COLOURS.get(home, (WHITE, INK))
        table += [_t(x + 9, y + 15, n, "m b f14"),
                  el("rect", x=x + 24, y=y, width=54, height=20, rx=4, fill=fill, class_="ch"),
                  _t(x + 51, y + 14, "any" if home == "?" else home, "m w" if ink == WHITE else "m")]
    parts = [group(*table)]
    for n in range(1, 6):
        x = ISLAND_X + 10 + (n - 1) * BRIDGE_STEP
        office = player["branch_offices"].get(str(n))
        parts.append(_bridge(seat, n, office, n in gray, expansion, x, y + 24))
    return "".join(parts)


def _bridge(seat, n, office, is_gray, expansion, x, y):
    """Bridge ``n`` of the home island: its office, or a free gray bridge, or none."""
    target = ref(seat, n)
    if office:
        fill, ink = _tile_colours(office)
        return place(x, y, title(f"Bridge {n}: {_tile_words(office)[1]}"),
                     el("rect", width=78, height=24, rx=4, fill=fill, class_="tl"),
                     el("use", href="#a15-bo", fill=WHITE if ink == WHITE else INK),
                     _t(45, 16, office.get("commodity", ""), "m b w" if ink == WHITE else "m b"),
                     data_bridge=target)
    if is_gray:
        return el("use", title(f"Bridge {n}: gray bridge, free"), href="#a15-gray", x=x, y=y, data_bridge=target)
    # The any-commodity number has no gray bridge; with the expansion a luxury office may go there.
    if expansion:
        return el("use", title(f"Bridge {n}: free for a luxury office"), href="#a15-lux", x=x, y=y,
                  data_bridge=target)
    return el("use", title(f"Bridge {n}: none on the any-commodity number"), href="#a15-nob", x=x, y=y,
              data_bridge=target)


def _goal_row(player, x, y):
    goals = player["goals"]
    held = [GOAL_LABELS.get(g, g) for g, done in goals.items() if done]
    parts = [title(f"Goals held: {', '.join(held) or 'none'} ({len(held)} victory points)"),
             _t(x, y + 13, "Goals", "u")]
    x += 38
    for goal, done in goals.items():
        label = ("★ " if done else "") + GOAL_LABELS.get(goal, goal.replace("_", " "))
        chip, w = _chip(x, y, label, None, "held" if done else "goal", "m b" if done else "m u")
        parts.append(chip)
        x += w + 5
    return group(*parts)


def _warehouse(player, seat, x, y):
    """The own hand in full (clickable cards); another seat's only as a count."""
    parts = [_t(x, y, "Warehouse", "b f13")]
    hand = player.get("hand")
    if hand is not None:
        parts.append(_t(x + 190, y, f"{sum(hand.values())} cards", "e u"))
        for i, (name, count) in enumerate(hand.items()):
            fill, ink = COMMODITY_COLOURS.get(name, (WHITE, INK))
            parts.append(place(
                x + (i % 3) * 64, y + 8 + (i // 3) * 27,
                title(f"{name}: {count} card{'' if count == 1 else 's'}"),
                # None held: an outline in the commodity's colour, so the name stays legible.
                el("rect", width=62, height=23, rx=4, fill=fill, class_="tl") if count else
                el("rect", width=62, height=23, rx=4, fill=WHITE, stroke=fill, stroke_width=2),
                _t(31, 16, f"{name} {count}", ("m w" if ink == WHITE else "m") if count else "m u"),
                data_commodity=ref(seat, name),
            ))
    else:
        size = player.get("hand_size", 0)
        cards = "".join(el("use", href="#a15-card", x=i * 6, y=8 - i * 2) for i in range(min(size, 5)))
        parts.append(place(x, y + 4, title(f"{size} cards in the warehouse (hidden)"), cards,
                           _t(66, 34, f"{size} card{'' if size == 1 else 's'}", "b f14")))
    return "".join(parts)


def _stock_and_turn(player, seat, name, x, y):
    """Trade agreements, ships in stock and this turn's purchases, under the warehouse."""
    agreements = player["trade_agreements"]
    parts = [_t(x, y, f"Trade agreements {len(agreements)}/3", "u")]
    parts.append(_track(len(agreements), 3, lambda i: f"M{x + 134 + i * 20} {y - 11}h16v14h-16z",
                        TILE_COLOURS["trade_agreement"][0], "#b8962e"))
    y += 24
    parts.append(_t(x, y, "Ships in stock", "u"))
    stock = [i for i, ship in enumerate(player["ships"]) if ship["at"] is None]
    for k, index in enumerate(stock):
        parts.append(el("g", title(f"{name}'s ship {index}, in stock"),
                        _ship_glyph(seat, index, 0, False, with_ap=False),
                        transform=f"translate({x + 104 + k * 34},{y - 3})", data_ship=ref(seat, index)))
    if not stock:
        parts.append(_t(x + 96, y, "none", "u"))
    turn = player.get("turn") or {}
    if "buys" in turn:
        parts.append(_t(x, y + 24, f"Bought this turn: {turn['buys']}/2", "u"))
    return "".join(parts)


def _track(filled, total, cell, fill, stroke):
    """A row of ``total`` cells, the first ``filled`` coloured: two paths, whatever the count."""
    full = "".join(cell(i) for i in range(min(filled, total)))
    empty = "".join(cell(i) for i in range(min(filled, total), total))
    return ((el("path", d=full, fill=fill, stroke=stroke) if full else "")
            + (el("path", d=empty, fill=WHITE, stroke=stroke) if empty else ""))


def _aristocrat(player, x, y, width):
    """The expansion's aristocrat island: manor, cannons, buildings, lairs, cards."""
    a = player["aristocrat"]
    parts = [el("rect", x=x, y=y, width=width, height=94, rx=8, fill="#f4eefa", stroke="#b59cc7"),
             _t(x + 10, y + 20, "Aristocrat island", "b f13")]
    mx = x + 140
    manor = _track(a["manor"], 9, lambda i: f"M{58 + i * 15} -11h12v14h-12z", ARISTO, ARISTO)
    parts.append(place(mx, y + 20, title(f"Manor: step {a['manor']} of 9"), _t(0, 0, f"Manor {a['manor']}/9"),
                       manor))
    cannons = _track(a["cannons"], 6, lambda i: f"M{135 + i * 13} -4a5 5 0 1 0 10 0a5 5 0 1 0-10 0", INK, INK)
    parts.append(place(mx + 210, y + 20, title(f"{a['cannons']} cannons, strength {a['cannon_strength']}"),
                       _t(0, 0, f"Cannons {a['cannons']} (strength {a['cannon_strength']})"), cannons))
    # Three building sites; the third (the skull) needs a defeated lair.
    row = y + 40
    parts.append(_t(x + 10, row + 13, "Buildings", "u"))
    buildings = a["buildings"]
    for i in range(3):
        if i < len(buildings):
            name = buildings[i]
            body = (el("rect", width=74, height=20, rx=4, class_="ab")
                    + _t(37, 14, ARISTO_SHORT.get(name, name), "m"))
            label = f"Aristocrat building: {name.replace('_', ' ')}"
        else:
            body = (el("rect", width=74, height=20, rx=4, class_="asite")
                    + _t(37, 14, "skull site" if i == 2 else "free site", "m u"))
            label = f"Aristocrat site {i + 1}{' (needs a defeated lair)' if i == 2 else ''}: free"
        parts.append(place(x + 70 + i * 80, row, title(label), body))
    lx = x + 322
    parts.append(_t(lx, row + 13, "Lairs", "u"))
    for i, lair in enumerate(a["lairs"]):
        chip, _ = _chip(lx + 36 + i * 56, row + 1, f"str {lair.get('strength')}", TILE_COLOURS["lair"][0],
                        None, "m w", f"Defeated lair: {_tile_words(lair)[1]}")
        parts.append(chip)
    if not a["lairs"]:
        parts.append(_t(lx + 36, row + 13, "none", "u"))
    kx, row = x + 10, row + 26
    parts.append(_t(kx, row + 13, "Cards", "u"))
    cards = a.get("cards")
    if cards is not None:
        words = ", ".join(c.replace("_", " ") for c in cards) if cards else "none"
        parts.append(group(title(f"Your aristocrat cards: {words}"),
                           _t(kx + 60, row + 13, _clip(words, 80), "b")))
    else:
        count = a.get("cards_count", 0)
        parts.append(group(title(f"{count} aristocrat cards (hidden)"),
                           _t(kx + 60, row + 13, f"{count} (hidden)")))
    return "".join(parts)


def _panel_status(view, seat):
    status = []
    if seat in (view.get("to_act") or []):
        status.append("to act")
    if seat == view.get("active"):
        status.append("active")
    if seat == view.get("winner"):
        status.append("winner")
    return " · ".join(status)


def _panel(player, view, names, viewer, index, lay):
    seat = player["seat"]
    name = names[seat]
    colour = seat_colour(seat)
    x, y = lay.panel_xy(index)
    you = seat == viewer
    head = _clip(name, 24) + (" (you)" if you else "")
    info = f"Island {player['island']['id']} · {player['gold']} gold · {player['victory_points']} VP"
    parts = [
        title(f"{name}'s home island: seat {seat} ({SEAT_COLOUR_NAMES[seat % len(SEAT_COLOUR_NAMES)]}), "
              f"{player['gold']} gold, {player['victory_points']} victory points" + (", you" if you else "")),
        el("rect", width=PANEL_W, height=lay.panel_h, rx=10, fill="#fffdf8", stroke=colour,
           stroke_width=3 if you else 2),
        el("path", d=f"M0 34V10a10 10 0 0 1 10-10H{PANEL_W - 10}a10 10 0 0 1 10 10V34z", fill=colour),
        _t(14, 23, head, "b w f16"),
        _t(PANEL_W - 14, 23, info, "e b w f14"),
    ]
    status = _panel_status(view, seat)
    if status:
        sx = round(14 + _text_width(head, 16) + 12)
        pill = round(_text_width(status) + 16)
        parts.append(el("rect", x=sx, y=8, width=pill, height=18, rx=9, fill=WHITE))
        parts.append(_t(sx + 8, 21, status, "b"))
    parts.append(_goal_row(player, 12, 42))
    parts.append(el("rect", x=ISLAND_X, y=ISLAND_Y, width=ISLAND_W, height=168, rx=14, fill="#eef3df",
                    stroke="#a9c07d"))
    parts.append(_slots(player, seat))
    parts.append(_bridges(player, seat, lay.expansion))
    side_x = ISLAND_X + ISLAND_W + 14
    parts.append(_warehouse(player, seat, side_x, ISLAND_Y + 12))
    parts.append(_stock_and_turn(player, seat, name, side_x, ISLAND_Y + 112))
    if lay.expansion and player.get("aristocrat"):
        parts.append(_aristocrat(player, 12, ISLAND_Y + 178, PANEL_W - 24))
        damaged = [str(i) for i, d in enumerate(player["aristocrat"]["damaged"]) if d]
        if damaged:
            parts.append(_t(side_x, ISLAND_Y + 166, f"Damaged ship {', '.join(damaged)}", "b", fill=DANGER))
    return place(x, y, *parts, data_seat=seat, class_="panel")


# --- legend -----------------------------------------------------------------------------


def _swatch(fill=None, cls=None, label=None):
    out = el("rect", width=14, height=14, y=-11, rx=2, fill=fill, class_=cls or "ch")
    if label is not None:
        out += _t(7, 0, label, "m b w")
    return out


@lru_cache(maxsize=2)
def _legend_rows(expansion):
    rows = [
        (_swatch(SEA_FILL), "Sea square"),
        (_swatch(START_FILL), "Start square (new ships)"),
        (_swatch(cls="sand"), "Island space (no tile)"),
        (_swatch(cls="back", label="2"), "Face-down tile: back number"),
        (_swatch(COMMODITY_COLOURS["spice"][0]), "Branch office (its commodity)"),
        (_swatch(TILE_COLOURS["trade_agreement"][0]), "Trade agreement"),
        (_swatch(TILE_COLOURS["treasure_gold"][0]), "Treasure (gold or upgrade)"),
        (el("circle", cx=7, cy=-4, r=7, fill=AP_BADGE, class_="ch") + _t(7, 0, "3", "m b"), "Ship: AP left"),
        (el("circle", cx=7, cy=-4, r=3.5, fill=MUTED), "Dot: who looked at a tile"),
    ]
    if expansion:
        rows += [
            (_swatch(PIRATE_SQUARE_FILL), "Pirate square"),
            (_swatch(cls="cback", label="3"), "Pirate-sea tile (back)"),
            (_swatch(COMMODITY_COLOURS["silk"][0]), "Luxury office"),
            (_swatch(TILE_COLOURS["lair"][0]), "Pirate lair"),
            (el("path", d="M1-10l12 12M13-10l-12 12", stroke=DANGER, stroke_width=3), "Damaged ship"),
        ]
    return tuple(rows)


# --- the document -----------------------------------------------------------------------


def _who(names, viewer):
    if viewer is None:
        return "a spectator"
    if 0 <= viewer < len(names):
        return f"{names[viewer]} (seat {viewer})"
    return f"seat {viewer}"


def render(view, viewer=None):
    """The SVG document of an Anno 1503 ``view`` as seen by ``viewer`` (a seat, or None)."""
    names = _names(view)
    expansion = view["options"].get("expansion") == EXPANSION
    board, lay = _board(view, names, expansion)
    phase = PHASES.get(view["phase"], view["phase"])
    description = (f"Anno 1503 board, {view['num_players']} players"
                   f"{' with Pirates & Aristocrats' if expansion else ''}, turn {view.get('turn')}, "
                   f"phase {phase}, seen by {_who(names, viewer)}.")
    body = group(
        _header(view, names, viewer),
        group(board, class_="board"),
        legend(lay.legend_x, lay.board_y + 14,
               [{"seat": p["seat"], "name": _clip(names[p["seat"]], lay.legend_name_chars)}
                for p in view["players"]],
               viewer, _legend_rows(expansion)),
        group(_supply(view, lay), class_="supply"),
        *(_panel(p, view, names, viewer, i, lay) for i, p in enumerate(view["players"])),
        font_size=11, fill=INK,
    )
    svg = document(WIDTH, lay.height, f"Anno 1503, turn {view.get('turn')}", description, body)
    # The click contract rides on the root, and ``a15`` scopes the style sheet.
    root = f'class="tabula-board a15" data-click-targets=\'{_CLICK_JSON}\''
    return svg.replace('class="tabula-board"', root, 1)
