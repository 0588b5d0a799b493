"""The time table: action rounds, the evaluation round's phases, the end.

The match is driven by a queue of steps (``d["queue"]``, JSON lists such as
``["turn", 2]``). ``advance`` runs steps until one asks a seat to decide
(``d["decision"]``) or the match ends; an action's ``perform`` clears the
decision and may push steps (a battle, a tournament) to the queue's front.

The step table and the decisions' action lists are built here, once, from the
tables of the modules that own the steps (``evaluation``, ``battle``,
``trade``); no module adds to them as a side effect of being imported.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...kit import event
from . import battle, evaluation, trade
from .data import AR_DICE, ROWS
from .state import roll
from .steps import decide, push_front

if TYPE_CHECKING:
    from ...core import Event
    from .state import Data


# A decision's kind -> the action types a deciding seat may post (the trade
# module's own decisions are joined below).
_TIME_TABLE_DECISIONS = {
    "place_initial": ("place_estate",),
    "action_turn": (
        "build_estate",
        "settle",
        "attack",
        "build_city",
        "marry",
        "take_title",
        "inherit",
        "play_special",
        "kindbett",
        "pass",
    ),
    "soldiers": ("commit_soldiers",),
    "reaction": ("react",),
    "losses": ("take_losses",),
    "tournament": ("join_tournament",),
    "discard": ("discard", "keep_hand"),
    "er_special": ("play_special", "pass"),
    "open_swap": ("swap_open", "pass"),
    "position": ("choose_position",),
}


def advance(d: Data, events: list[Event]) -> None:
    """Run automatic steps until a decision is pending or the match is over."""
    while d["decision"] is None and d["result"] is None and d["queue"]:
        step = d["queue"].pop(0)
        run = STEPS[step[0]]
        # Most steps take one argument or none: called without the slice
        # and the tuple a starred call builds.
        if len(step) == 1:
            run(d, events)
        elif len(step) == 2:
            run(d, events, step[1])
        else:
            run(d, events, *step[1:])


def final_row(d: Data):
    return d["final_row"]


# --- action rounds -------------------------------------------------------


def _epoch(d: Data, events: list[Event]) -> None:
    event(events, "epoch_started", year=ROWS[d["row"]]["year"])
    push_front(d, ["ar", 1])


def _action_round(d: Data, events: list[Event], number) -> None:
    d["phase"] = "action"
    d["ar"] = number
    d["event_acted"] = False
    event(events, "action_round_started", round=number, year=ROWS[d["row"]]["year"])
    push_front(d, *[["turn", seat] for seat in d["order"]], ["ar_end", number])


def _turn(d: Data, events: list[Event], seat) -> None:
    d["turn"] = seat
    decide(d, "action_turn", [seat], extra_used=False)


def _ar_end(d: Data, events: list[Event], number) -> None:
    d["turn"] = None
    if number >= len(AR_DICE):
        push_front(d, ["er"])
        return
    dice = roll(d, AR_DICE[number], events, "further_action_round")
    push_front(d, ["er"] if 6 in dice else ["ar", number + 1])


# --- evaluation rounds ----------------------------------------------------


def _er(d: Data, events: list[Event]) -> None:
    d["row"] += 1
    d["ar"] = 0
    d["phase"] = "evaluation"
    d["event_acted"] = False
    d["interregnum"] = False
    d["crowned"] = False
    d["er_used"] = []
    d["er_effects"] = evaluation.empty_effects()
    d["landfrieden"] = []
    event(events, "evaluation_started", year=ROWS[d["row"]]["year"], final=d["row"] == final_row(d))
    if d["row"] == final_row(d):
        push_front(d, ["income"], ["prestige"], ["marriages_end"], ["final"])
        return
    push_front(d, *evaluation.er_steps(d))


def _pre_evaluation(d: Data, events: list[Event]) -> None:
    """Expert game: the Interregnum space before the first epoch (trade only)."""
    d["phase"] = "evaluation"
    event(events, "evaluation_started", year=ROWS[0]["year"], final=False, pre_evaluation=True)
    push_front(d, ["trade"], ["epoch"])


def _setup_place(d: Data, events: list[Event], seat) -> None:
    decide(d, "place_initial", [seat], first=None)


_TIME_TABLE_STEPS = {
    "epoch": _epoch,
    "ar": _action_round,
    "turn": _turn,
    "ar_end": _ar_end,
    "er": _er,
    "pre_evaluation": _pre_evaluation,
    "setup_place": _setup_place,
}


def joined(what, *tables):
    """One table from several ``{name: entry}`` tables, in order.

    Raises ``ValueError`` when two tables share a name: the later entry would
    otherwise silently replace the earlier one.
    """
    table = {}
    for part in tables:
        for name, entry in part.items():
            if name in table:
                raise ValueError(f"{what} {name!r} is defined twice")
            table[name] = entry
    return table


# A step's name (``step[0]`` in the queue) -> the function that runs it.
STEPS = joined("step", _TIME_TABLE_STEPS, evaluation.STEPS, battle.STEPS, trade.STEPS)
DECISION_TYPES = joined("decision", _TIME_TABLE_DECISIONS, trade.DECISIONS)
