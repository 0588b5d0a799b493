"""Colours, the style sheet and the small text pieces every part of the picture uses.

Labels are styled by classes (``b`` bold, ``m`` centred, ``e`` right-aligned,
``u`` muted, ``w`` white, ``f13``..``f18`` sizes) from one ``<style>``, and
inherit 11 px ink from the picture's root group: hundreds of labels then
cost a class each instead of four presentation attributes.
"""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING

from ..svg import INK, el, fit, group, text_width, title

if TYPE_CHECKING:
    from typing import Any


# --- palette --------------------------------------------------------------------

SEA_FILL = "#5b9fd4"
SEA_LINE = "#3d7cb3"
START_FILL = "#8cc4ea"
SAND = "#ecdcaa"
SAND_EDGE = "#c9b27a"
ISLET = "#7db36a"
TILE_BACK = "#8a5a35"
MUTED = "#6b6b6b"
HIGHLIGHT = "#ffd23f"
DANGER = "#c62828"
AP_BADGE = "#ffd54f"
WHITE = "#ffffff"

# fill, text colour. The text colour is chosen by eye, not by svg.ink_on: on the
# mid tones (wood, tobacco, silk, the upgrade's purple) its strict WCAG pick is
# dark, where white reads better at 11 px bold.
COMMODITY_COLOURS = {
    "stone": ("#a9a9a9", INK),
    "wood": ("#9c6b3f", WHITE),
    "tool": ("#56798a", WHITE),
    "cloth": ("#efe0c0", INK),
    "spice": ("#e3843f", INK),
    "tobacco": ("#6f8a2e", WHITE),
    "silk": ("#d04b80", WHITE),
    "marble": ("#e4e8ec", INK),
    "gems": ("#6c4fb5", WHITE),
    "?": (WHITE, INK),
}
# Outlines for the palest commodities, whose own colour vanishes on white.
PALE_OUTLINES = {"cloth": "#c9b27a", "marble": "#9aa5b1"}
KIND_COLOURS = {"pioneer": "#f3e3b5", "settler": "#f5b486", "citizen": "#9fc8ea", "merchant": "#c9a8ea"}
KIND_ROOFS = {"pioneer": "#b08d3c", "settler": "#c0622a", "citizen": "#2f6ea3", "merchant": "#6b3fa0"}
TILE_COLOURS = {
    "trade_agreement": ("#f5dc8c", INK),
    "treasure_gold": ("#e9b824", INK),
    "treasure_upgrade": ("#9b7bd0", WHITE),
}
RED_SLOT, GREEN_SLOT = "#c0392b", "#2e8b57"

# Class selectors only, under the root's ``a15`` class: inlined in a page they
# touch nothing else, and they never fight a presentation attribute (svg.py's
# legend sets its own sizes). Named parts: a variant's rules go after the part
# its look names (``style_sheet``).
STYLE_PARTS = (
    (
        "text",
        ".a15 .b{font-weight:700}.a15 .m{text-anchor:middle}.a15 .e{text-anchor:end}"
        ".a15 .u{fill:#6b6b6b}.a15 .w{fill:#fff}.a15 .f13{font-size:13px}.a15 .f14{font-size:14px}"
        ".a15 .f16{font-size:16px}.a15 .f18{font-size:18px}",
    ),
    ("sea", f".a15 .sea{{fill:url(#a15-sea);stroke:{SEA_LINE}}}"),
    ("start", f".a15 .start{{fill:{START_FILL};stroke:{SEA_LINE}}}"),
    ("sand", f".a15 .sand{{fill:{SAND};stroke:{SAND_EDGE};stroke-width:1.5}}"),
    ("back", f".a15 .back{{fill:{TILE_BACK};stroke:{INK}}}"),
    (
        "site",
        f".a15 .tl{{stroke:{INK};stroke-width:1.2}}.a15 .ch{{stroke:{INK};stroke-width:.8}}"
        ".a15 .goal{fill:#f1efe9;stroke:#d8d3c6}.a15 .held{fill:#f6c945;stroke:#c9a227}"
        ".a15 .bld{fill:#e8e0d4;stroke:#8c7b63}.a15 .site{fill:none;stroke:#b8ab98;stroke-dasharray:3 3}",
    ),
)


def style_sheet(looks):
    """The one style sheet of every variant's picture: the base parts, each followed by
    the rules the ``looks`` add after it (``BaseLook.style_rules``)."""
    return "".join(
        rules + "".join(look.style_rules.get(name, "") for look in looks) for name, rules in STYLE_PARTS
    )


def commodity_colours(name):
    """``(fill, ink)`` of a commodity card or office; white for an unknown one."""
    return COMMODITY_COLOURS.get(name, (WHITE, INK))


def tile_colours(tile: dict[str, Any]):
    """``(fill, ink)`` of a face-up base tile: an office takes its commodity's colour."""
    if tile.get("kind") == "branch_office":
        return commodity_colours(tile.get("commodity"))
    return TILE_COLOURS.get(tile.get("kind", ""), (WHITE, INK))


def ink_class(ink, base="m"):
    """The label classes for text of colour ``ink``: ``base``, plus ``w`` when it is white."""
    return f"{base} w" if ink == WHITE else base


# --- text -----------------------------------------------------------------------


def label(x, y, content, cls=None, **values):
    """A ``<text>`` styled by classes (see the module's docstring).

    Leaner than ``svg.text`` for the hundreds of small labels: size and ink
    are inherited from the picture's root group.
    """
    return el("text", escape(str(content), quote=False), x=x, y=y, class_=cls, **values)


def spans(x, y, runs, cls=None, **values):
    """One ``<text>`` of coloured runs on one baseline: ``runs`` are ``(content, fill, bold)``."""
    inner = "".join(
        el("tspan", escape(str(content), quote=False), fill=fill, class_="b" if bold else None)
        for content, fill, bold in runs
        if content
    )
    return el("text", inner, x=x, y=y, class_=cls, **values)


def fit_runs(runs, size, width):
    """``svg.fit`` over a line of runs: those that fit ``width``, the first that does not
    cut with an ellipsis (or left out when not even a letter of it fits)."""
    out, used = [], 0.0
    for content, fill, bold in runs:
        run_width = text_width(content, size, bold)
        if used + run_width > width:
            if width - used >= text_width("x…", size, bold):
                out.append((fit(content, width - used, size, bold), fill, bold))
            break
        out.append((content, fill, bold))
        used += run_width
    return out


def runs_width(runs, size):
    return sum(text_width(content, size, bold) for content, _, bold in runs)


CHIP_H = 18


def chip(x: float, y: float, caption, fill=None, cls=None, text_cls="m", hint=None):
    """A rounded label as wide as its text, with an optional title; returns (element, width)."""
    width = round(text_width(caption, 11, bold="b" in text_cls.split()) + 12)
    shape = el("rect", x=x, y=y, width=width, height=CHIP_H, rx=9, fill=fill, class_=cls) + label(
        x + width / 2, y + 13, caption, text_cls
    )
    return (group(title(hint), shape) if hint else shape), width


def chip_row(x: float, y: float, chips, gap=6):
    """Chips ``(caption, fill, cls, text_cls)`` left to right from ``x``; returns (elements, next x)."""
    out = []
    for caption, fill, cls, text_cls in chips:
        element, width = chip(x, y, caption, fill, cls, text_cls)
        out.append(element)
        x += width + gap
    return out, x


def track(x: float, y: float, filled, total, step, size, colour, round_cells=False):
    """A row of ``total`` cells (squares, or dots), the first ``filled`` solid, the rest hollow.

    Drawn with dashed strokes, so it costs two short paths whatever the
    count: one dashes every cell in ``colour``, one dashes white inside the
    hollow ones. Round cells are zero-length dashes with round caps.
    """
    if round_cells:
        dash, line, inner = f"0 {step}", {"stroke_linecap": "round"}, f"0 {step}"
        length, start = (total - 1) * step + 1, x  # + 1: a dash right at the end would be dropped
    else:
        dash, line, inner = f"{size} {step - size}", {}, f"{size - 2} {step - size + 2}"
        length, start = total * step - (step - size), x
    cells = el(
        "path", d=f"M{start} {y}h{length}", stroke=colour, stroke_width=size, stroke_dasharray=dash, **line
    )
    hollow = total - filled
    if hollow <= 0:
        return cells
    first = start + filled * step + (0 if round_cells else 1)
    hollow_length = (hollow - 1) * step + 1 if round_cells else hollow * step - (step - size) - 2
    return cells + el(
        "path",
        d=f"M{first} {y}h{hollow_length}",
        stroke=WHITE,
        stroke_width=size - 2,
        stroke_dasharray=inner,
        **line,
    )
