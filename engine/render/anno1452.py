"""The board picture of an Anno 1452 match, drawn from one viewer's view.

``render(view, viewer)`` reads only ``game.view(state, viewer)``, so the
picture is redacted exactly as the view is: the viewer's own hand as cards,
other seats' hands as counts, a trade offer's content only when the view
holds it (its two parties), a draft only for its author.

What is drawn:

* a header: the year, the action round or phase, the options, and the time
  table's 14 rows (coronations crowned, the current row dark, the final year
  framed);
* a schematic parchment map of the Empire's 16 regions. The rules data has no
  geometry: the polygons and name positions live in
  ``data/anno1452_layout.json``. Regions that border each other (``map.json``)
  share an edge, drawn as a dashed border line (a test holds the two
  together). Each region shows its name (on a banner in the holder's colour,
  and a tint, when it is a Principality), its City towers (built filled, of
  those allowed) and one slot per Estate its shield allows: a house in the
  owner's colour with its Citizens (a castle when it has a City, dots when its
  strength is below 3), or a dashed outline when free. Ottokar's pieces are
  neutral grey. A battle is a red arrow from the attacking Estate to its
  target (a ring when the crown's Soldiers attack alone);
* "The Empire", a cartouche in the map's sea: King and Anti-King with their
  Soldiers, Interregnum, the turn order (and the next one while it is being
  chosen), deck and discard pile, Landfrieden and pacts;
* "Now": whose decision it is and what, the battle, the trade, the Special
  Actions of the evaluation round, the result;
* a panel per player: gold, prestige, victory points, Estates, Citizens,
  Cities, Principalities, Titles, marriage, hand size, badges (you, to act,
  King, turn order...); the viewer's own hand and the two-player open cards
  as readable cards under the map; a legend.

Clickable things carry ``data-`` attributes whose values are action
parameter values (a list joined with ",", else ``str``), so a client can hang
legal actions on them without knowing the geometry:

* ``data-region="Franken"``: each region (``place_estate`` and
  ``build_estate`` ``region``, ``play_special`` ``region``);
* ``data-estate="4,1"``: each Estate slot, drawn even when empty (region
  index, slot: ``settle`` ``at``/``at2``/``at3``, ``attack`` ``target``/``from``,
  ``build_city`` ``at``, ``play_special`` ``target``/``from``,
  ``draft_add``/``draft_remove`` ``estate``);
* ``data-card="57"``: each face-up card of the viewer's hand and the open
  cards (``marry``, ``inherit``, ``discard``, ``take_title``, ``react``...);
* ``data-open-card="2"``: each open card (``swap_open`` ``open_card``);
* ``data-seat="1"``: each player panel (``draft_offer`` ``to``, ``kindbett``
  ``target``; the legend rows carry it too);
* ``data-position="2"``: each place of the next turn order while it is being
  chosen (``choose_position``).

``CLICK_TARGETS`` lists, per action type, ``[param, attribute, own]`` in order
of preference: the first param present in an action names the element the
client hangs it on (``own`` is never needed here: no value is per seat). It
is also on the root ``<svg>`` as ``data-click-targets`` (compact JSON).
Actions without a place (pass, keep_hand, commit_soldiers, ...) are left to
buttons.
"""

import json
import math
from functools import lru_cache
from html import escape
from pathlib import Path

from ..games.anno1452.data import CARDS, MAX_ESTATES, OTTOKAR_ID, REGION_NAMES, ROWS
from .svg import INK, SEAT_COLOUR_NAMES, document, el, group, legend, place, ref, seat_colour, text, title

CLICK_TARGETS = {
    "place_estate": [["region", "region", False]],
    "build_estate": [["region", "region", False]],
    "settle": [["at", "estate", False], ["at2", "estate", False], ["at3", "estate", False]],
    "attack": [["target", "estate", False], ["from", "estate", False]],
    "build_city": [["at", "estate", False], ["card", "card", False]],
    "marry": [["card", "card", False], ["discard", "card", False]],
    "take_title": [["card", "card", False]],
    "inherit": [["card", "card", False]],
    # One action per target seat: the panels tell them apart, the card does not.
    "kindbett": [["target", "seat", False], ["card", "card", False]],
    "play_special": [["target", "estate", False], ["from", "estate", False],
                     ["region", "region", False], ["card", "card", False]],
    "react": [["card", "card", False]],
    "discard": [["card", "card", False]],
    "swap_open": [["card", "card", False], ["open_card", "open-card", False]],
    "draft_offer": [["to", "seat", False]],
    "draft_add": [["estate", "estate", False], ["card", "card", False]],
    "draft_remove": [["estate", "estate", False], ["card", "card", False]],
    "choose_position": [["position", "position", False]],
}
_CLICK_TARGETS_JSON = json.dumps(CLICK_TARGETS, separators=(",", ":"))

# --- page geometry ------------------------------------------------------------------

WIDTH = 1340
MARGIN = 12
MAP_X, MAP_Y = MARGIN, 104
RIGHT_X = 848
RIGHT_W = WIDTH - RIGHT_X - MARGIN
CARD_W, CARD_H, CARD_GAP = 154, 148, 12
SLOT_W, SLOT_H, SLOT_PITCH_X, SLOT_PITCH_Y = 30, 32, 36, 42
LINE = 17

# --- palette: a parchment map inked in browns ------------------------------------------

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
SERIF = "Georgia, 'DejaVu Serif', 'Times New Roman', serif"
CARD_KINDS = {  # kind -> (label, colour of the card's band)
    "marriage": ("Marriage", "#a23b5f"), "title": ("Title", "#6b4aa0"),
    "inheritance": ("Inheritance", "#2f7d4f"), "special": ("Special Action", "#1f5f99"),
    "reaction": ("Reaction", "#a5452a"), "event": ("Event", "#5f5f5f"),
}
# Short card texts after DESIGN.md (the card data holds effect keys, not texts).
EFFECT_TEXTS = {
    "sondersteuer": "1 gold per own Citizen (ER: before income).",
    "messe": "2 gold per own City (ER: before income).",
    "soeldner": "Attack with 3 extra Soldiers.",
    "reichstag": "+2 prestige (ER: prestige phase).",
    "ablass": "Buy 1-2 prestige at 5 gold each.",
    "pest": "All Citizens in one region die.",
    "landfrieden": "Own Estates safe until the ER; ER: choose a turn-order place.",
    "bestechung": "ER: pay 10 gold to sway the King's election.",
    "stadtrecht": "A City on an own Estate for 2 gold.",
    "turnier": "+1 prestige; the others may pay 3 gold for +1.",
    "fehde": "Attack without losing prestige.",
    "steuerpacht": "Each other player pays you 2 gold.",
    "verstaerkung": "Battle: 2 extra dice, hits on 5-6.",
    "bogenschuetzen": "Battle: your Citizens hit on 4-6.",
    "befestigung": "Defender: dice of 1 or 2 cancel hits.",
    "hinterhalt": "Defender: strike first.",
    "verrat": "The enemy loses 2 Citizens (or 1 strength).",
    "waffenstillstand": "Defender: the attack is called off.",
    "kindbett": "Ends any player's marriage (not the turn's action).",
    "interregnum": "No coronation this epoch.",
    "gegenkoenig": "An Anti-King is elected.",
    "mischen": "The discards are shuffled into the deck.",
}
DECISION_TEXTS = {
    "place_initial": "place an initial Estate",
    "action_turn": "take the turn's action",
    "soldiers": "commit Soldiers to the battle",
    "reaction": "play a reaction card (or none)",
    "losses": "allocate the battle's losses",
    "tournament": "join the tournament (3 gold) or not",
    "discard": "discard cards or keep the hand",
    "er_special": "play a Special Action or pass",
    "open_swap": "swap a hand card for an open card",
    "trade": "draft an offer or end trading",
    "offer_reply": "accept or decline the offer",
    "position": "choose a place in the next turn order",
}
EFFECT_NAMES = {c["effect"]: c["name"] for c in CARDS if "effect" in c}
SCENARIOS = {"standard": "standard set-up", "ottokar_a": "Ottokar set-up A", "ottokar_b": "Ottokar set-up B"}


# --- helpers that know nothing of this game ------------------------------------------------

# Average character widths in em: generous, after DejaVu Sans (the widest fallback font).
CHAR_EM, BOLD_CHAR_EM = 0.58, 0.64


def _text_width(s, size, bold=False):
    """An estimate of a text's width, to fit and wrap without measuring."""
    return len(str(s)) * size * (BOLD_CHAR_EM if bold else CHAR_EM)


def _fit(s, width, size, bold=False):
    """``s`` cut with an ellipsis so that it fits ``width``."""
    s = str(s)
    if _text_width(s, size, bold) <= width:
        return s
    keep = max(1, int(width / (size * (BOLD_CHAR_EM if bold else CHAR_EM))) - 1)
    return s[:keep].rstrip() + "…"


def _wrap(s, width, size, bold=False, max_lines=3):
    """Greedy word wrap to ``width``; the last line ends in an ellipsis when cut.

    Only plain spaces break a line: a no-break space (U+00A0) keeps a count to its name.
    """
    lines, current = [], ""
    for word in filter(None, str(s).split(" ")):
        candidate = f"{current} {word}".strip()
        if current and _text_width(candidate, size, bold) > width:
            lines.append(current)
            current = word
        else:
            current = candidate
    if current:
        lines.append(current)
    if len(lines) > max_lines:
        lines = lines[:max_lines]
        lines[-1] = _fit(lines[-1] + " …", width, size, bold)
    return [_fit(line, width, size, bold) for line in lines]


@lru_cache(maxsize=None)
def ink_on(colour):
    """Black or white, whichever contrasts more with ``colour`` (WCAG luminance)."""
    lin = []
    for i in (1, 3, 5):
        c = int(colour[i:i + 2], 16) / 255
        lin.append(c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4)
    lum = 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]
    return INK if (lum + 0.05) / 0.05 >= 1.05 / (lum + 0.05) else "#ffffff"


@lru_cache(maxsize=None)
def _mix(colour, base, amount):
    """``colour`` washed over ``base``: a tint that keeps dark text readable."""
    a = [int(base[i:i + 2], 16) for i in (1, 3, 5)]
    b = [int(colour[i:i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(x + (y - x) * amount):02x}" for x, y in zip(a, b))


def with_click_targets(document_svg, click_json):
    """The root ``<svg>`` with ``data-click-targets`` (``svg.document`` takes no extra attributes).

    Single quotes around the value: compact JSON holds no single quote here.
    """
    return document_svg.replace("<svg ", f"<svg data-click-targets='{click_json}' ", 1)


def _rect(x, y, w, h, **values):
    return el("rect", x=x, y=y, width=w, height=h, **values)


def _bare_text(x, y, content, **values):
    """A ``<text>`` that inherits size, weight and colour from its group (fewer bytes)."""
    return el("text", escape(str(content), quote=False), x=x, y=y, **values)


# --- static geometry, computed once at import -----------------------------------------

def _load_layout():
    with open(Path(__file__).parent / "data" / "anno1452_layout.json", encoding="utf-8") as fh:
        return json.load(fh)


LAYOUT = _load_layout()
MAP_W, MAP_H = LAYOUT["size"]
REGION_LAYOUT = [LAYOUT["regions"][name] for name in REGION_NAMES]


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
HOUSE = "M0,11L15,0L30,11V32H0Z"
CASTLE = "M0,32V3h6v5h6v-5h6v5h6v-5h6V32Z"
TOWER = "M0,12V2h2.5v2h2v-2h2.5v2h2v-2h2.5V12Z"
# Shapes drawn many times are defined once and <use>d: the picture stays small.
DEFS = el("defs", el("path", id="a1452-house", d=HOUSE), el("path", id="a1452-castle", d=CASTLE),
          el("path", id="a1452-tower", d=TOWER))


def _use(shape, x=None, y=None, **values):
    return el("use", href=f"#a1452-{shape}", x=x, y=y, **values)


# --- names ----------------------------------------------------------------------------

def _player_name(view, seat):
    if seat == OTTOKAR_ID:
        return "Ottokar"
    if seat is None:
        return "nobody"
    return view["players"][seat].get("name") or f"Seat {seat}"


def _colour(owner):
    """A seat's colour; Ottokar (and nobody) is neutral grey."""
    return seat_colour(None if owner == OTTOKAR_ID else owner)


def _estate_name(at):
    r, s = at
    return f"{REGION_NAMES[r]} slot {s + 1}"


def _card_name(card):
    return CARDS[card]["name"]


def _seats_text(view, seats):
    return ", ".join(_player_name(view, s) for s in seats) or "nobody"


# --- header and the time table -----------------------------------------------------------

def _phase_text(view):
    phase = view["phase"]
    if phase == "setup":
        return "Set-up"
    if phase == "action":
        return f"Action round {view['action_round']}"
    if phase == "evaluation":
        return "Evaluation round"
    return "Game over"


def _header(view):
    options = view["options"]
    subtitle = (f"{options['rules'].capitalize()} rules · {SCENARIOS.get(options['scenario'], options['scenario'])}"
                f" · {view['num_players']} players · ends {view['final_year']}")
    return group(
        text(MARGIN + 4, 36, "Anno 1452", size=28, weight="bold", fill=SEPIA, font_family=SERIF),
        text(MARGIN + 196, 34, subtitle, size=13, fill=FAINT),
        text(WIDTH - MARGIN - 4, 36, f"{view['year']} · {_phase_text(view)}", size=22, weight="bold",
             anchor="end", fill=SEPIA, font_family=SERIF),
        _year_track(view),
    )


def _crown(x, y, fill):
    return el("path", d=f"M{x:g},{y + 8:g}l1-7 3.5,4 2.5-5 2.5,5 3.5-4 1,7Z", fill=fill)


def _year_track(view):
    """The time table: one cell per row; past rows faded, the current one dark."""
    w = (WIDTH - 2 * MARGIN) / len(ROWS)
    final = next((i for i, row in enumerate(ROWS) if row["year"] == view["final_year"]), len(ROWS) - 1)
    cells = []
    for i, row in enumerate(ROWS):
        current, past = i == view["row"], i < view["row"]
        fill = SEPIA if current else ("#e6d8b4" if past else PANEL)
        ink = "#ffffff" if current else (FAINT if past else SEPIA)
        label = (f"{row['year']}: {row['note']}" + (", a coronation" if row["coronation"] else "")
                 + (" - now" if current else "") + (" - the final evaluation" if i == final else ""))
        parts = [title(label),
                 _rect(0, 0, w - 4, 40, rx=5, fill=fill, stroke=COAST if i == final else BORDER,
                       stroke_width=2.5 if i == final else 1),
                 _bare_text(w / 2 - 2, 17, row["year"], font_size=14, font_weight="bold", fill=ink)]
        if i == final:
            parts.append(_bare_text(w / 2 - 2, 34, "final", font_size=11, font_weight="bold", fill=ink))
        elif row["coronation"]:
            parts.append(_crown(w / 2 - 9, 23, "#cdbf9a" if past else GOLD))
        elif row["kind"] != "final":
            parts.append(_bare_text(w / 2 - 2, 34, "interregnum", font_size=11, fill=ink))
        cells.append(place(MARGIN + i * w, 50, *parts))
    return group(*cells, text_anchor="middle", class_="year-track")


# --- the map ----------------------------------------------------------------------------

def _map(view):
    regions = view["regions"]
    free, taken = [], []
    for r, region in enumerate(regions):
        for s, estate in enumerate(region["slots"]):
            (free if estate is None else taken).append(_slot(view, r, s, estate))
    return place(
        MAP_X, MAP_Y,
        _rect(0, 0, MAP_W, MAP_H, rx=10, fill=PARCHMENT, stroke=COAST, stroke_width=2),
        _rect(5, 5, MAP_W - 10, MAP_H - 10, rx=7, fill="none", stroke=BORDER, stroke_width=0.8),
        _sea(),
        group(*(_region(view, r) for r in range(len(regions))), class_="regions"),
        el("path", d=BORDER_PATH, fill="none", stroke=BORDER, stroke_width=1.6, stroke_dasharray="6 4",
           stroke_linecap="round", pointer_events="none", class_="borders"),
        el("path", d=COAST_PATH, fill="none", stroke=COAST, stroke_width=2.4, stroke_linejoin="round",
           stroke_linecap="round", pointer_events="none", class_="coast"),
        # Free slots and Estates share their styles through their layer's attributes.
        group(*free, fill=LAND, stroke=BORDER, stroke_width=1.2, stroke_dasharray="3 2", class_="free"),
        group(*taken, stroke=INK, stroke_width=1.2, font_size=15, font_weight="bold", text_anchor="middle",
              class_="estates"),
        _battle_arrow(view),
        _cartouche(view),
        class_="map",
    )


@lru_cache(maxsize=1)
def _sea():
    style = dict(font_family=SERIF, font_style="italic", fill="#a48e63", pointer_events="none")
    return group(
        text(300, 19, "Mare Germanicum", size=13, anchor="middle", **style),
        text(745, 700, "Mare Adriaticum", size=13, anchor="middle", transform="rotate(62 745 700)", **style),
        text(100, 602, "Regnum Franciae", size=13, anchor="middle", **style),
        place(785, 612,
              el("path", d="M0,-22L6,0L0,22L-6,0Z", fill="#d8c79e", stroke=COAST, stroke_width=1),
              el("path", d="M0,-22L6,0H-6Z", fill=COAST),
              text(0, -27, "N", size=12, anchor="middle", weight="bold", fill=COAST, font_family=SERIF)),
    )


def _region(view, r):
    region = view["regions"][r]
    holder = region["principality"]
    built = sum(1 for e in region["slots"] if e is not None and e["city"])
    taken = sum(1 for e in region["slots"] if e is not None)
    lx, ly = REGION_LAYOUT[r]["label"]
    description = (f"{region['name']}: {taken} of {region['max_estates']} Estates, "
                   f"{built} of {region['max_cities']} Cities, "
                   + ("no Principality holder" if holder is None
                      else f"Principality of {_player_name(view, holder)}"))
    return group(
        title(description),
        el("polygon", points=POLYGON_POINTS[r], fill=LAND if holder is None else _mix(seat_colour(holder), LAND, 0.2)),
        _region_name(region["name"], holder, lx, ly),
        _towers(lx, ly + 5, built, region["max_cities"]),
        data_region=region["name"], class_="region",
    )


def _region_name(name, holder, x, y):
    """The region's name; on a banner in the holder's colour when it is a Principality."""
    if holder is None:
        return text(x, y, name, size=15, anchor="middle", weight="bold", fill=SEPIA, font_family=SERIF)
    colour = seat_colour(holder)
    w = _text_width(name, 15, bold=True) * 0.95 + 14
    return group(
        _rect(x - w / 2, y - 15.5, w, 19, rx=4, fill=colour, stroke=COAST, stroke_width=0.8),
        text(x, y, name, size=15, anchor="middle", weight="bold", fill=ink_on(colour), font_family=SERIF),
    )


def _towers(cx, y, built, allowed):
    """One small tower per City the region allows; built ones filled."""
    x0 = cx - (allowed * 16 - 4) / 2
    return group(*(_use("tower", x0 + i * 16, y, fill=SEPIA if i < built else "none") for i in range(allowed)),
                 stroke=SEPIA, stroke_width=1, pointer_events="none")


def _slot(view, r, s, estate):
    x, y = SLOTS[r][s]
    name = _estate_name((r, s))
    if estate is None:
        return place(x, y, title(f"{name}: free"), _use("house"), data_estate=ref(r, s))
    owner = estate["owner"]
    colour = _colour(owner)
    safe = owner in view["landfrieden"]
    label = (f"{name}: Estate of {_player_name(view, owner)}, {estate['citizens']} Citizens"
             + (", a City" if estate["city"] else "")
             + (f", strength {estate['strength']} of 3" if estate["strength"] < 3 else "")
             + (", safe under Landfrieden" if safe else ""))
    parts = [title(label), _use("castle" if estate["city"] else "house", fill=colour),
             _bare_text(15, 28, estate["citizens"], fill=ink_on(colour), stroke="none")]
    if estate["strength"] < 3:
        parts.extend(el("circle", cx=7 + 8 * i, cy=37, r=2.6, stroke_width=0.8,
                        fill=INK if i < estate["strength"] else "none") for i in range(3))
    if safe:
        parts.append(_rect(-3, -3, 36, 38, rx=4, fill="none", stroke=GOLD, stroke_width=2))
    return place(x, y, *parts, data_estate=ref(r, s))


def _slot_centre(at):
    x, y = SLOTS[at[0]][at[1]]
    return x + SLOT_W / 2, y + SLOT_H / 2 + 2


def _battle_arrow(view):
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
        parts.append(el("line", x1=fx + ux * 20, y1=fy + uy * 20, x2=ex, y2=ey, stroke=BATTLE, stroke_width=4,
                        stroke_linecap="round"))
        # The head: a triangle from the ring back along the line.
        px, py = -uy * 8, ux * 8
        parts.append(el("path", d=f"M{tx - ux * 25:.1f},{ty - uy * 25:.1f}L{ex + px:.1f},{ey + py:.1f}"
                                  f"L{ex - px:.1f},{ey - py:.1f}Z", fill=BATTLE))
    return group(title(_battle_title(view)), *parts, pointer_events="none", class_="battle")


def _battle_title(view):
    b = view["battle"]
    source = f" from {_estate_name(b['from'])}" if b.get("from") is not None else " with Soldiers alone"
    return (f"Battle: {_player_name(view, b['attacker'])} attacks {_player_name(view, b['defender'])} "
            f"at {_estate_name(b['target'])}{source}")


# --- "The Empire": a cartouche in the map's south-western sea -----------------------------

CARTOUCHE_X, CARTOUCHE_W = 16, 300


def _cartouche(view):
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
        rows.append(_order_row(view, "Next turn order (being chosen)", view["new_order"], y, inner, choosing=True))
        y += 50
    if view["ottokar"]:
        rows.append(text(14, y, _ottokar_text(view), size=12, fill=SEPIA))
        y += LINE
    rows.append(text(14, y, f"Deck: {view['deck_size']} · discard pile: {len(view['discard'])}", size=12,
                     fill=SEPIA))
    y += LINE
    if view["discard"]:
        rows.append(text(14, y, _fit(f"on top: {_card_name(view['discard'][-1])}", inner, 12), size=12,
                         fill=FAINT))
        y += LINE
    for line in _treaty_lines(view):
        for part in _wrap(line, inner, 12, max_lines=2):
            rows.append(text(14, y, part, size=12, fill=SEPIA))
            y += LINE
    height = y + 2
    return place(CARTOUCHE_X, MAP_H - 14 - height,
                 _rect(0, 0, CARTOUCHE_W, height, rx=8, fill=PANEL, fill_opacity=0.94, stroke=COAST,
                       stroke_width=1.5),
                 _rect(4, 4, CARTOUCHE_W - 8, height - 8, rx=6, fill="none", stroke=BORDER, stroke_width=0.7),
                 text(CARTOUCHE_W / 2, 27, "The Empire", size=17, anchor="middle", weight="bold",
                      fill=SEPIA, font_family=SERIF),
                 *rows, class_="empire")


def _crown_row(view, role, label, y, width):
    seat = view[role]
    if seat is None:
        return group(_crown(14, y - 11, "#cdbf9a"), text(34, y, f"{label}: none", size=13, fill=FAINT))
    soldiers = view["soldiers"].get(role, 0)
    head = f"{label}: "
    x = 34 + _text_width(head, 13)
    return group(
        title(f"{label}: {_player_name(view, seat)} with {soldiers} Soldiers"),
        _crown(14, y - 11, GOLD if role == "king" else "#9c8b63"),
        text(34, y, head, size=13, fill=SEPIA),
        _rect(x, y - 11, 12, 12, rx=2, fill=seat_colour(seat)),
        text(x + 16, y, _fit(f"{_player_name(view, seat)}, {soldiers} Soldiers", width - x - 2, 13, bold=True),
             size=13, weight="bold", fill=INK),
    )


def _order_row(view, heading, seats, y, width, choosing=False):
    """Chips in turn order; while the next order is chosen its free places are clickable."""
    n = max(1, len(seats))
    w = (width - 4 * (n - 1)) / n
    parts = [text(14, y, heading, size=12, fill=SEPIA)]
    for i, seat in enumerate(seats):
        x = 14 + i * (w + 4)
        data = {"data_position": i + 1} if choosing else {}
        if seat is None:
            parts.append(place(x, y + 7, title(f"Place {i + 1} of the next turn order: free"),
                               _rect(0, 0, w, 24, rx=5, fill=LAND, stroke=SEPIA, stroke_dasharray="3 2"),
                               text(w / 2, 16, f"{i + 1} free", size=11, anchor="middle", fill=SEPIA), **data))
            continue
        colour = seat_colour(seat)
        parts.append(place(x, y + 7, title(f"Place {i + 1}: {_player_name(view, seat)}"),
                           _rect(0, 0, w, 24, rx=5, fill=colour, stroke=INK, stroke_width=0.8),
                           text(w / 2, 16, _fit(f"{i + 1} {_player_name(view, seat)}", w - 6, 11, bold=True),
                                size=11, anchor="middle", weight="bold", fill=ink_on(colour)), **data))
        if not choosing and view["turn"] == seat and view["phase"] == "action":
            parts.append(el("path", d=f"M{x + w / 2 - 6:g},{y + 40:g}h12l-6,-6Z", fill=INK))
    return group(*parts)


def _ottokar_text(view):
    estates = [e for region in view["regions"] for e in region["slots"] if e is not None and e["owner"] == OTTOKAR_ID]
    return (f"Ottokar: {len(estates)} Estates, {sum(e['citizens'] for e in estates)} Citizens, "
            f"{sum(1 for e in estates if e['city'])} Cities")


def _treaty_lines(view):
    lines = []
    if view["landfrieden"]:
        lines.append(f"Landfrieden: the Estates of {_seats_text(view, view['landfrieden'])} are safe")
    for a, b in view["pacts"]:
        lines.append(f"Pact: {_player_name(view, a)} and {_player_name(view, b)}")
    return lines


# --- "Now": what is being decided ---------------------------------------------------------

def _now_lines(view, viewer):
    """(text, seat for a colour chip or None, bold) lines about what is going on."""
    lines = []
    result = view["result"]
    if result:
        scores, winners = result.get("scores", {}), result.get("winners", [])
        lines.append((f"Game over - {'winner' if len(winners) == 1 else 'winners'}: "
                      + ", ".join(f"{_player_name(view, w)} ({scores.get(str(w), '?')} VP)" for w in winners),
                      winners[0] if winners else None, True))
    decision = view["decision"]
    if decision and view["to_act"]:
        what = DECISION_TEXTS.get(decision["kind"], decision["kind"].replace("_", " "))
        if decision["kind"] == "er_special" and decision.get("window"):
            what += f" (window: {decision['window']})"
        you = " (you)" if viewer in view["to_act"] else ""
        lines.append((f"{_seats_text(view, view['to_act'])}{you} to {what}", view["to_act"][0], True))
    if view["battle"]:
        lines.extend(_battle_lines(view))
    lines.extend(_trade_lines(view))
    if view["phase"] == "evaluation":
        lines.extend(_evaluation_lines(view))
    return lines or [("Nothing to decide", None, False)]


def _battle_lines(view):
    b = view["battle"]
    soldiers, hits = b.get("soldiers", {}), b.get("hits", {})
    reactions = ", ".join(f"{side} {EFFECT_NAMES.get(effect, effect) if effect else 'none'}"
                          for side, effect in b.get("reactions", {}).items())
    return [
        (_battle_title(view), b["attacker"], True),
        (f"Stage: {b.get('stage', '?')}, round {b.get('round', 0)} · Soldiers {soldiers.get('attacker', 0)}"
         f" against {soldiers.get('defender', 0)} · hits to take: attacker {hits.get('attacker', 0)},"
         f" defender {hits.get('defender', 0)}", None, False),
        (f"Reactions: {reactions}", None, False),
    ]


def _side_text(side):
    parts = [f"{side['gold']} gold"] if side.get("gold") else []
    parts.extend(_card_name(c) for c in side.get("cards", []))
    parts.extend(f"Estate {_estate_name(e)}" for e in side.get("estates", []))
    if side.get("pact"):
        parts.append("a pact")
    return ", ".join(parts) or "nothing"


def _trade_lines(view):
    lines = []
    trade = view["trade"]
    if trade:
        made = ", ".join(f"{_player_name(view, int(s))}:\u00a0{n}" for s, n in trade["offers"].items())
        done = f" · done: {_seats_text(view, trade['done'])}" if trade["done"] else ""
        lines.append((f"Trade & Agreements - offers made (of 3): {made}{done}", None, False))
    offer = view["offer"]
    if offer:
        head = f"Offer from {_player_name(view, offer['from'])} to {_player_name(view, offer['to'])}"
        if "give" in offer:
            lines.append((f"{head}: gives {_side_text(offer['give'])}; asks {_side_text(offer['ask'])}",
                          offer["from"], False))
        else:
            lines.append((f"{head} (its content is theirs to see)", offer["from"], False))
    draft = view["draft"]
    if draft:
        lines.append((f"Your draft to {_player_name(view, draft['to'])}: give {_side_text(draft['give'])};"
                      f" ask {_side_text(draft['ask'])}", draft["from"], False))
    return lines


def _evaluation_lines(view):
    lines = []
    if view["er_used"]:
        lines.append((f"Special Actions played this ER: {_seats_text(view, view['er_used'])}", None, False))
    for effect, seats in view["er_effects"].items():
        if seats is not None and seats != []:
            seats = seats if isinstance(seats, list) else [seats]
            lines.append((f"{EFFECT_NAMES.get(effect, effect)}: {_seats_text(view, seats)}", None, False))
    return lines


def _now_box(view, viewer, y):
    rows, cy = [], 48
    for content, seat, bold in _now_lines(view, viewer):
        indent = 14
        if seat is not None:
            rows.append(_rect(14, cy - 11, 12, 12, rx=2, fill=_colour(seat)))
            indent = 32
        for line in _wrap(content, RIGHT_W - indent - 14, 13, bold, max_lines=3):
            rows.append(_bare_text(indent, cy, line, font_weight="bold" if bold else None))
            cy += LINE
        cy += 3
    height = cy + 2
    return place(RIGHT_X, y,
                 _rect(0, 0, RIGHT_W, height, rx=8, fill=PANEL, stroke=COAST, stroke_width=1.2),
                 text(14, 25, "Now", size=17, weight="bold", fill=SEPIA, font_family=SERIF),
                 group(*rows, font_size=13, fill=INK), class_="now"), height


# --- player panels -----------------------------------------------------------------------

def _panel(view, viewer, seat, y):
    player = view["players"][seat]
    colour = seat_colour(seat)
    name = player.get("name") or f"Seat {seat}"
    acting = seat in view["to_act"]
    lines = _panel_lines(view, player)
    height = 66 + LINE * len(lines)
    badges, badges_w = _badge_row(_badges(view, viewer, seat), RIGHT_W - 10, 8)
    parts = [
        title(_panel_title(view, viewer, player, name)),
        _rect(0, 0, RIGHT_W, height, rx=8, fill=PANEL, stroke=colour if acting else BORDER,
              stroke_width=3.5 if acting else 1.2),
        # The seat's colour down the left edge, following the panel's rounded corners.
        el("path", d=f"M8,0H11V{height:g}H8A8,8 0 0 1 0,{height - 8:g}V8A8,8 0 0 1 8,0Z", fill=colour),
        text(22, 24, _fit(name, RIGHT_W - 44 - badges_w, 17, bold=True), size=17, weight="bold", fill=INK),
        badges,
        _stat_row(player, 50),
        group(*(_bare_text(22, 74 + i * LINE, _fit(line, RIGHT_W - 36, 12)) for i, line in enumerate(lines)),
              font_size=12, fill=SEPIA),
    ]
    return place(RIGHT_X, y, *parts, data_seat=seat, class_="player"), height + 2


def _badges(view, viewer, seat):
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
        out.append((f"turn order {view['order'].index(seat) + 1}", "#e6d8b4"))
    return out


def _badge_row(badges, right, y):
    """Right-aligned pills; returns (svg, width taken)."""
    parts, x = [], right
    for label, fill in badges:
        w = _text_width(label, 12, bold=True) * 0.92 + 14
        x -= w
        parts.append(_rect(x, y, w, 21, rx=10.5, fill=fill))
        parts.append(_bare_text(x + w / 2, y + 15, label, fill=ink_on(fill)))
        x -= 5
    return group(*parts, font_size=12, font_weight="bold", text_anchor="middle"), right - x


STATS = (("gold", "gold", 22), ("prestige", "prestige", 94), ("victory_points", "VP", 190),
         ("estates", "Estates", 250), ("citizens", "Citizens", 330), ("cities", "Cities", 412))


def _stat_row(player, y):
    """Fixed columns, so the players' numbers line up from panel to panel."""
    return group(*(el("text", el("tspan", str(player[key]), font_size=15, font_weight="bold", fill=INK),
                      f" {label}", x=x, y=y) for key, label, x in STATS), font_size=12, fill=SEPIA)


def _panel_lines(view, player):
    titles = ", ".join(_card_name(c) for c in player["titles"]) or "none"
    marriage = player["marriage"]
    if marriage is None:
        married = "Not married" + (" (married this epoch)" if player["married_this_epoch"] else "")
    else:
        married = f"Married: {_card_name(marriage['card'])}"
        if marriage["conveyed"]:
            married += f" (conveys {', '.join(marriage['conveyed'])})"
    hand = (f"{len(player['hand'])} cards in hand (below)" if "hand" in player
            else f"{player['hand_size']} cards in hand")
    lines = [f"Principalities: {', '.join(player['principalities']) or 'none'}", f"Titles: {titles}",
             f"{married} · {hand}"]
    seat = player["seat"]
    partners = [b if a == seat else a for a, b in view["pacts"] if seat in (a, b)]
    if partners:
        lines.append(f"Non-aggression pact with {_seats_text(view, partners)}")
    return lines


def _panel_title(view, viewer, player, name):
    seat = player["seat"]
    hand = len(player["hand"]) if "hand" in player else player["hand_size"]
    return (f"{name} ({SEAT_COLOUR_NAMES[seat % len(SEAT_COLOUR_NAMES)]}){' - you' if seat == viewer else ''}: "
            f"{player['gold']} gold, prestige {player['prestige']}, {player['victory_points']} victory points, "
            f"{player['estates']} Estates, {player['citizens']} Citizens, {player['cities']} Cities, "
            f"{hand} cards in hand")


# --- cards ------------------------------------------------------------------------------

def _requirement_text(req):
    if "all" in req:
        return " and ".join(_requirement_text(part) for part in req["all"])
    n = req.get("min", 1)
    estates = "Estate" if n == 1 else "Estates"
    if "estates_in" in req:
        places = req["estates_in"]
        where = places[0] if len(places) == 1 else f"{', '.join(places[:-1])} or {places[-1]}"
        return f"{n} {estates} in {'or next to ' if 'or_bordering' in req else ''}{where}"
    if "estates_bordering" in req:
        return f"{n} {estates} next to {req['estates_bordering']}"
    if "prestige" in req:
        return f"prestige {req['prestige']}"
    if "citizens" in req:
        return f"{req['citizens']} Citizens"
    if "cities" in req:
        return f"{req['cities']} {'City' if req['cities'] == 1 else 'Cities'}"
    if "principality" in req:
        return f"the Principality {req['principality']}"
    if "cities_in" in req:
        return f"{n} {'City' if n == 1 else 'Cities'} in {req['cities_in']}"
    if "citizens_in" in req:
        return f"{n} Citizens in {req['citizens_in']}"
    return "?"


def _benefit_text(benefit):
    if "estate" in benefit:
        extra = f" with {benefit['citizens']} Citizens" if benefit.get("citizens") else ""
        return f"an Estate in {benefit['estate']}{extra}"
    if "gold" in benefit:
        return f"{benefit['gold']} gold"
    if "prestige" in benefit:
        return f"{benefit['prestige']} prestige"
    if "principality" in benefit:
        return f"the Principality {benefit['principality']}"
    if "city" in benefit:
        return f"a City in {benefit['city']}"
    return "?"


def _cost_text(cost):
    if "pay" in cost:
        return f"{cost['pay']} gold"
    if "remove_citizens" in cost:
        n = cost["remove_citizens"]
        return f"{n} Citizen{'s' if n > 1 else ''}"
    if "lose_prestige" in cost:
        return f"{cost['lose_prestige']} prestige"
    if "discard" in cost:
        return f"discard {cost['discard']} card"
    return "?"


def card_text(card):
    """The card's rules in a sentence or three (card face and tooltip)."""
    c = CARDS[card]
    kind = c["kind"]
    if kind == "marriage":
        return (f"Needs {_requirement_text(c['requirement'])}. Gain "
                + ", ".join(_benefit_text(b) for b in c["benefits"]) + ". Costs "
                + ", ".join(_cost_text(d) for d in c["disadvantages"]) + ".")
    if kind == "title":
        return f"Needs {_requirement_text(c['requirement'])}. +2 prestige while held."
    if kind == "inheritance":
        return f"A free Estate in {c['region']}."
    return EFFECT_TEXTS.get(c.get("effect"), "")


@lru_cache(maxsize=None)
def _card_face(card, w):
    """A card drawn at the origin (it never changes: cached per card and width)."""
    c = CARDS[card]
    label, colour = CARD_KINDS[c["kind"]]
    parts = [
        _rect(0, 0, w, CARD_H, rx=7, fill=PANEL, stroke=colour, stroke_width=1.6),
        el("path", d=f"M0,7a7,7 0 0 1 7,-7H{w - 7:g}a7,7 0 0 1 7,7V21H0Z", fill=colour),
        _bare_text(8, 15, label, font_weight="bold", fill="#ffffff"),
        _bare_text(w - 8, 15, f"#{card}", text_anchor="end", fill="#ffffff"),
    ]
    y = 38
    for line in _wrap(c["name"], w - 16, 13, bold=True, max_lines=2):
        parts.append(_bare_text(8, y, line, font_size=13, font_weight="bold", fill=INK))
        y += 15
    if "region" in c:
        parts.append(_bare_text(8, y, _fit(f"{c['region']} · {c['city']}", w - 16, 11), fill=FAINT))
        y += 15
    y += 1
    for line in _wrap(card_text(card), w - 16, 11, max_lines=max(1, (CARD_H - y + 4) // 13)):
        parts.append(_bare_text(8, y, line, fill=SEPIA))
        y += 13
    summary = f"{c['name']} ({label} card #{card}): {card_text(card)}"
    if "region" in c:
        summary += f" Also the City card of {c['region']} ({c['city']})."
    return title(summary) + group(*parts, font_size=11)


def _card_row(cards, y, heading, open_cards=False):
    """A heading and rows of face-up cards under the map; returns (svg, height)."""
    per_row = max(1, min(len(cards), int((MAP_W + CARD_GAP) // (CARD_W + CARD_GAP))))
    parts = [text(MAP_X, y + 15, heading, size=16, weight="bold", fill=SEPIA, font_family=SERIF)]
    for i, card in enumerate(cards):
        row, col = divmod(i, per_row)
        extra = {"data_open_card": i} if open_cards else {}
        parts.append(place(MAP_X + col * (CARD_W + CARD_GAP), y + 24 + row * (CARD_H + 10),
                           _card_face(card, CARD_W), data_card=card, class_="card", **extra))
    rows = (len(cards) + per_row - 1) // per_row
    return group(*parts), 24 + rows * (CARD_H + 10)


def _cards_under_map(view, viewer, y):
    parts, height = [], 0
    players = view["players"]
    me = players[viewer] if isinstance(viewer, int) and 0 <= viewer < len(players) else None
    if me is not None and "hand" in me:
        if me["hand"]:
            row, h = _card_row(me["hand"], y, f"Your hand ({len(me['hand'])} cards)")
        else:
            row, h = text(MAP_X, y + 15, "Your hand is empty", size=16, weight="bold", fill=SEPIA,
                          font_family=SERIF), 24
        parts.append(row)
        height += h + 4
    if view["open_cards"]:
        row, h = _card_row(view["open_cards"], y + height, "Open cards (a hand card can be swapped for one)",
                           open_cards=True)
        parts.append(row)
        height += h + 4
    return group(*parts), height


# --- legend and the document ---------------------------------------------------------------

@lru_cache(maxsize=1)
def _legend_swatches():
    house = dict(transform="translate(0,-11) scale(0.4)", stroke=INK)
    return (
        (_use("house", fill=seat_colour(None), **house), "Ottokar (neutral grey)"),
        (_use("house", fill="#c9b891", **house), "Estate, with its number of Citizens"),
        (_use("castle", fill="#c9b891", **house), "Estate with a City"),
        (el("g", el("circle", cx=2, cy=-4, r=2.4, fill=INK), el("circle", cx=8, cy=-4, r=2.4, fill="none",
                                                               stroke=INK)),
         "Estate strength left (after a battle)"),
        (_use("house", fill=LAND, transform="translate(0,-11) scale(0.4)", stroke=BORDER,
              stroke_dasharray="3 2", stroke_width=2), "free Estate slot"),
        (_use("tower", 0, -11, fill=SEPIA, stroke=SEPIA), "City towers: built (filled) of allowed"),
        (_rect(0, -11, 13, 13, rx=2, fill=_mix(seat_colour(0), LAND, 0.3), stroke=seat_colour(0)),
         "tint and name banner: Principality holder"),
        (el("line", x1=0, y1=-4, x2=13, y2=-4, stroke=BORDER, stroke_width=2, stroke_dasharray="4 2"),
         "dashed line: a border between regions"),
        (el("path", d="M0,-4H8M13,-4L7,-9V1Z", stroke=BATTLE, stroke_width=2, fill=BATTLE),
         "battle: from the attacker to the target"),
    )


def _legend(view, viewer, y):
    extra = _legend_swatches() if view["ottokar"] else _legend_swatches()[1:]
    height = (len(view["players"]) + len(extra)) * 18 + 34
    return place(RIGHT_X, y, _rect(0, 0, RIGHT_W, height, rx=8, fill=PANEL, stroke=BORDER),
                 legend(14, 32, view["players"], viewer, extra)), height


def _right_column(view, viewer):
    box, h = _now_box(view, viewer, MAP_Y)
    parts, y = [box], MAP_Y + h + 10
    for seat in range(len(view["players"])):
        panel, h = _panel(view, viewer, seat, y)
        parts.append(panel)
        y += h + 8
    legend_svg, h = _legend(view, viewer, y + 2)
    parts.append(legend_svg)
    return group(*parts), y + 2 + h


def _description(view, viewer):
    who = "a spectator" if viewer is None else _player_name(view, viewer)
    players = "; ".join(f"{_player_name(view, p['seat'])}: {p['victory_points']} victory points, "
                        f"{p['gold']} gold, prestige {p['prestige']}" for p in view["players"])
    return f"Anno 1452 in {view['year']}, {_phase_text(view).lower()}, as seen by {who}. {players}."


def render(view, viewer=None):
    """The SVG document of an Anno 1452 ``view`` as ``viewer`` (a seat or None) sees it."""
    cards_svg, cards_h = _cards_under_map(view, viewer, MAP_Y + MAP_H + 12)
    right_svg, right_bottom = _right_column(view, viewer)
    height = max(MAP_Y + MAP_H + 12 + cards_h, right_bottom) + MARGIN
    doc = document(
        WIDTH, height, f"Anno 1452 - {view['year']}, {_phase_text(view)}", _description(view, viewer),
        DEFS,
        _rect(0, 0, WIDTH, height, fill=BACKGROUND),
        _header(view),
        _map(view),
        right_svg,
        cards_svg,
    )
    return with_click_targets(doc, _CLICK_TARGETS_JSON)
