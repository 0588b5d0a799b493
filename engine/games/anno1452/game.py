"""``Anno1452``: the Game definition wiring data, flow and actions together.

>>> from engine.games.anno1452 import Anno1452
>>> game = Anno1452()
>>> state = game.setup(3, {}, seed=1)
>>> game.view(state, game.to_act(state)[0])["decision"]["kind"]
'place_initial'
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final, cast

from ...core import Game
from ...errors import GameOverError, IllegalActionError, InvalidOptionsError, NotYourTurnError
from ...kit import specs_by_name
from ...params import check_shape
from . import actions_battle, actions_cards, actions_er, actions_round, actions_special, trade
from .actionkit import DataSpec
from .data import PLAYERS
from .flow import DECISION_TYPES, advance
from .holdings import Holdings
from .setup import OPTIONS, check_options, new_state
from .state import State, clone_data, copy_data
from .view import build_view

if TYPE_CHECKING:
    from ...core import Action, Event
    from .state import Data

# An action type's hooks on the plain data (actionkit.DataHooks), as a tuple
# the compiled code unpacks: candidates, check, perform, legal or None.
Hooks = tuple[
    Callable[..., list[Any]], Callable[..., str | None], Callable[..., None], Callable[..., list[Any]] | None
]


class Anno1452(Game):
    """Anno 1452 (Piatnik 1999); rules in DESIGN.md beside this file."""

    id = "anno1452"
    title = "Anno 1452"
    min_players = PLAYERS[0]  # two lines: mypyc compiles no tuple assignment in a class body
    max_players = PLAYERS[1]
    version = 1
    options = OPTIONS
    action_specs = specs_by_name(
        actions_round.SPECS,
        actions_battle.SPECS,
        actions_cards.SPECS,
        actions_special.SPECS,
        actions_er.SPECS,
        trade.SPECS,
    )

    def setup_with_events(self, num_players, options=None, seed=0):
        """A new match and its set-up events: the turn order drawn, Ottokar's
        pieces, each seat's five cards (private to it) and the first
        decision. Raises ``InvalidOptionsError``."""
        if type(seed) is not int:
            raise InvalidOptionsError("seed must be an integer", field="seed")
        return new_state(num_players, options, seed)

    def resolve_options(self, num_players, options=None):
        """The options with their defaults (``setup.check_options``)."""
        return check_options(num_players, options)

    def to_act(self, state):
        d = state.data
        if d["result"] is not None or d["decision"] is None:
            return []
        return list(d["decision"]["seats"])

    def outcome(self, state):
        return state.data["result"]

    def view(self, state, viewer):
        return build_view(state.data, viewer)

    def dump(self, state):
        return copy_data(state.data)

    def load(self, data):
        return State(copy_data(data))

    def _available_types(self, state, seat):
        decision = state.data["decision"]
        return DECISION_TYPES[decision["kind"]] if decision else ()

    def _after_apply(self, state, events: list[Event]) -> None:
        advance(state.data, events)

    # --- the engine's generic loop, on the plain data (issue 45) ---------------
    # Game's legal_actions, _check and apply, step for step, calling the hooks
    # as written (HOOKS) instead of their State adapters: compiled, they save
    # the adapter and the interpreted loop at every step. The whole suite runs
    # through these; test_anno1452_fast_legal compares with Game's own.

    def legal_actions(self, state, seat) -> list[Action]:
        d = state.data
        decision = d["decision"]
        if d["result"] is not None or decision is None or seat not in decision["seats"]:
            return []
        kind = decision["kind"]
        out: list[Action] = []
        # An action turn's generators share one pass over the map.
        holdings = Holdings(d, seat) if kind == "action_turn" else None
        for how, listed, check in LISTING[kind]:
            if how == FROM_TURN_HOLDINGS:
                out += listed(d, seat, holdings)
            elif how == GENERATED:
                out += listed(d, seat)
            else:
                for action in listed(d, seat):
                    if check(d, seat, action) is None:
                        out.append(action)
        return out

    def _check(self, state, seat, action):
        d = state.data
        if d["result"] is not None:
            raise GameOverError("the match is over")
        decision = d["decision"]
        if decision is None or seat not in decision["seats"]:
            raise NotYourTurnError(f"seat {seat} has nothing to decide now", seat=seat)
        spec = check_shape(action, self.action_specs)
        if spec.name not in DECISION_TYPES[decision["kind"]]:
            raise IllegalActionError("wrong_phase", f"{spec.name} is not possible at this point of the turn")
        reason = HOOKS[spec.name][1](d, seat, action)
        if reason is not None:
            raise IllegalActionError(reason)
        return spec

    def apply(self, state, seat, action):
        spec = self._check(state, seat, action)
        return _performed(state, seat, action, HOOKS[spec.name][2])

    def apply_legal(self, state, seat, action):
        return _performed(state, seat, action, HOOKS[action["type"]][2])


def _performed(state, seat, action, perform) -> tuple[State, list[Event]]:
    """``apply``'s rest: the clone, the action, the automatic steps."""
    new = State(clone_data(state.data))
    events: list[Event] = []
    perform(new.data, seat, action, events)
    advance(new.data, events)
    return new, events


def _hooks(spec) -> Hooks:
    hooks = cast(DataSpec, spec).on_data
    return hooks.candidates, hooks.check, hooks.perform, hooks.legal


HOOKS: dict[str, Hooks] = {name: _hooks(spec) for name, spec in Anno1452.action_specs.items()}
# The action turn's ``legal`` hooks, taking the turn's ``Holdings``.
FROM_HOLDINGS: dict[str, Callable[[Data, Any, Holdings], list[Action]]] = {
    "build_estate": actions_round.build_estate_actions,
    "settle": actions_round.settle_actions,
    "attack": actions_round.turn_attacks,
    "inherit": actions_cards.inherit_actions,
    "build_city": actions_cards.build_city_actions,
    "play_special": actions_special.play_special_actions,
}


# How ``legal_actions`` lists each action type of a decision: from the
# turn's Holdings (FROM_HOLDINGS), by its legal hook, or its candidates
# filtered by its check; worked out once per decision kind, not per call.
FROM_TURN_HOLDINGS: Final = 0
GENERATED: Final = 1
FILTERED: Final = 2
Listing = list[tuple[int, Callable[..., list[Any]], Callable[..., str | None]]]


def _listing(kind: str) -> Listing:
    listing: Listing = []
    for name in DECISION_TYPES[kind]:
        candidates, check, _, legal = HOOKS[name]
        if kind == "action_turn" and name in FROM_HOLDINGS:
            listing.append((FROM_TURN_HOLDINGS, FROM_HOLDINGS[name], check))
        elif legal is not None:
            listing.append((GENERATED, legal, check))
        else:
            listing.append((FILTERED, candidates, check))
    return listing


LISTING: dict[str, Listing] = {kind: _listing(kind) for kind in DECISION_TYPES}


__all__ = ["Anno1452"]
