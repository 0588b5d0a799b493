"""Decisions inside a battle and a tournament, possibly by several seats.

``to_act`` lists every seat that still has to answer (both sides for
reactions and losses); the battle resumes once the last one has answered.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...kit import event
from ...params import IntRange, OneOf, Optional
from .actionkit import CARD, discard_from_hand, make_spec
from .battle import apply_losses, loss_range, side_of, usable_reactions
from .data import AR_TEXTS, CARDS, CITIZENS_PER_PLAYER, KING_SOLDIERS
from .deck import crowned_role
from .state import change_prestige, pay_gold
from .steps import change_decision, push_front

if TYPE_CHECKING:
    from ...core import Action, ActionSpec, Event
    from .state import Data


# Turnier: what each other player may pay, and what he gets for it (data/special_actions.json).
TOURNAMENT_FEE = AR_TEXTS["turnier"]["fee"]
TOURNAMENT_PRESTIGE = AR_TEXTS["turnier"]["prestige_for_fee"]


def _answered(d: Data, seat):
    """Drop ``seat`` from the pending decision; True when nobody is left."""
    seats = d["decision"]["seats"][:]
    seats.remove(seat)
    change_decision(d, seats=seats)
    if seats:
        return False
    d["decision"] = None
    return True


# --- soldiers ----------------------------------------------------------------------


def _soldier_range(d: Data, seat):
    battle = d["battle"]
    side = d["decision"]["side"]
    available = d["soldiers"][crowned_role(d, seat)]
    needs_one = side == "attacker" and battle["from"] is None and battle["soldiers"]["attacker"] == 0
    return (1 if needs_one else 0), available


def _commit_soldiers_check(d: Data, seat, action: Action) -> str | None:
    fewest, most = _soldier_range(d, seat)
    return None if fewest <= action["count"] <= most else "soldiers_out_of_range"


def _commit_soldiers_candidates(d: Data, seat) -> list[Action]:
    fewest, most = _soldier_range(d, seat)
    return [{"type": "commit_soldiers", "count": count} for count in range(fewest, most + 1)]


def _commit_soldiers_perform(d: Data, seat, action: Action, events: list[Event]) -> None:
    battle = d["battle"]
    side = d["decision"]["side"]
    d["soldiers"][crowned_role(d, seat)] -= action["count"]
    battle["soldiers"][side] += action["count"]
    battle["committed"][side] = action["count"]
    event(events, "soldiers_committed", seat, side=side, count=action["count"])
    d["decision"] = None
    push_front(d, ["battle"])


# --- reactions -----------------------------------------------------------------------


def _react_check(d: Data, seat, action: Action) -> str | None:
    battle = d["battle"]
    card = action.get("card")
    if card is None:
        return None
    return None if card in usable_reactions(d, battle, side_of(battle, seat)) else "reaction_not_playable"


def _react_candidates(d: Data, seat) -> list[Action]:
    battle = d["battle"]
    cards = usable_reactions(d, battle, side_of(battle, seat))
    return [{"type": "react", "card": None}] + [{"type": "react", "card": card} for card in cards]


def _react_perform(d: Data, seat, action: Action, events: list[Event]) -> None:
    battle = d["battle"]
    side = side_of(battle, seat)
    battle["answered"].append(side)
    card = action.get("card")
    if card is not None:
        discard_from_hand(d, seat, card)
        battle["reactions"][side] = CARDS[card]["effect"]
        event(events, "reaction_played", seat, card=card, effect=CARDS[card]["effect"], side=side)
    else:
        event(events, "no_reaction", seat, side=side)
    if _answered(d, seat):
        push_front(d, ["battle"])


# --- losses --------------------------------------------------------------------------


def _take_losses_check(d: Data, seat, action: Action) -> str | None:
    battle = d["battle"]
    fewest, most = loss_range(d, battle, side_of(battle, seat))
    return None if fewest <= action["citizens"] <= most else "losses_out_of_range"


def _take_losses_candidates(d: Data, seat) -> list[Action]:
    battle = d["battle"]
    fewest, most = loss_range(d, battle, side_of(battle, seat))
    return [{"type": "take_losses", "citizens": count} for count in range(fewest, most + 1)]


def _take_losses_perform(d: Data, seat, action: Action, events: list[Event]) -> None:
    battle = d["battle"]
    apply_losses(d, battle, side_of(battle, seat), action["citizens"], events)
    if _answered(d, seat):
        battle["stage"] = "after_losses"
        push_front(d, ["battle"])


# --- tournament ------------------------------------------------------------------------


def _join_tournament_check(d: Data, seat, action: Action) -> str | None:
    if action["join"] == "yes" and d["players"][seat]["gold"] < TOURNAMENT_FEE:
        return "not_enough_gold"
    return None


def _join_tournament_candidates(d: Data, seat) -> list[Action]:
    return [{"type": "join_tournament", "join": "no"}, {"type": "join_tournament", "join": "yes"}]


def _join_tournament_perform(d: Data, seat, action: Action, events: list[Event]) -> None:
    if action["join"] == "yes":
        pay_gold(d, seat, TOURNAMENT_FEE, events, "turnier")
        change_prestige(d, seat, TOURNAMENT_PRESTIGE, events, "turnier")
    else:
        event(events, "tournament_declined", seat)
    _answered(d, seat)


# Annotated: mypyc (engine.native) cannot infer a type across the package's import cycle.
SPECS: list[ActionSpec[Any]] = [
    make_spec(
        "commit_soldiers",
        {"count": IntRange(0, KING_SOLDIERS)},
        _commit_soldiers_candidates,
        _commit_soldiers_check,
        _commit_soldiers_perform,
        "King/Anti-King: bring this many Soldiers into the battle (they are lost afterwards).",
    ),
    make_spec(
        "react",
        {"card": Optional(CARD)},
        _react_candidates,
        _react_check,
        _react_perform,
        "Play one reaction card in this battle, or null for none.",
    ),
    make_spec(
        "take_losses",
        {"citizens": IntRange(0, CITIZENS_PER_PLAYER)},
        _take_losses_candidates,
        _take_losses_check,
        _take_losses_perform,
        "Allocate the hits: this many Citizens, the rest Soldiers, then the Estate.",
    ),
    make_spec(
        "join_tournament",
        {"join": OneOf(["yes", "no"])},
        _join_tournament_candidates,
        _join_tournament_check,
        _join_tournament_perform,
        f"Turnier: pay {TOURNAMENT_FEE} gold for +{TOURNAMENT_PRESTIGE} Prestige, or not.",
    ),
]
