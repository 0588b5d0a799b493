"""The SVG board picture of an Anno 1503 match, drawn from one viewer's view.

``render(view, viewer)`` reads only ``game.view(state, viewer)``, so the
picture is redacted exactly as the view is: the viewer's own hand (and a
variant's own secrets) in full, other seats as counts, face-down tiles as
their back number unless the view shows them face up. Printed content that
never changes (the sea grid, start, dolphins, a variant's squares) comes
from the game's data, never from a state.

A variant's parts are drawn by its look (``variants.look_of``: the hooks of
``variant.BaseLook``; Pirates & Aristocrats' in the package ``expansion``);
the modules here draw the base game and call those hooks.

What is drawn, top to bottom (and where):

- a header (``header``): turn, active player, phase, last roll, who is to
  act and on what (the pending ``choice``), a discovery or sea battle in
  progress, the winner;
- the sea (``board``): every square of the main board (5x12) and a
  variant's board east of it. Island spaces show their tile face up, its back number, or
  nothing; dots in seat colours tell who looked at a tile (``seen_by``).
  Ships sit on their squares in seat colours with their number and a yellow
  badge of AP left (a red cross when damaged). Squares a pending choice
  offers are outlined;
- a legend (seat colours, "you", square and tile kinds) beside the sea, and
  the supply under it (``supply``): commodity stacks, public buildings,
  reserve, and a variant's piles;
- one panel per seat (``panels``): the home island (7
  inhabitant slots, 1-2 red and 3-7 green, public buildings under 4-7, the
  production table with its bridges and branch offices), trade agreements,
  the warehouse, ships in stock and a variant's parts.

Seats are named as the web client names them (``svg.seat_name``: "Seat 1"
for an unnamed first seat), and ships and slots are counted from 1 where
people read them; ``data-`` values keep the actions' own numbers.

Clickable things carry ``data-`` attributes that name them the way action
parameters do, so a client matches legal actions to them without knowing the
geometry (values are ``svg.ref`` strings: parts joined with ","):

- every board square, sea and island space, of every board:
  ``data-space="r,c"`` (exactly one per square; a ship is drawn inside its
  square's group, so a click on a ship also reaches its square);
- ships: ``data-ship="seat,index"`` (index from 0, as in ``move_ship``; on
  their square, or in the panel's stock);
- inhabitant slots: ``data-slot="seat,slot"`` (slot 1..7);
- bridges 1..5 of a home island: ``data-bridge="seat,n"``;
- the viewer's own warehouse cards: ``data-commodity="seat,name"``;
- player panels, and nothing else: ``data-seat="n"``.

``CLICK_TARGETS`` (every variant's look's ``click_targets``, gathered by
``variants``) tells which action parameter each attribute stands for:
``{type: [[param, attribute, own], ...]}`` in order of preference; the
attribute's value is the parameter's value (a list joined with ",", else
``str``), prefixed with the acting seat and "," when ``own`` is true. The
root ``<svg>`` carries it as ``data-click-targets`` (compact JSON) so a
client can read it from the picture. Actions without a place on the board
(buy, sell, end_turn, respond, ...) are left to buttons.

Size and speed: shared styles live in one ``<style>`` (class selectors under
the root's ``a15`` class), the board's fixed squares are built once per set
of options, and a picture is a join of strings: about 2 ms; about 45 KB for
a 4-player base match, 50-63 KB with the expansion (4 players, late in the
match).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..svg import INK, document, group
from .board import board
from .header import header
from .layout import WIDTH
from .panels import panel
from .supply import board_legend, supply
from .variants import CLICK_TARGETS, look_of
from .words import phase_words, seat_names, seat_note

if TYPE_CHECKING:
    from ...core import View


def render(view: View, viewer: int | None | None = None):
    """The SVG document of an Anno 1503 ``view`` as seen by ``viewer`` (a seat, or None)."""
    names = seat_names(view)
    look = look_of(view)
    sea, lay = board(view, names, look)
    body = group(
        header(view, names, viewer, look),
        group(sea, class_="board"),
        group(supply(view, lay), class_="supply"),
        *(panel(p, view, names, viewer, i, lay) for i, p in enumerate(view["players"])),
        board_legend(view, names, viewer, lay),
        # What the labels inherit (look.label): 11 px ink.
        font_size=11,
        fill=INK,
    )
    # The click contract rides on the root, and ``a15`` scopes the style sheet (look.style_sheet).
    return document(
        WIDTH,
        lay.height,
        f"Anno 1503, turn {view.get('turn')}",
        _description(view, names, viewer, look),
        body,
        click_targets=CLICK_TARGETS,
        class_="a15",
    )


def _description(view: View, names: list[str], viewer: int | None, look):
    return (
        f"Anno 1503 board, {view['num_players']} players"
        f"{look.subtitle}, turn {view.get('turn')}, "
        f"phase {phase_words(view, look.phases)}, seen by {_who(view, names, viewer)}."
    )


def _who(view: View, names: list[str], viewer: int | None):
    if viewer is None:
        return "a spectator"
    if 0 <= viewer < len(names):
        return names[viewer] + seat_note(view["players"][viewer])
    return f"seat {viewer + 1}"


__all__ = ["CLICK_TARGETS", "render"]
