"""The sea: every square of the board (a variant's look adds its own), tiles, ships and outlines.

The squares themselves never change for a set of options, so their fixed
parts are built once (``_static_board``); a view adds tiles, seen-by dots,
ships and outlines. Every square is one ``<g data-space="r,c">`` (a plain
empty sea square: one ``<use>``), and a ship is drawn inside its square's
group, so a click on a ship also reaches its square.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

from ..svg import el, ref, title
from .layout import layout
from .look import AP_BADGE, DANGER, HIGHLIGHT, SEA_LINE, WHITE, ink_class, label
from .symbols import defs, slot_defs
from .variants import LOOKS
from .words import name_of, ship_number, ship_words

if TYPE_CHECKING:
    from typing import Any


if TYPE_CHECKING:
    from ...core import View


def board(view: View, names: list[str], look):
    """The sea with this view's tiles and ships; returns ``(svg, layout)``."""
    lay, squares, frame = _static_board(look, view["num_players"])
    s = lay.square
    spaces = {tuple(sp["space"]): sp for sp in view["spaces"]}
    ships = _ships_by_square(view, names, look)
    marks = _square_marks(view, s, look)
    out = [frame, slot_defs(view)]
    for sq, kind, head, body, bare in squares:
        mark, note = marks.get(sq, ("", ""))
        if bare and not mark and sq not in ships:
            out.append(bare)
            continue
        out += [head, _square_inside(sq, kind, body, spaces.get(sq), note, s, names, look), mark]
        if sq in ships:
            out.append(_ships_on_square(ships[sq], s))
        out.append("</g>")
    return "".join(out), lay


def _square_inside(sq, kind, body, space, note, s, names: list[str], look):
    """A square's title and fixed picture, and on an island space its tile."""
    special = look.special_square(kind, sq, body, s, note)
    if special is not None:
        return special
    if kind == "space":
        content, words = ("", f"Island space {ref(*sq)}")
        if space is not None:
            content, words = _space_content(space, s, names, look)
        return title(words + note) + body + content
    return body


# --- fixed squares (once per set of options) ----------------------------------------


@lru_cache(maxsize=8)
def _static_board(look, num_players):
    """``(layout, ((sq, kind, head, body, bare), ...), frame)`` for one set of options.

    ``head`` opens the square's group (with ``data-space``); ``body`` is its
    fixed picture (sea squares: with their title); tiles, ships and outlines
    go after it per view. ``bare`` is the whole square as one element, for a
    plain sea square with nothing on it. ``frame`` (the symbols, the edges
    and their coordinates) is drawn once under the squares.
    """
    lay = layout(look, num_players)
    squares = tuple(_fixed_square(lay, sq, kind) for sq, kind in look.square_kinds().items())
    # Every variant's picture shares one style sheet and one set of symbols.
    return lay, squares, defs(lay, num_players, LOOKS.values()) + _board_frame(lay)


def _fixed_square(lay, sq, kind):
    x, y = lay.xy(*sq)
    key = ref(*sq)
    head = f'<g data-space="{key}" transform="translate({x},{y})">'
    if kind in ("space", "port"):
        # Sand on the sea; the title depends on the tile, so it comes per view.
        return sq, kind, head, el("use", href=f"#a15-s{lay.look.islets.get(sq, 2)}"), None
    words, mark, cls = lay.look.square_looks[kind]
    look = cls or lay.look.sea_class(sq)
    body = title(f"{words} {key}") + el("use", href="#a15-q", class_=look) + _sea_mark(mark, lay.square)
    bare = None
    if kind == "sea":
        # Most squares are plain sea with nothing on them: one element is enough.
        bare = el("use", title(f"Sea square {key}"), href="#a15-q", class_=look, x=x, y=y, data_space=key)
    return sq, kind, head, body, bare


def _sea_mark(mark, s):
    """The printed picture ``mark`` on a special sea square of side ``s`` (none on plain sea)."""
    if mark is None:
        return ""
    return el("use", href=mark, transform=f"translate({s // 2},{s // 2})")


def _board_frame(lay):
    """The edges of the main sea, the coordinates along them, and the variant's (``board_frame``)."""
    s = lay.square
    parts = [
        el(
            "rect",
            x=lay.board_x - 4,
            y=lay.board_y - 4,
            width=12 * s + 8,
            height=5 * s + 8,
            rx=8,
            fill=SEA_LINE,
        ),
        el("rect", x=lay.board_x, y=lay.board_y, width=12 * s, height=5 * s, fill="url(#a15-sea)"),
    ]
    # Coordinates along the edges: one text each for the columns and the rows.
    columns = "".join(el("tspan", str(c), x=lay.xy(0, c)[0] + s // 2) for c in range(lay.cols))
    rows = "".join(
        el("tspan", str(r), x=lay.board_x - 8, y=lay.board_y + r * s + s // 2 + 4) for r in range(5)
    )
    parts += [el("text", columns, y=lay.board_y - 8, class_="m u"), el("text", rows, class_="e u")]
    parts.append(lay.look.board_frame(lay))
    return "".join(parts)


# --- tiles ---------------------------------------------------------------------------


def _space_content(space, s, names: list[str], look):
    """Tile (face up / back / none) and seen-by dots of an island space; and its title."""
    r, c = space["space"]
    tile = space.get("tile")
    parts = []
    if tile is None:
        words = "no tile"
    elif "kind" in tile:
        parts.append(_face_up_tile(tile, 5, s / 2 - 17, s - 10, 34, look))
        words = f"{look.tile_name(tile)} (back {tile.get('back')}), seen by you"
    else:
        parts.append(el("use", href=f"#a15-{look.back_kind((r, c))}{tile['back']}"))
        words = f"tile face down, back {tile['back']}"
    seen = space.get("seen_by") or []
    for i, seat in enumerate(seen):
        parts.append(el("use", href=f"#a15-d{seat}", x=s - 9 - 8 * i, y=s - 9))
    if seen:
        words += "; looked at by " + ", ".join(name_of(names, p) for p in seen)
    return "".join(parts), f"Island space {ref(r, c)}: {words}"


def _face_up_tile(tile: dict[str, Any], x: float, y: float, w, h, look):
    line1, line2 = look.tile_words(tile)[0]
    fill, ink = look.tile_colours(tile)
    return (
        el("rect", x=x, y=y, width=w, height=h, rx=5, fill=fill, class_="tl")
        + label(x + w / 2, y + h / 2 - 2, line1, ink_class(ink, "m b"))
        + label(x + w / 2, y + h / 2 + 11, line2, ink_class(ink))
    )


# --- ships ----------------------------------------------------------------------------


def ship_glyph(seat: int, index, ap, damaged, with_ap=True):
    """A ship: seat-coloured hull, white sail with its number, AP badge; red cross when damaged."""
    # 12 px inside the glyph: a ship drawn at 0.92 scale (four on a square) still reads at 11.
    parts = [el("use", href=f"#a15-ship{seat}"), label(0, -1, ship_number(index), "m b", font_size=12)]
    if damaged:
        parts.append(
            el("path", d="M-11-11l22 22M11-11l-22 22", stroke=DANGER, stroke_width=3, stroke_linecap="round")
        )
    elif with_ap:
        parts.append(el("circle", cx=12, cy=-10, r=7, fill=AP_BADGE if ap else "#cfcfcf", class_="ch"))
        parts.append(label(12, -6, ap, "m b", font_size=12))
    return "".join(parts)


def _ships_by_square(view: View, names: list[str], look):
    """``{square: [(seat, index, ship, damaged, name), ...]}`` of the ships at sea."""
    ships: dict[tuple[int, int], list[Any]] = {}
    for player in view["players"]:
        seat = player["seat"]
        damaged = look.damaged_ships(player)
        for index, ship in enumerate(player["ships"]):
            if ship["at"] is not None:
                ships.setdefault(tuple(ship["at"]), []).append(
                    (seat, index, ship, bool(damaged[index]), names[seat])
                )
    return ships


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
        out.append(
            el(
                "g",
                title(f"{ship_words(name, index)}, {state}"),
                ship_glyph(seat, index, ship["ap"], damaged),
                transform=f"translate({cx:g},{cy:g}) scale({scale:g})",
                data_ship=ref(seat, index),
            )
        )
    return "".join(out)


# --- outlines ---------------------------------------------------------------------------


def _square_marks(view: View, s, look):
    """``{square: (outline, title note)}`` for the squares the match is about now:
    a choice's options, a discovery, a sea battle."""
    marks = {}
    choice = view.get("choice")
    if choice and choice.get("kind") in look.space_choices:
        for option in choice.get("options", []):
            marks[tuple(option)] = (_outline(s, HIGHLIGHT, dash="7 4"), "; may receive the reserve tile")
    discovery = view.get("discovery")
    if discovery:
        marks[tuple(discovery["space"])] = (_outline(s, HIGHLIGHT), "; being discovered")
    battle = _battle_square(view, look)
    if battle is not None:
        marks[battle] = (_outline(s, DANGER, "battle"), "; sea battle here")
    return marks


def _battle_square(view: View, look):
    """Where a sea battle is fought: the battle's space, else the attacked ship's square."""
    combat = look.combat(view)
    if not combat:
        return None
    at = combat.get("space")
    if at is None and combat.get("seat") is not None:
        at = view["players"][combat["seat"]]["ships"][combat["ship"]]["at"]
    return None if at is None else tuple(at)


def _outline(s, colour, caption=None, dash=None):
    ring = el(
        "rect",
        x=2,
        y=2,
        width=s - 4,
        height=s - 4,
        rx=6,
        fill="none",
        stroke=colour,
        stroke_width=4,
        stroke_dasharray=dash,
    )
    if caption:
        # At the bottom edge: the tile or ship in the middle stays visible.
        ring += label(s / 2, s - 5, caption, "m b", stroke=WHITE, stroke_width=3, paint_order="stroke")
    return ring
