"""Shared pieces of the action modules: the spec adapter and the domains.

Every action module follows ``engine.kit``: per action type three hooks named
after it (``_settle_candidates``, ``_settle_check``, ``_settle_perform``) and a
``SPECS`` list at the end. The hooks take the state's plain data ``d``;
``make_spec`` adapts them to the ``State`` the engine passes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

from ...kit import ActionSpec
from ...params import IntRange, OneOf, Square
from .data import CARDS, MAX_SLOTS, NUM_CARDS, REGION_NAMES

if TYPE_CHECKING:
    from ...core import Action
    from .state import Data


REGION = OneOf(REGION_NAMES, "a region of the map")
ESTATE = Square(len(REGION_NAMES), MAX_SLOTS, "an Estate as [region index, slot]")
CARD = IntRange(0, NUM_CARDS - 1, "a card id (see data/cards.json)")
SEAT = IntRange(0, 3, "a seat")


class DataHooks(NamedTuple):
    """An action type's hooks as written, on the state's plain data ``d``."""

    candidates: Callable[..., list[Action]]
    check: Callable[..., str | None]
    perform: Callable[..., None]
    legal: Callable[..., list[Action]] | None


class DataSpec(ActionSpec[Any]):
    """An ``ActionSpec`` whose hooks adapt ``on_data``'s to the ``State`` the
    engine passes. ``Anno1452``'s own ``legal_actions`` and ``apply`` call
    ``on_data``'s directly (game.py: no adapter call per hook, issue 45)."""

    def __init__(self, name, params, on_data: DataHooks, description) -> None:
        candidates, check, perform, legal = on_data
        super().__init__(
            name,
            params,
            lambda state, seat: candidates(state.data, seat),
            lambda state, seat, action: check(state.data, seat, action),
            lambda state, seat, action, events: perform(state.data, seat, action, events),
            description,
            None if legal is None else (lambda state, seat: legal(state.data, seat)),
        )
        self.on_data = on_data


def make_spec(name, params, candidates, check, perform, description, legal=None):
    """A ``DataSpec`` whose hooks work on the state's plain data; ``legal``
    (optional) generates the candidates that pass ``check`` directly."""
    return DataSpec(name, params, DataHooks(candidates, check, perform, legal), description)


def bare_action(name):
    """The candidates hook of an action without parameters: the action itself."""
    return lambda d, seat: [{"type": name}]


def always_allowed(d: Data, seat, action: Action):
    """The check hook of an action the deciding seat may always take."""
    return None


def end_decision(d: Data) -> None:
    d["decision"] = None


def hand_cards(d: Data, seat, kind=None, effect=None):
    """Card ids in ``seat``'s hand, optionally of one kind / effect."""
    return [
        c
        for c in d["players"][seat]["hand"]
        if (kind is None or CARDS[c]["kind"] == kind) and (effect is None or CARDS[c].get("effect") == effect)
    ]


def own_card(d: Data, seat, card, kind):
    """Why ``card`` cannot be played by ``seat`` as ``kind``, or None."""
    if card not in d["players"][seat]["hand"]:
        return "card_not_in_hand"
    if CARDS[card]["kind"] != kind:
        return "wrong_card_kind"
    return None


def discard_from_hand(d: Data, seat, card) -> None:
    d["players"][seat]["hand"].remove(card)
    d["discard"].append(card)
