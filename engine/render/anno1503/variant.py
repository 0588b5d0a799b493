"""The base game's answers at the renderer's variant hooks.

``render`` picks the look of the view's variant (``variants.look_of``); the
layout and the drawing modules call it at these points, and a variant's look
(``expansion.hooks.ExpansionLook``) overrides them:

Layout (``layout``)
    ``square``, ``gap`` (between the main board and a board east of it),
    ``rows``, ``cols``, ``supply_h``, ``panel_h``, ``square_kinds()``
    (``{(r, c): kind}`` of every square), ``islets`` (``{space: marks}``).
Board (``board``)
    ``board_frame(lay)`` (edges beyond the main board's), ``special_square(kind, sq, body, s, note)``
    (a square kind of the variant's: its title and picture), ``combat(view)``
    (the battle in progress, or None), ``damaged_ships(player)``.
    ``square_looks`` (sea square kind -> title, mark, class), ``sea_class(sq)``,
    ``back_kind(sq)`` (a face-down tile's symbol), ``space_choices`` (choice kinds
    whose options are squares to outline).
Supply, legend, panels, header
    ``supply_parts(view, y)``, ``legend_rows()``, ``panel_parts(player, y, width)``,
    ``free_bridge`` (the symbol and words of a free bridge of the ``?`` number), ``subtitle``,
    ``combat_runs(combat, names)`` (the header's battle).
Words and colours
    ``phases``, ``choices``, ``goal_labels`` (name -> words), ``tile_words(tile)``,
    ``tile_name(tile)``, ``tile_colours(tile)``.
Shared by every variant's picture (``symbols.defs``, ``variants.CLICK_TARGETS``)
    ``style_rules`` (after which ``look.STYLE_PARTS`` part), ``sea_patterns``,
    ``sea_mark_defs``, ``back_kinds``, ``bridge_kinds``, ``click_targets``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from ...games.anno1503.data import DOLPHIN, SEA, SPACES, START
from ...games.anno1503.variant import BASE_GAME
from . import words
from .layout import BASE_PANEL_H, BASE_SUPPLY_H
from .look import tile_colours

if TYPE_CHECKING:
    from typing import Any

    from ...core import View


# The base game's actions that name a place on the board (``__init__``: the click contract).
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
}
# Sea square kind -> (title, mark symbol, class; None: the square's ``sea_class``).
SQUARE_LOOKS = {
    "sea": ("Sea square", None, None),
    "start": ("Start square (new ships)", "#a15-anchor", "start"),
    "dolphin": ("Dolphin square (passage between the seas)", "#a15-dolphin", None),
}


class BaseLook:
    """The base game's board: one 5x12 sea, no variant parts."""

    rules = BASE_GAME
    name = rules.name
    square = 80
    gap = 0
    rows, cols = 5, 12
    supply_h = BASE_SUPPLY_H
    panel_h = BASE_PANEL_H
    free_bridge = ("#a15-nob", "none on the any-commodity number")
    subtitle = ""
    space_choices = rules.space_choices
    square_looks: ClassVar[dict[str, tuple[str, str | None, str | None]]] = SQUARE_LOOKS
    phases: ClassVar[dict[str, str]] = words.PHASES
    choices: ClassVar[dict[str, str]] = words.CHOICES
    goal_labels: ClassVar[dict[str, str]] = words.GOAL_LABELS
    style_rules: ClassVar[dict[str, str]] = {}
    sea_patterns: tuple[tuple[str, str], ...] = ()
    sea_mark_defs = ""
    back_kinds: tuple[tuple[str, str], ...] = ()
    bridge_kinds: tuple[tuple[Any, ...], ...] = ()
    click_targets: ClassVar[dict[str, list[list[Any]]]] = CLICK_TARGETS

    def __init__(self):
        geo = self.rules.geometry
        self.islets = dict(zip(geo.spaces, geo.marks))

    # --- layout -------------------------------------------------------------------

    def square_kinds(self):
        """``{(r, c): kind}`` for every square of the board, row by row."""
        spaces = set(SPACES)
        return {sq: self._square_kind(sq, spaces) for sq in sorted(SEA | spaces)}

    def _square_kind(self, sq, spaces):
        if sq in spaces:
            return "space"
        if sq == START:
            return "start"
        return "dolphin" if sq == DOLPHIN else "sea"

    # --- board --------------------------------------------------------------------

    def board_frame(self, lay):
        return ""

    def sea_class(self, sq):
        return "sea"

    def back_kind(self, sq):
        return "back"

    def special_square(self, kind, sq, body, s, note):
        return None

    def combat(self, view: View):
        return None

    def damaged_ships(self, player: dict[str, Any]):
        return (False, False)

    # --- supply, legend, panels ---------------------------------------------------

    def supply_parts(self, view: View, y):
        return []

    def legend_rows(self):
        return ()

    def panel_parts(self, player: dict[str, Any], y: float, width):
        return []

    def combat_runs(self, combat, names: list[str]):
        raise AssertionError("the base game has no sea battles")

    # --- words and colours --------------------------------------------------------

    def tile_words(self, tile: dict[str, Any]):
        return words.tile_words(tile)

    def tile_name(self, tile: dict[str, Any]):
        return self.tile_words(tile)[1]

    def tile_colours(self, tile: dict[str, Any]):
        return tile_colours(tile)


BASE_LOOK = BaseLook()
