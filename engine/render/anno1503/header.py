"""The header's two lines: turn, phase and roll (and a battle, or who is looking); then the status.

Names are drawn in their seat's colour, so each line is one ``<text>`` of
coloured runs (``look.spans``), cut with an ellipsis where it would pass
its room.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...games.anno1503.data import EVENTS
from ..svg import INK, fit, group, ref, seat_colour, title
from .layout import MARGIN, WIDTH
from .look import DANGER, MUTED, fit_runs, runs_width, spans
from .words import phase_words, plain, ship_number

if TYPE_CHECKING:
    from ...core import View


# Runs of spaces collapse in SVG text: words are kept apart by a dot.
SEP = "  ·  "
NAME_ROOM = 170  # about 18 bold letters: a long name leaves room for the rest of a line


def header(view: View, names: list[str], viewer: int | None, look):
    """Line 1: turn, phase, roll; on its right a battle, or who is looking. Line 2: the status."""
    line = _turn_runs(view, look)
    full = WIDTH - 2 * MARGIN
    status = _status_runs(view, names, look)
    room = full - runs_width(line, 18) - 24
    return (
        spans(MARGIN, 30, line, "f18")
        + spans(WIDTH - MARGIN, 30, fit_runs(_looker_runs(view, names, viewer, look), 14, room), "f14 e")
        # The full status as a title: the line may be cut.
        + group(
            title("".join(content for content, _, _ in status)),
            spans(MARGIN, 58, fit_runs(status, 14, full), "f14"),
        )
    )


def _turn_runs(view: View, look):
    roll = view.get("last_roll") or {}
    runs = [
        ("Anno 1503", INK, True),
        (f"{SEP}Turn {view.get('turn')}", INK, False),
        (f"{SEP}Phase: {phase_words(view, look.phases)}", INK, False),
    ]
    if roll.get("production") is not None:
        runs.append((f"{SEP}Roll: {roll['production']}", INK, False))
        event = roll.get("event")
        if event is not None:
            runs.append((f" → event {event}: {plain(EVENTS.get(event, event))}", DANGER, True))
    return runs


def _looker_runs(view: View, names: list[str], viewer: int | None, look):
    """A sea battle in progress, else whose picture this is."""
    combat = look.combat(view)
    if combat:
        return look.combat_runs(combat, names)
    if viewer is not None and 0 <= viewer < len(names):
        return [("You: ", MUTED, False), name_run(names, viewer)]
    return [("Spectator view", MUTED, False)]


def _status_runs(view: View, names: list[str], look):
    """The winner, else who is active and who is to act on what, a discovery, the queue."""
    if view.get("winner") is not None:
        return [
            ("Winner: ", INK, True),
            name_run(names, view["winner"]),
            (" - the match is over", MUTED, False),
        ]
    runs = [
        ("Active: ", MUTED, False),
        name_run(names, view.get("active")),
        (f"{SEP}To act: ", MUTED, False),
    ]
    runs += _seat_list(names, view.get("to_act") or []) or [("nobody", MUTED, False)]
    choice = view.get("choice")
    if choice:
        runs.append((f" - {_choice_words(choice, look.choices)}", INK, False))
    discovery = view.get("discovery")
    if discovery:
        runs += [
            (f"{SEP}Discovering ", MUTED, False),
            (ref(*discovery["space"]), INK, True),
            (f" with ship {ship_number(discovery['ship'])}", MUTED, False),
        ]
        if discovery.get("tile"):
            runs.append((f": {look.tile_name(discovery['tile'])}", INK, True))
    if view.get("queue"):
        runs.append((f"{SEP}Still to resolve: ", MUTED, False))
        runs += _seat_list(names, view["queue"], bold=False)
    return runs


def _choice_words(choice, choices):
    """A pending choice and its options: "place the reserve tile: 1,4 / 2,7"."""
    what = choices.get(choice["kind"], plain(choice["kind"]))
    options = " / ".join(_option_words(o) for o in choice.get("options", []))
    if choice.get("branch"):
        options += f" (branch office: {choice['branch']})"
    return f"{what}: {options}"


def _option_words(option):
    if isinstance(option, dict):
        if option.get("tile") == "branch_office":
            return f"branch office on bridge {option.get('bridge')}"
        return " ".join(plain(v) for v in option.values())
    if isinstance(option, (list, tuple)):
        return ref(*option)
    return plain(option)


# --- runs ---------------------------------------------------------------------------


def name_run(names: list[str], seat, bold=True):
    """A seat's name in its colour (cut to a sensible length), or a muted "nobody"."""
    if seat is None or not 0 <= seat < len(names):
        return ("nobody", MUTED, False)
    return (fit(names[seat], NAME_ROOM, 14, bold), seat_colour(seat), bold)


def _seat_list(names: list[str], seats, bold=True):
    """Seats' names in their colours, separated by commas."""
    runs = []
    for i, seat in enumerate(seats):
        runs += [(", " if i else "", INK, False), name_run(names, seat, bold)]
    return runs
