"""What the picture calls the base game's things: phases, choices, buildings, goals, tiles and
seats (a variant's look adds its own: ``variant.BaseLook``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..svg import seat_name

if TYPE_CHECKING:
    from typing import Any


if TYPE_CHECKING:
    from ...core import View


PHASES = {
    "production": "production",
    "golden_times": "golden times",
    "pirates": "pirates",
    "reserve_placement": "reserve placement",
    "main": "main",
    "tile_decision": "tile decision",
    "discard": "discard",
    "over": "game over",
}
CHOICES = {
    "production": "choose a commodity",
    "golden_times": "golden times: choose a commodity",
    "lose_tile": "pirates: give up a tile",
    "reserve_placement": "place the reserve tile",
}
# Short enough for a chip or a slot-wide site.
BUILDING_SHORT = {
    "big_branch_office": "Big BO",
    "fire_brigade": "Fire",
    "smithy": "Smithy",
    "church": "Church",
    "school": "School",
    "bath_house": "Bath",
    "restaurant": "Restaur.",
    "shipyard": "Shipyard",
}
GOAL_LABELS = {
    "gold": "30 gold",
    "branch_offices": "4 offices",
    "trade_agreements": "3 agreements",
    "public_buildings": "4 buildings",
    "merchants": "3 merchants",
}


def phase_words(view: View, phases=PHASES):
    """The view's phase in words (``phases``: a look's, with its variant's phases)."""
    return phases.get(view["phase"], view["phase"])


def plain(word):
    """An identifier as words: ``bath_house`` -> ``bath house``."""
    return str(word).replace("_", " ")


def counts(items):
    """``name count`` pairs in words, for a row's title."""
    return ", ".join(f"{plain(k)} {v}" for k, v in items)


def tile_words(tile: dict[str, Any]):
    """Two short lines naming a face-up base tile, and its full description for a title."""
    kind = tile.get("kind")
    if kind == "branch_office":
        return ("Office", tile["commodity"]), f"branch office ({tile['commodity']})"
    if kind == "trade_agreement":
        return ("Trade", "deal"), "trade agreement"
    if kind == "treasure_gold":
        return ("Gold", "+12"), "gold treasure (12 gold)"
    if kind == "treasure_upgrade":
        return ("Up-", "grade"), "upgrade treasure (develops an inhabitant)"
    return (str(kind), ""), str(kind)


def tile_name(tile: dict[str, Any]):
    """A face-up tile in words, for titles and the status line."""
    return tile_words(tile)[1]


def ship_number(index):
    """The number people read for ship ``index``: counted from 1 (``data-ship`` keeps the index)."""
    return index + 1


def ship_words(name, index):
    """How a title names a ship: "Seat 2's ship 1"."""
    return f"{name}'s ship {ship_number(index)}"


def seat_names(view: View):
    """Every seat's name by seat number, as the web client names them."""
    return [seat_name(player) for player in view["players"]]


def seat_note(player: dict[str, Any]):
    """After a chosen name, " (seat 2)" for a title; nothing after "Seat 2", which says it already."""
    return f" (seat {player['seat'] + 1})" if player.get("name") else ""


def name_of(names: list[str], seat):
    """A seat's name, or "nobody" for no seat."""
    return names[seat] if seat is not None and 0 <= seat < len(names) else "nobody"
