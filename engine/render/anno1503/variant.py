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
Supply, legend, panels, header
    ``supply_parts(view, y)``, ``legend_rows()``, ``panel_parts(player, y, width)``,
    ``free_bridge`` (what a free bridge of the ``?`` number shows), ``subtitle``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...games.anno1503.data import DOLPHIN, SEA, SPACES, START
from ...games.anno1503.variant import BASE_GAME
from .layout import BASE_PANEL_H, BASE_SUPPLY_H

if TYPE_CHECKING:
    from typing import Any


if TYPE_CHECKING:
    from ...core import View


class BaseLook:
    """The base game's board: one 5x12 sea, no variant parts."""

    rules = BASE_GAME
    name = rules.name
    square = 80
    gap = 0
    rows, cols = 5, 12
    supply_h = BASE_SUPPLY_H
    panel_h = BASE_PANEL_H
    free_bridge = "none"
    subtitle = ""

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


BASE_LOOK = BaseLook()
