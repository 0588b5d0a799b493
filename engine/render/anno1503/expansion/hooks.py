"""``ExpansionLook``: the Pirates & Aristocrats answers at the renderer's
hooks (``variant.BaseLook`` lists them)."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from ....games.anno1503.data import DOLPHIN, START
from ....games.anno1503.expansion.data import ALL_SEA, PIRATE_DOLPHIN, PIRATE_SPACES, PIRATE_SQUARES, PORT
from ....games.anno1503.expansion.hooks import EXPANSION_RULES
from ...svg import el, group, ref, title
from ..header import name_run
from ..layout import EAST_COL, MARGIN
from ..look import COMMODITY_COLOURS, DANGER, WHITE, chip_row, label
from ..supply import CHIPS_X, swatch
from ..variant import BaseLook
from ..words import counts, ship_number
from . import vocabulary as vocab
from .aristocrat import aristocrat_island

if TYPE_CHECKING:
    from typing import Any

    from ....core import View


_PANEL_H = 352  # with the aristocrat island
_SUPPLY_H = 86  # with the expansion's piles


class ExpansionLook(BaseLook):
    """Two seas side by side, the expansion's piles, an aristocrat island per seat."""

    rules = EXPANSION_RULES
    name = rules.name
    square = 56
    gap = 28  # between the main board and the pirate sea
    rows, cols = 6, 18
    supply_h = _SUPPLY_H
    panel_h = _PANEL_H
    free_bridge = vocab.FREE_BRIDGE  # a luxury office may use the ? number's bridge
    subtitle = " with Pirates & Aristocrats"
    space_choices = rules.space_choices
    square_looks: ClassVar[dict[str, tuple[str, str | None, str | None]]] = {
        **BaseLook.square_looks,
        **vocab.SQUARE_LOOKS,
    }
    phases: ClassVar[dict[str, str]] = {**BaseLook.phases, **vocab.PHASES}
    choices: ClassVar[dict[str, str]] = {**BaseLook.choices, **vocab.CHOICES}
    goal_labels: ClassVar[dict[str, str]] = {**BaseLook.goal_labels, **vocab.GOAL_LABELS}
    style_rules = vocab.STYLE_RULES
    sea_patterns = vocab.SEA_PATTERNS
    sea_mark_defs = vocab.SEA_MARK_DEFS
    back_kinds = vocab.BACK_KINDS
    bridge_kinds = vocab.BRIDGE_KINDS
    click_targets: ClassVar[dict[str, list[list[Any]]]] = {**BaseLook.click_targets, **vocab.CLICK_TARGETS}

    # --- layout -------------------------------------------------------------------

    def square_kinds(self):
        """``{(r, c): kind}`` for every square, the main board first."""
        spaces = set(self.islets) | set(PIRATE_SPACES)
        squares = sorted(ALL_SEA | spaces, key=lambda s: (s[1] >= EAST_COL, s[0], s[1]))
        return {sq: self._square_kind(sq, spaces) for sq in squares}

    def _square_kind(self, sq, spaces):
        if sq in spaces:
            return "port" if sq == PORT else "space"
        if sq == START:
            return "start"
        if sq in (DOLPHIN, PIRATE_DOLPHIN):
            return "dolphin"
        return "pirate" if sq in PIRATE_SQUARES else "sea"

    # --- board --------------------------------------------------------------------

    def board_frame(self, lay):
        """The pirate sea's edge, its row 5 and the passage between the seas."""
        s = lay.square
        px, py = lay.xy(0, EAST_COL)
        (ax, ay), (bx, _) = lay.xy(*DOLPHIN), lay.xy(*PIRATE_DOLPHIN)
        return "".join(
            [
                el("rect", x=px - 4, y=py - 4, width=6 * s + 8, height=6 * s + 8, rx=8, fill="#22384f"),
                el("rect", x=px, y=py, width=6 * s, height=6 * s, fill="url(#a15-psea)"),
                # The main board has no row 5: its number sits by the pirate sea only.
                label(px - 8, lay.board_y + 5 * s + s / 2 + 4, 5, "e u"),
                # The only passage between the seas: a dashed wake across the gap.
                el(
                    "path",
                    d=f"M{ax + s - 4} {ay + s // 2}H{bx + 4}",
                    stroke=WHITE,
                    stroke_width=4,
                    stroke_dasharray="6 5",
                    stroke_linecap="round",
                ),
                label(lay.board_x + 6 * s, lay.board_y + 5 * s + 20, "Main board", "m u f13"),
                label(px + 3 * s, py + 6 * s + 20, "Pirate sea", "m b f13"),
            ]
        )

    def sea_class(self, sq):
        return "psea" if sq[1] >= EAST_COL else "sea"

    def back_kind(self, sq):
        return "cback" if sq[1] >= EAST_COL else "back"

    def special_square(self, kind, sq, body, s, note):
        if kind != "port":
            return None
        return title(f"Port {ref(*sq)}: new ships may start beside it{note}") + body + _port(s)

    def combat(self, view: View):
        return (view.get("expansion") or {}).get("combat")

    def damaged_ships(self, player: dict[str, Any]):
        aristocrat = player.get("aristocrat")
        return aristocrat["damaged"] if aristocrat else (False, False)

    # --- supply, legend, panels ---------------------------------------------------

    def supply_parts(self, view: View, y):
        piles = view.get("expansion")
        return [_piles(piles, y)] if piles else []

    def legend_rows(self):
        return (
            (swatch(vocab.PIRATE_SQUARE_FILL), "Pirate square"),
            (swatch(cls="cback", caption="3"), "Pirate-sea tile (back)"),
            (swatch(COMMODITY_COLOURS["silk"][0]), "Luxury office"),
            (swatch(vocab.LAIR_COLOURS[0]), "Pirate lair"),
            (el("path", d="M1-10l12 12M13-10l-12 12", stroke=DANGER, stroke_width=3), "Damaged ship"),
        )

    def panel_parts(self, player: dict[str, Any], y: float, width):
        return [aristocrat_island(player, 12, y, width)] if player.get("aristocrat") else []

    def combat_runs(self, combat, names: list[str]):
        return vocab.combat_runs(combat, names, name_run, ship_number)

    # --- words and colours --------------------------------------------------------

    def tile_words(self, tile: dict[str, Any]):
        return vocab.tile_words(tile) or super().tile_words(tile)

    def tile_colours(self, tile: dict[str, Any]):
        return vocab.tile_colours(tile) or super().tile_colours(tile)


def _port(s):
    """The port: a wooden pier on the island space."""
    pier = (
        f"M{s * 0.22:.0f} {s * 0.34:.0f}h{s * 0.56:.0f}v{s * 0.13:.0f}h-{s * 0.56:.0f}z"
        f"M{s * 0.43:.0f} {s * 0.1:.0f}h{s * 0.14:.0f}v{s * 0.56:.0f}h-{s * 0.14:.0f}z"
    )
    return el("path", d=pier, fill="#8d6e4a") + label(s / 2, s - 7, "Port", "m b")


def _piles(piles_view, y: float):
    """The pirate and aristocrat piles, the luxury reserve, then the aristocrat buildings."""
    piles = (
        ("Pirate deck", piles_view["pirate_deck_size"]),
        ("Pirate discard", len(piles_view.get("pirate_discard") or [])),
        ("Aristocrat deck", piles_view["aristocrat_deck_size"]),
        ("Aristocrat discard", piles_view["aristocrat_discard_size"]),
        ("Luxury reserve", piles_view["expansion_reserve_size"]),
    )
    chips, x = chip_row(CHIPS_X, y, [(f"{name} {count}", "#e6edf5", "ch", "m") for name, count in piles])
    stock = piles_view["aristocrat_buildings"]
    buildings, _ = chip_row(
        x + 8,
        y,
        [
            (
                f"{vocab.ARISTO_SHORT.get(name, name)} {count}",
                None,
                "ab" if count else "goal",
                "m" if count else "m u",
            )
            for name, count in stock.items()
        ],
        gap=5,
    )
    return group(
        title(f"Piles: {counts(piles)}"), label(MARGIN, y + 13, "Expansion", "b f13"), *chips
    ) + group(title(f"Aristocrat buildings in the supply: {counts(stock.items())}"), *buildings)


EXPANSION_LOOK = ExpansionLook()
