"""Where things go: the picture's size, the sea's squares, the supply and the panels."""

from functools import lru_cache

from ...games.anno1503.data import DOLPHIN, MARKS, SEA, SPACES, START
from ...games.anno1503.expansion.data import (
    ALL_SEA,
    GEOMETRY,
    PIRATE_COL,
    PIRATE_DOLPHIN,
    PIRATE_SPACES,
    PIRATE_SQUARES,
    PORT,
)

WIDTH = 1360
MARGIN = 16
HEADER_H = 78
PANEL_GAP = 16
PANEL_W = (WIDTH - 2 * MARGIN - PANEL_GAP) // 2
BASE_PANEL_H = 246
ARISTOCRAT_PANEL_H = 352  # with the aristocrat island
SLOT_W, SLOT_H = 56, 48  # an inhabitant slot (its picture is a symbol)
# Islets printed on each island space (2-4), main board and pirate sea.
ISLETS = {**dict(zip(SPACES, MARKS)), **dict(zip(PIRATE_SPACES, GEOMETRY.marks[len(SPACES) :]))}


class Layout:
    """Where the sea, legend, supply and panels go for one set of options."""

    def __init__(self, expansion, num_players):
        self.expansion = expansion
        self.square = 56 if expansion else 80
        self.gap = 28 if expansion else 0  # between the main board and the pirate sea
        self.board_x = MARGIN + 22  # room for row numbers
        self.board_y = HEADER_H + 26  # room for column numbers
        self.rows, self.cols = (6, 18) if expansion else (5, 12)
        self.board_w = self.cols * self.square + self.gap
        self.board_h = self.rows * self.square
        self.legend_x = self.board_x + self.board_w + 28
        self.supply_y = self.board_y + self.board_h + 24
        self.supply_h = 86 if expansion else 58
        self.panels_y = self.supply_y + self.supply_h + 10
        self.panel_h = ARISTOCRAT_PANEL_H if expansion else BASE_PANEL_H
        panel_rows = (num_players + 1) // 2
        self.height = self.panels_y + panel_rows * (self.panel_h + PANEL_GAP)

    def xy(self, r, c):
        """Top-left corner of square ``[r, c]``; the pirate sea sits east past the gap."""
        x = self.board_x + c * self.square + (self.gap if c >= PIRATE_COL else 0)
        return x, self.board_y + r * self.square

    def panel_xy(self, index):
        """Top-left corner of the ``index``-th panel: two a row."""
        return (
            MARGIN + (index % 2) * (PANEL_W + PANEL_GAP),
            self.panels_y + (index // 2) * (self.panel_h + PANEL_GAP),
        )


@lru_cache(maxsize=16)
def layout(expansion, num_players):
    return Layout(expansion, num_players)


def square_kinds(expansion):
    """``{(r, c): kind}`` for every square of the board, main board first."""
    sea = ALL_SEA if expansion else SEA
    spaces = set(SPACES) | (set(PIRATE_SPACES) if expansion else set())
    kinds = {}
    for sq in sorted(sea | spaces, key=lambda s: (s[1] >= PIRATE_COL, s[0], s[1])):
        kinds[sq] = _square_kind(sq, spaces, expansion)
    return kinds


def _square_kind(sq, spaces, expansion):
    if sq in spaces:
        return "port" if expansion and sq == PORT else "space"
    if sq == START:
        return "start"
    if sq in (DOLPHIN, PIRATE_DOLPHIN):
        return "dolphin"
    return "pirate" if sq in PIRATE_SQUARES else "sea"
