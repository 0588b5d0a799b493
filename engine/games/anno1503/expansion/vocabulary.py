"""The base actions in an expansion match's vocabulary.

One action table serves every match of the game, so the base actions'
parameters are widened once: a commodity may be a luxury, a square may lie
on the pirate board, and a new ship may name the port square it starts on.
A luxury named to the base ``sell`` or ``buy`` is refused before the base
check runs, with the expansion's reason.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ....kit import ActionSpec
from ....params import OneOf, Optional, Square
from ..data import COMMODITIES
from .data import BOARD_COLS, BOARD_ROWS, HAND_KEYS, LUXURIES

if TYPE_CHECKING:
    from ....core import Action
    from ..state import State


_COMMODITY_TEXT = "a commodity (luxuries only with the expansion)"
_EXTRA_PARAMS = {
    "build_ship": {"at": Optional(Square(BOARD_ROWS, BOARD_COLS, "expansion: a sea square beside the port"))},
}


def _widened(domain):
    if isinstance(domain, Optional):
        return Optional(_widened(domain.inner))
    if isinstance(domain, Square):
        return Square(BOARD_ROWS, BOARD_COLS, domain.description)
    if isinstance(domain, OneOf) and domain.values == COMMODITIES:
        return OneOf(HAND_KEYS, _COMMODITY_TEXT)
    return domain


def _no_luxury_sale(check):
    def guarded(state: State, seat: int, action: Action):
        if action["commodity"] in LUXURIES:
            return "only_the_aristocrat_buys_luxury"  # ruling §2.14 #6: sell_luxury
        return check(state, seat, action)

    return guarded


def _no_luxury_in_the_base_game(check):
    def guarded(state: State, seat: int, action: Action):
        if action["commodity"] not in state.players[seat].hand:
            return "no_luxury_without_the_expansion"
        return check(state, seat, action)  # ruling §2.14 #5: luxuries count towards two buys

    return guarded


_GUARDS = {"sell": _no_luxury_sale, "buy": _no_luxury_in_the_base_game}


def widen(spec):
    """``spec`` (a base action) with parameters an expansion match may use."""
    params = {name: _widened(d) for name, d in spec.params.items()}
    params.update(_EXTRA_PARAMS.get(spec.name, {}))
    guard = _GUARDS.get(spec.name)
    check = guard(spec.check) if guard else spec.check
    return ActionSpec(spec.name, params, spec.candidates, check, spec.perform, spec.description)
