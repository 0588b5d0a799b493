"""A tiny SVG authoring kit shared by every game's board renderer.

Renderers build a picture from a *view* (never a state) with these helpers,
so escaping, seat colours, the legend and the document frame are written
once. Elements are plain strings: a board is a few hundred of them and
string joining is the cheapest way to build it.

    >>> el("circle", cx=1, cy=2, r=3, data_space="0,1")
    '<circle cx="1" cy="2" r="3" data-space="0,1"/>'
"""

from __future__ import annotations

import json
from functools import cache
from html import escape
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any


if TYPE_CHECKING:
    pass


# One colour per seat, the same in every game and in the web client's CSS
# (service/static/play/style.css): chosen to stay apart for the common forms
# of colour blindness (Okabe-Ito palette).
SEAT_COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7")
SEAT_COLOUR_NAMES = ("blue", "orange", "green", "purple")
NEUTRAL = "#7f7f7f"
INK = "#1d1d1f"
PAPER = "#fbf8f0"
FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif"


def seat_colour_name(seat: int):
    """ "blue", "orange"...: the seat's colour in words, for titles and the legend."""
    return SEAT_COLOUR_NAMES[seat % len(SEAT_COLOUR_NAMES)]


def seat_colour(seat: int | None):
    """The seat's colour; ``None`` (nobody, Ottokar) is neutral grey."""
    return NEUTRAL if seat is None or not 0 <= seat < len(SEAT_COLOURS) else SEAT_COLOURS[seat]


def seat_name(player: dict[str, Any]):
    """A player's name at the table, or "Seat 3" (counted from 1, as people count)."""
    return player.get("name") or f"Seat {player['seat'] + 1}"


def _attr_name(name):
    # Python names cannot hold '-': data_space -> data-space, class_ -> class.
    return name.rstrip("_").replace("_", "-")


def _quoted(value):
    # Single quotes around a value holding double ones (JSON) but no single
    # one: the same attribute without an &quot; per quote.
    if '"' in value and "'" not in value:
        return "'" + escape(value, quote=False) + "'"
    return '"' + escape(value, quote=True) + '"'


def attrs(**values):
    """``name="value"`` pairs, escaped; ``None`` and ``False`` values are left out."""
    parts = []
    for name, value in values.items():
        if value is None or value is False:
            continue
        if isinstance(value, float):
            value = f"{value:.1f}".rstrip("0").rstrip(".")
        parts.append(f"{_attr_name(name)}={_quoted(str(value))}")
    return " ".join(parts)


def el(tag, *children, **values):
    """One element; children are strings already built with this kit."""
    head = f"<{tag} {attrs(**values)}" if values else f"<{tag}"
    if not children:
        return head + "/>"
    return f"{head}>{''.join(children)}</{tag}>"


def title(text):
    """A ``<title>``: screen readers read it, browsers show it as a tooltip."""
    return f"<title>{escape(str(text), quote=False)}</title>"


# Average character widths in em: generous, after DejaVu Sans (the widest
# fallback font), so text fitted by estimate never overflows.
CHAR_EM, BOLD_CHAR_EM = 0.58, 0.64


def text_width(content, size, bold=False):
    """An estimate of a text's width, to fit and wrap without measuring."""
    return len(str(content)) * size * (BOLD_CHAR_EM if bold else CHAR_EM)


def fit(content, width, size, bold=False):
    """``content`` cut with an ellipsis so that it fits ``width``."""
    content = str(content)
    if text_width(content, size, bold) <= width:
        return content
    keep = max(1, int(width / (size * (BOLD_CHAR_EM if bold else CHAR_EM))) - 1)
    return content[:keep].rstrip() + "…"


def wrap(content, width, size, bold=False, max_lines=3):
    """Greedy word wrap to ``width``; the last line ends in an ellipsis when cut.

    Only plain spaces break a line: a no-break space (U+00A0) keeps a count to its name.
    """
    lines, current = [], ""
    for word in filter(None, str(content).split(" ")):
        candidate = f"{current} {word}".strip()
        if current and text_width(candidate, size, bold) > width:
            lines.append(current)
            current = word
        else:
            current = candidate
    if current:
        lines.append(current)
    if len(lines) > max_lines:
        lines = lines[:max_lines]
        lines[-1] = fit(lines[-1] + " …", width, size, bold)
    return [fit(line, width, size, bold) for line in lines]


def _channels(colour):
    return [int(colour[i : i + 2], 16) for i in (1, 3, 5)]


@cache
def ink_on(colour):
    """Black or white, whichever contrasts more with ``colour`` (WCAG luminance)."""
    linear = [
        c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
        for c in (v / 255 for v in _channels(colour))
    ]
    luminance = 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    return INK if (luminance + 0.05) / 0.05 >= 1.05 / (luminance + 0.05) else "#ffffff"


@cache
def mix(colour, base, amount):
    """``colour`` washed over ``base`` by ``amount`` (0..1): a tint that keeps dark text readable."""
    return "#" + "".join(
        f"{round(b + (c - b) * amount):02x}" for b, c in zip(_channels(base), _channels(colour), strict=True)
    )


def text(x, y, content, size=12, anchor="start", weight=None, fill=INK, **values):
    return el(
        "text",
        escape(str(content), quote=False),
        x=x,
        y=y,
        font_size=size,
        text_anchor=anchor,
        font_weight=weight,
        fill=fill,
        **values,
    )


def group(*children, **values):
    return el("g", *children, **values)


def place(x, y, *children, **values):
    """A group moved to ``(x, y)``."""
    return group(*children, transform=f"translate({x:g},{y:g})", **values)


def ref(*parts):
    """The value of a ``data-`` attribute that names a thing by its coordinates: ``"1,0"``."""
    return ",".join(str(p) for p in parts)


def legend(x, y, players, viewer: int | None, extra=()):
    """One line per seat (colour, name, 'you'), then ``extra`` ``(swatch, label)`` rows.

    The rows carry no ``data-seat``: that names the seat's panel, the one
    place a client clicks for a seat.
    """
    rows = []
    for i, player in enumerate(players):
        seat = player["seat"]
        label = f"{seat_name(player)} ({seat_colour_name(seat)})"
        if seat == viewer:
            label += " - you"
        rows.append(
            place(
                0,
                18 * i,
                el("rect", width=12, height=12, y=-10, rx=2, fill=seat_colour(seat)),
                text(18, 0, label, size=12),
            )
        )
    for j, (swatch, label) in enumerate(extra, start=len(rows)):
        rows.append(place(0, 18 * j, swatch, text(18, 0, label, size=12)))
    return place(x, y, text(0, -18, "Legend", size=13, weight="bold"), *rows, class_="legend")


def document(width, height, heading, description, *body, click_targets=None, class_=None):
    """The whole ``<svg>``: scalable (viewBox, no fixed size), titled and described.

    ``click_targets`` (``{action type: [[param, attribute, own], ...]}``) goes
    on the root as ``data-click-targets`` (compact JSON), for clients that
    make the places of legal actions clickable; ``class_`` adds root classes
    (a renderer's ``<style>`` can be scoped by one).
    """
    targets = None if click_targets is None else json.dumps(click_targets, separators=(",", ":"))
    return el(
        "svg",
        title(heading),
        el("desc", escape(description, quote=False)),
        el("rect", width=width, height=height, fill=PAPER),
        *body,
        xmlns="http://www.w3.org/2000/svg",
        viewBox=f"0 0 {width:g} {height:g}",
        role="img",
        font_family=FONT,
        class_=" ".join(filter(None, ["tabula-board", class_])),
        preserveAspectRatio="xMidYMin meet",
        data_click_targets=targets,
    )
