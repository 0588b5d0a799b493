"""A tiny SVG authoring kit shared by every game's board renderer.

Renderers build a picture from a *view* (never a state) with these helpers,
so escaping, seat colours, the legend and the document frame are written
once. Elements are plain strings: a board is a few hundred of them and
string joining is the cheapest way to build it.

    >>> el("circle", cx=1, cy=2, r=3, data_space="0,1")
    '<circle cx="1" cy="2" r="3" data-space="0,1"/>'
"""

from html import escape

# One colour per seat, the same in every game and in the web client's CSS
# (service/static/play/style.css): chosen to stay apart for the common forms
# of colour blindness (Okabe-Ito palette).
SEAT_COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7")
SEAT_COLOUR_NAMES = ("blue", "orange", "green", "purple")
NEUTRAL = "#7f7f7f"
INK = "#1d1d1f"
PAPER = "#fbf8f0"
FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif"


def seat_colour(seat):
    """The seat's colour; ``None`` (nobody, Ottokar) is neutral grey."""
    return NEUTRAL if seat is None or not 0 <= seat < len(SEAT_COLOURS) else SEAT_COLOURS[seat]


def _attr_name(name):
    # Python names cannot hold '-': data_space -> data-space, class_ -> class.
    return name.rstrip("_").replace("_", "-")


def attrs(**values):
    """``name="value"`` pairs, escaped; ``None`` and ``False`` values are left out."""
    parts = []
    for name, value in values.items():
        if value is None or value is False:
            continue
        if isinstance(value, float):
            value = f"{value:.1f}".rstrip("0").rstrip(".")
        parts.append(f'{_attr_name(name)}="{escape(str(value), quote=True)}"')
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


def text(x, y, content, size=12, anchor="start", weight=None, fill=INK, **values):
    return el("text", escape(str(content), quote=False), x=x, y=y, font_size=size,
              text_anchor=anchor, font_weight=weight, fill=fill, **values)


def group(*children, **values):
    return el("g", *children, **values)


def place(x, y, *children, **values):
    """A group moved to ``(x, y)``."""
    return group(*children, transform=f"translate({x:g},{y:g})", **values)


def ref(*parts):
    """The value of a ``data-`` attribute that names a thing by its coordinates: ``"1,0"``."""
    return ",".join(str(p) for p in parts)


def legend(x, y, players, viewer, extra=()):
    """One line per seat (colour, name, 'you'), then ``extra`` ``(swatch, label)`` rows."""
    rows = []
    for i, player in enumerate(players):
        seat = player.get("seat", i)
        name = player.get("name") or f"Seat {seat}"
        label = f"{name} ({SEAT_COLOUR_NAMES[seat % len(SEAT_COLOUR_NAMES)]})"
        if seat == viewer:
            label += " - you"
        rows.append(place(0, 18 * i,
                          el("rect", width=12, height=12, y=-10, rx=2, fill=seat_colour(seat)),
                          text(18, 0, label, size=12), data_seat=seat))
    for j, (swatch, label) in enumerate(extra, start=len(rows)):
        rows.append(place(0, 18 * j, swatch, text(18, 0, label, size=12)))
    return place(x, y, text(0, -18, "Legend", size=13, weight="bold"), *rows, class_="legend")


def document(width, height, heading, description, *body):
    """The whole ``<svg>``: scalable (viewBox, no fixed size), titled and described."""
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
        class_="tabula-board",
        preserveAspectRatio="xMidYMin meet",
    )
