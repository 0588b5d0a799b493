"""The expansion's aristocrat island in a seat's panel: manor, cannons, buildings, lairs, cards."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...svg import INK, el, fit, group, place, title
from ..look import chip, label, track
from ..words import plain
from ..words import tile_words as base_tile_words
from .vocabulary import ARISTO, ARISTO_SHORT, LAIR_COLOURS, tile_words

if TYPE_CHECKING:
    from typing import Any


ISLAND_H = 94
SITE_W = 74


def aristocrat_island(player: dict[str, Any], x: float, y: float, width):
    """The island of ``width`` at ``(x, y)``: manor and cannons, then buildings and lairs, then cards."""
    a = player["aristocrat"]
    parts = [
        el("rect", x=x, y=y, width=width, height=ISLAND_H, rx=8, fill="#f4eefa", stroke="#b59cc7"),
        label(x + 10, y + 20, "Aristocrat island", "b f13"),
    ]
    mx = x + 140
    parts.append(
        place(
            mx,
            y + 20,
            title(f"Manor: step {a['manor']} of 9"),
            label(0, 0, f"Manor {a['manor']}/9"),
            track(58, -4, a["manor"], 9, 15, 12, ARISTO),
        )
    )
    parts.append(
        place(
            mx + 210,
            y + 20,
            title(f"{a['cannons']} cannons, strength {a['cannon_strength']}"),
            label(0, 0, f"Cannons {a['cannons']} (strength {a['cannon_strength']})"),
            track(140, -4, a["cannons"], 6, 13, 10, INK, round_cells=True),
        )
    )
    row = y + 40
    parts += [_sites(a["buildings"], x, row), _lairs(a["lairs"], x + 322, row)]
    parts.append(_cards(a, x + 10, row + 26, width))
    return "".join(parts)


def _sites(buildings, x: float, y: float):
    """Three building sites; the third (the skull) needs a defeated lair. One title tells the row."""
    built = ", ".join(plain(b) for b in buildings) or "none"
    parts = [
        title(f"Aristocrat buildings: {built} (3 sites, the third needs a defeated lair)"),
        label(x + 10, y + 13, "Buildings", "u"),
    ]
    for i in range(3):
        bx = x + 70 + i * 80
        if i < len(buildings):
            parts += [
                el("rect", x=bx, y=y, width=SITE_W, height=20, rx=4, class_="ab"),
                label(bx + SITE_W / 2, y + 14, ARISTO_SHORT.get(buildings[i], buildings[i]), "m"),
            ]
        else:
            parts += [
                el("rect", x=bx, y=y, width=SITE_W, height=20, rx=4, class_="asite"),
                label(bx + SITE_W / 2, y + 14, "skull site" if i == 2 else "free site", "m u"),
            ]
    return group(*parts)


def _lairs(lairs, x: float, y: float):
    """The defeated lairs as chips of their strength, each titled in full."""
    parts = [label(x, y + 13, "Lairs", "u")]
    for i, lair in enumerate(lairs):
        element, _ = chip(
            x + 36 + i * 56,
            y + 1,
            f"str {lair.get('strength')}",
            LAIR_COLOURS[0],
            None,
            "m w",
            f"Defeated lair: {(tile_words(lair) or base_tile_words(lair))[1]}",
        )
        parts.append(element)
    if not lairs:
        parts.append(label(x + 36, y + 13, "none", "u"))
    return "".join(parts)


def _cards(a, x: float, y: float, width):
    """The own aristocrat cards by name; another seat's only as a count."""
    parts = [label(x, y + 13, "Cards", "u")]
    cards = a.get("cards")
    if cards is not None:
        words = ", ".join(plain(c) for c in cards) if cards else "none"
        parts.append(
            group(
                title(f"Your aristocrat cards: {words}"),
                label(x + 60, y + 13, fit(words, width - 80, 11, bold=True), "b"),
            )
        )
    else:
        count = a.get("cards_count", 0)
        parts.append(
            group(title(f"{count} aristocrat cards (hidden)"), label(x + 60, y + 13, f"{count} (hidden)"))
        )
    return "".join(parts)
