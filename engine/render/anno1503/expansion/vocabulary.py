"""What the picture calls and paints the Pirates & Aristocrats things: words,
colours, style rules, symbols and click targets the base look does not know.

``hooks.ExpansionLook`` hands them to the base modules at the look's hooks
(``variant.BaseLook``); nothing here is drawn by itself.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...svg import INK, el
from ..look import DANGER, MUTED, WHITE, commodity_colours

if TYPE_CHECKING:
    from typing import Any


# --- colours ----------------------------------------------------------------------

PIRATE_SEA_FILL = "#4b86bd"
PIRATE_SQUARE_FILL = "#2f4a66"
CROWN_BACK = "#6b4a7a"  # expansion tiles only ever lie on the pirate sea
ARISTO = "#8e63b5"
LAIR_COLOURS = ("#3a2a2a", WHITE)

# --- words ----------------------------------------------------------------------

PHASES = {"sea_battle": "sea battle", "card_discard": "card discard"}
CHOICES = {
    "pirate_sea_placement": "place a tile on the pirate sea",
    "pirate_attack": "pirates attack (pay 3 gold or fight)",
    "sea_hero": "tie: play the Sea Hero or reroll",
    "pirate_penalty": "battle lost: give a card or gold",
    "pirate_offer": "peaceful pirates offer goods",
}
ARISTO_SHORT = {
    "richest_aristocrat": "Richest",
    "university": "University",
    "library": "Library",
    "park": "Park",
    "cathedral": "Cathedral",
    "theatre": "Theatre",
}
GOAL_LABELS = {"aristocrat_buildings": "3 aristocrat bldgs", "lairs": "2 lairs", "manor": "manor 9"}
SQUARE_LOOKS = {"pirate": ("Pirate square (entering draws a pirate card)", "#a15-skull", "pir")}
# The expansion's actions: the Library's slot, the ship to repair or to play a card with.
CLICK_TARGETS = {
    "build_aristocrat": [["slot", "slot", True]],
    "repair_ship": [["ship", "ship", True]],
    "play_card": [["ship", "ship", True]],
}


def tile_words(tile: dict[str, Any]):
    """``tile_words`` (``words``) of the expansion's tiles; None for another kind."""
    kind = tile.get("kind")
    if kind == "luxury_office":
        return ("Luxury", tile["commodity"]), f"luxury office ({tile['commodity']})"
    if kind == "lair":
        return (
            ("Lair", f"str {tile.get('strength')}"),
            f"pirate lair (strength {tile.get('strength')}, luxuries -{tile.get('discount')} gold)",
        )
    return None


def tile_colours(tile: dict[str, Any]):
    """``(fill, ink)`` of the expansion's tiles; None for another kind."""
    kind = tile.get("kind")
    if kind == "luxury_office":
        return commodity_colours(tile.get("commodity"))
    return LAIR_COLOURS if kind == "lair" else None


def combat_runs(combat, names: list[str], name_run, ship_number):
    """The header's battle: "Battle: Seat 1's ship 2 vs a lair (strength 5)"."""
    runs = [
        ("Battle: ", DANGER, True),
        name_run(names, combat.get("seat")),
        (f"'s ship {ship_number(combat['ship'])} vs ", INK, False),
    ]
    if combat.get("kind") == "lair":
        tile = combat.get("tile") or {}
        runs.append((f"a lair (strength {tile.get('strength', combat.get('strength'))})", INK, True))
    elif (combat.get("card") or {}).get("kind") == "peaceful":
        runs.append(("peaceful pirates", INK, True))
    elif combat.get("pirate") is not None:
        runs += [
            ("pirate ", INK, False),
            name_run(names, combat["pirate"]),
            (f" (strength {combat.get('strength')})", INK, False),
        ]
    elif combat.get("strength") is not None:
        runs.append((f"pirates as strong ({combat.get('strength')})", INK, True))
    else:
        runs.append(("pirates", INK, True))
    return runs


# --- the shared style sheet and symbols (look.style_sheet, symbols.defs) ------------------

# After the base rule of each key.
STYLE_RULES = {
    "sea": ".a15 .psea{fill:url(#a15-psea);stroke:#346c9f}",
    "start": f".a15 .pir{{fill:{PIRATE_SQUARE_FILL};stroke:#22384f}}",
    "back": f".a15 .cback{{fill:{CROWN_BACK};stroke:{INK}}}",
    "site": f".a15 .ab{{fill:#d9c6ea;stroke:{ARISTO}}}.a15 .asite{{fill:none;stroke:#b59cc7;stroke-dasharray:3 3}}",
}
SEA_PATTERNS = (("a15-psea", PIRATE_SEA_FILL),)
BACK_KINDS = (("cback", CROWN_BACK),)
BRIDGE_KINDS = (("lux", "luxury only", "none", "#b5b5b5", "4 3", MUTED),)
# The skull of a pirate square.
SEA_MARK_DEFS = el(
    "g",
    el("circle", cy=-3, r=10, fill=WHITE),
    el("rect", x=-6, y=4, width=12, height=7, rx=2, fill=WHITE),
    el("circle", cx=-4, cy=-3, r=3, fill=PIRATE_SQUARE_FILL),
    el("circle", cx=4, cy=-3, r=3, fill=PIRATE_SQUARE_FILL),
    id="a15-skull",
    opacity=0.85,
)
FREE_BRIDGE = ("#a15-lux", "free for a luxury office")
