"""Decisions asked during the roll's resolution, and the end-of-turn discard.

``choose_commodity`` (a ``?`` number, a branch office's bridge, golden
times), ``lose_tile`` (pirates), ``place_reserve_tile`` (R#13 ties) and
``discard`` (the hand limit, R#21).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...kit import ActionSpec, event
from ...params import IntRange, OneOf, Optional, Square
from .data import BRIDGES, COLS, COMMODITIES, ROWS, RULES
from .turn import give, lose_tile, pass_turn, put_reserve_tile, resume

if TYPE_CHECKING:
    from ...core import Action, Event
    from .state import State


HAND_LIMIT = RULES["hand_limit"]
COMMODITY = OneOf(COMMODITIES, "a commodity")


# --- choose_commodity -------------------------------------------------------


def _choose_commodity_candidates(state: State, seat: int) -> list[Action]:
    return [{"type": "choose_commodity", "commodity": c} for c in state.choice["options"]]


def _choose_commodity_check(state: State, seat: int, action: Action) -> str | None:
    if action["commodity"] not in state.choice["options"]:
        return "not_an_option"
    return None


def _choose_commodity_perform(state: State, seat: int, action: Action, events: list[Event]) -> None:
    choice = state.choice
    commodity = action["commodity"]
    if choice["kind"] == "golden_times":
        source = "golden_times"
    else:
        source = "branch_office" if commodity == choice.get("branch") else "production"
    state.choice = None
    give(state, seat, commodity, source, events)
    resume(state, events)


# --- lose_tile --------------------------------------------------------------


def _lose_tile_candidates(state: State, seat: int) -> list[Action]:
    return [{"type": "lose_tile", **option} for option in state.choice["options"]]


def _as_option(action: Action):
    if action["tile"] == "branch_office":
        return {"tile": "branch_office", "bridge": action.get("bridge")}
    if action.get("bridge") is not None:
        return None  # a trade agreement sits on no gray bridge
    return {"tile": "trade_agreement"}


def _lose_tile_check(state: State, seat: int, action: Action) -> str | None:
    option = _as_option(action)
    if option is None or option not in state.choice["options"]:
        return "tile_not_owned"
    return None


def _lose_tile_perform(state: State, seat: int, action: Action, events: list[Event]) -> None:
    state.choice = None
    if not lose_tile(state, seat, _as_option(action), events):
        resume(state, events)


# --- place_reserve_tile -----------------------------------------------------


def _place_reserve_tile_candidates(state: State, seat: int) -> list[Action]:
    out = []
    for i in state.choice["options"]:
        r, c = state.variant.geometry.spaces[i]
        out.append({"type": "place_reserve_tile", "space": [r, c]})
    return out


def _place_reserve_tile_check(state: State, seat: int, action: Action) -> str | None:
    if state.variant.geometry.space_index.get(tuple(action["space"])) not in state.choice["options"]:
        return "not_a_farthest_free_space"
    return None


def _place_reserve_tile_perform(state: State, seat: int, action: Action, events: list[Event]) -> None:
    kind = state.choice["kind"]
    state.choice = None
    space = state.variant.geometry.space_index[tuple(action["space"])]
    if kind == "reserve_placement":
        put_reserve_tile(state, space, events)
    else:  # a variant's own placement (its reserve, its board)
        state.variant.place_own_tile(state, seat, space, events)
    resume(state, events)


# --- discard ----------------------------------------------------------------


def _discard_candidates(state: State, seat: int) -> list[Action]:
    hand = state.players[seat].hand
    return [{"type": "discard", "commodity": c} for c in hand if hand[c]]


def _discard_check(state: State, seat: int, action: Action) -> str | None:
    if state.players[seat].hand.get(action["commodity"], 0) <= 0:
        return "commodity_not_held"
    return None


def _discard_perform(state: State, seat: int, action: Action, events: list[Event]) -> None:
    player = state.players[seat]
    commodity = action["commodity"]
    player.hand[commodity] -= 1
    state.stacks[commodity] += 1
    event(events, "discarded", seat, commodity=commodity)
    if player.hand_size() <= HAND_LIMIT:
        pass_turn(state, events)


SPECS = [
    ActionSpec(
        "choose_commodity",
        {"commodity": COMMODITY},
        _choose_commodity_candidates,
        _choose_commodity_check,
        _choose_commodity_perform,
        "Take one of the offered commodities (a ? number, a branch office's bridge, golden times).",
    ),
    ActionSpec(
        "lose_tile",
        {
            "tile": OneOf(("branch_office", "trade_agreement"), "the kind of tile to give up"),
            "bridge": Optional(IntRange(1, BRIDGES, "the gray bridge of the branch office")),
        },
        _lose_tile_candidates,
        _lose_tile_check,
        _lose_tile_perform,
        "Pirates: give up a branch office or a trade agreement (only when unable to pay).",
    ),
    ActionSpec(
        "place_reserve_tile",
        {"space": Square(ROWS, COLS, "one of the tied farthest free island spaces")},
        _place_reserve_tile_candidates,
        _place_reserve_tile_check,
        _place_reserve_tile_perform,
        "Pirates: choose where the reserve's top tile goes among equally far free spaces.",
    ),
    ActionSpec(
        "discard",
        {"commodity": COMMODITY},
        _discard_candidates,
        _discard_check,
        _discard_perform,
        "End of turn with more than 5 cards: discard one card of your choice.",
    ),
]
