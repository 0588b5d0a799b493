"""The board picture of an Anno 1452 match, drawn from one viewer's view.

``render(view, viewer)`` reads only ``game.view(state, viewer)``, so the
picture is redacted exactly as the view is: the viewer's own hand as cards,
other seats' hands as counts, a trade offer's content only when the view
holds it (its two parties), a draft only for its author.

What is drawn, and where it is drawn from:

* ``header``: the year, the action round or phase, the options, and the time
  table's 14 rows (coronations crowned, the current row dark, the final year
  framed);
* ``map``: a schematic parchment map of the Empire's 16 regions, laid out in
  ``data/anno1452_layout.json`` (the rules data has no geometry). Regions
  that border each other (``map.json``) share an edge, drawn as a dashed
  border line (a test holds the two together). Each region shows its name (on
  a banner in the holder's colour, and a tint, when it is a Principality), its
  City towers (built filled, of those allowed) and one slot per Estate its
  shield allows: a house in the owner's colour with its Citizens (a castle
  when it has a City, dots when its strength is below 3), or a dashed outline
  when free. Ottokar's pieces are neutral grey. A battle is a red arrow from
  the attacking Estate to its target (a ring when the crown's Soldiers attack
  alone);
* ``boxes``: "The Empire", a cartouche in the map's sea (King and Anti-King
  with their Soldiers, Interregnum, the turn order and the next one while it
  is being chosen, deck and discard pile, Landfrieden and pacts), and "Now"
  (whose decision it is and what, the battle, the trade, the Special Actions
  of the evaluation round, the result);
* ``panels``: a panel per player (gold, prestige, victory points, Estates,
  Citizens, Cities, Principalities, Titles, marriage, hand size, badges: you,
  to act, King, turn order...);
* ``cards``: the viewer's own hand and the two-player open cards as readable
  cards under the map; ``header`` also draws the legend.

Seats are named as the web client names them: the player's name, else
"Seat 1", "Seat 2"... counted from 1 (``svg.seat_name``); Ottokar by his name.

Clickable things carry ``data-`` attributes whose values are action
parameter values (a list joined with ",", else ``str``), so a client can hang
legal actions on them without knowing the geometry:

* ``data-region="Franken"``: each region (``place_estate`` and
  ``build_estate`` ``region``, ``play_special`` ``region``);
* ``data-estate="4,1"``: each Estate slot, drawn even when empty (region
  index, slot: ``settle`` ``at``/``at2``/``at3``, ``attack`` ``target``/``from``,
  ``build_city`` ``at``, ``play_special`` ``target``/``from``,
  ``draft_add``/``draft_remove`` ``estate``);
* ``data-card="57"``: each face-up card of the viewer's hand and the open
  cards (``marry``, ``inherit``, ``discard``, ``take_title``, ``react``...);
* ``data-open-card="2"``: each open card (``swap_open`` ``open_card``);
* ``data-seat="1"``: each player panel, and nothing else (``draft_offer``
  ``to``, ``kindbett`` ``target``);
* ``data-position="2"``: each place of the next turn order while it is being
  chosen (``choose_position``).

``CLICK_TARGETS`` lists, per action type, ``[param, attribute, own]`` in order
of preference: the first param present in an action names the element the
client hangs it on (``own`` is never needed here: no value is per seat). It
is also on the root ``<svg>`` as ``data-click-targets`` (compact JSON).
Actions without a place (pass, keep_hand, commit_soldiers, ...) are left to
buttons.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..svg import document, group
from .boxes import now_box
from .cards import cards_under_map
from .header import header, legend_box
from .look import BACKGROUND, DEFS, MAP_Y, MARGIN, WIDTH, rect
from .map import MAP_H, draw_map
from .panels import player_panel
from .words import phase_text, player_name

if TYPE_CHECKING:
    from ...core import View


CLICK_TARGETS = {
    "place_estate": [["region", "region", False]],
    "build_estate": [["region", "region", False]],
    "settle": [["at", "estate", False], ["at2", "estate", False], ["at3", "estate", False]],
    "attack": [["target", "estate", False], ["from", "estate", False]],
    "build_city": [["at", "estate", False], ["card", "card", False]],
    "marry": [["card", "card", False], ["discard", "card", False]],
    "take_title": [["card", "card", False]],
    "inherit": [["card", "card", False]],
    # One action per target seat: the panels tell them apart, the card does not.
    "kindbett": [["target", "seat", False], ["card", "card", False]],
    "play_special": [
        ["target", "estate", False],
        ["from", "estate", False],
        ["region", "region", False],
        ["card", "card", False],
    ],
    "react": [["card", "card", False]],
    "discard": [["card", "card", False]],
    "swap_open": [["card", "card", False], ["open_card", "open-card", False]],
    "draft_offer": [["to", "seat", False]],
    "draft_add": [["estate", "estate", False], ["card", "card", False]],
    "draft_remove": [["estate", "estate", False], ["card", "card", False]],
    "choose_position": [["position", "position", False]],
}


def render(view: View, viewer: int | None | None = None):
    """The SVG document of an Anno 1452 ``view`` as ``viewer`` (a seat or None) sees it."""
    cards_svg, cards_h = cards_under_map(view, viewer, MAP_Y + MAP_H + 12)
    right_svg, right_bottom = _right_column(view, viewer)
    height = max(MAP_Y + MAP_H + 12 + cards_h, right_bottom) + MARGIN
    return document(
        WIDTH,
        height,
        f"Anno 1452 - {view['year']}, {phase_text(view)}",
        _description(view, viewer),
        DEFS,
        rect(0, 0, WIDTH, height, fill=BACKGROUND),
        header(view),
        draw_map(view),
        right_svg,
        cards_svg,
        click_targets=CLICK_TARGETS,
    )


def _right_column(view: View, viewer: int | None):
    """ "Now", the players' panels and the legend, top to bottom; returns (svg, bottom)."""
    box, h = now_box(view, viewer, MAP_Y)
    parts, y = [box], MAP_Y + h + 10
    for seat in range(len(view["players"])):
        panel, h = player_panel(view, viewer, seat, y)
        parts.append(panel)
        y += h + 8
    legend_svg, h = legend_box(view, viewer, y + 2)
    parts.append(legend_svg)
    return group(*parts), y + 2 + h


def _description(view: View, viewer: int | None):
    """The document's ``<desc>``: the state in a sentence, for screen readers."""
    who = "a spectator" if viewer is None else player_name(view, viewer)
    players = "; ".join(
        f"{player_name(view, p['seat'])}: {p['victory_points']} victory points, "
        f"{p['gold']} gold, prestige {p['prestige']}"
        for p in view["players"]
    )
    return f"Anno 1452 in {view['year']}, {phase_text(view).lower()}, as seen by {who}. {players}."


__all__ = ["CLICK_TARGETS", "render"]
