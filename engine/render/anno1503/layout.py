"""Where things go: the picture's size, the sea's squares, the supply and the panels.

A variant's look (``variant.BaseLook``) gives the board's size and squares.
"""

from functools import lru_cache

from ...games.anno1503.data import COLS

WIDTH = 1360
MARGIN = 16
HEADER_H = 78
PANEL_GAP = 16
PANEL_W = (WIDTH - 2 * MARGIN - PANEL_GAP) // 2
BASE_PANEL_H = 246
BASE_SUPPLY_H = 58
SLOT_W, SLOT_H = 56, 48  # an inhabitant slot (its picture is a symbol)
# Squares from this column on lie on a board east of the main board (past ``gap``).
EAST_COL = COLS


class Layout:
    """Where the sea, legend, supply and panels go for one look and player count."""

    def __init__(self, look, num_players):
        self.look = look
        self.square = look.square
        self.gap = look.gap
        self.board_x = MARGIN + 22  # room for row numbers
        self.board_y = HEADER_H + 26  # room for column numbers
        self.rows, self.cols = look.rows, look.cols
        self.board_w = self.cols * self.square + self.gap
        self.board_h = self.rows * self.square
        self.legend_x = self.board_x + self.board_w + 28
        self.supply_y = self.board_y + self.board_h + 24
        self.supply_h = look.supply_h
        self.panels_y = self.supply_y + self.supply_h + 10
        self.panel_h = look.panel_h
        panel_rows = (num_players + 1) // 2
        self.height = self.panels_y + panel_rows * (self.panel_h + PANEL_GAP)

    def xy(self, r, c):
        """Top-left corner of square ``[r, c]``; a board east of the main one sits past the gap."""
        x = self.board_x + c * self.square + (self.gap if c >= EAST_COL else 0)
        return x, self.board_y + r * self.square

    def panel_xy(self, index):
        """Top-left corner of the ``index``-th panel: two a row."""
        return (
            MARGIN + (index % 2) * (PANEL_W + PANEL_GAP),
            self.panels_y + (index // 2) * (self.panel_h + PANEL_GAP),
        )


@lru_cache(maxsize=16)
def layout(look, num_players):
    return Layout(look, num_players)
