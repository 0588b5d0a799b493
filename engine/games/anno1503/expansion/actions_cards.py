"""Expansion actions with aristocrat cards, battles and lairs.

``play_card``, ``exchange_card`` (phase ``main``), ``respond`` (the pending
sea-battle decision), ``attack_lair`` (phase ``tile_decision``: reveal a
discovered lair and fight it, S3 §6.3) and ``discard_card`` (the
aristocrat-card hand limit of 4 at the end of the turn).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ....kit import ActionSpec, event
from ....params import OneOf, Optional
from ..actions_market import finish_turn
from ..actions_sea import SHIP
from ..rules import take
from .actions import advance_manor, manor_step_problem, repair
from .combat import attack_lair, give_penalty, offer_answer, pirate_attack_answer, sea_hero_answer
from .data import (
    CARD_HAND_LIMIT,
    CARD_TYPES,
    CONTENT,
    HAND_KEYS,
    LUXURIES,
    PLAYABLE_CARDS,
    TILE_KINDS,
)
from .rules import draw_aristocrat_cards, may_attack_lairs, next_cannon_price

if TYPE_CHECKING:
    from ....core import Action, Event
    from ..state import Player, State


_EXCHANGE = CONTENT["exchange_cost"]
_RESPONSES = ("pay", "fight", "sea_hero", "reroll", "decline", "gold") + HAND_KEYS


# --- aristocrat cards -------------------------------------------------------------


def _play_card_candidates(state: State, seat: int) -> list[Action]:
    player = state.players[seat]
    out = []
    for card in PLAYABLE_CARDS:
        if card not in player.part.cards:
            continue
        if card == "inventor":
            out += [{"type": "play_card", "card": card, "luxury": c} for c in LUXURIES]
        elif card == "engineer":
            out += [{"type": "play_card", "card": card}]
            out += [
                {"type": "play_card", "card": card, "ship": s}
                for s in range(len(state.players[seat].ship_at))
            ]
        else:
            out.append({"type": "play_card", "card": card})
    return out


def _play_card_check(state: State, seat: int, action: Action) -> str | None:
    player = state.players[seat]
    card, luxury, ship = action["card"], action.get("luxury"), action.get("ship")
    if card not in player.part.cards:
        return "card_not_held"
    if player.part.sailed:
        return "cards_only_before_sailing"  # ruling §2.14 #4
    if (luxury is not None) != (card == "inventor"):
        return "luxury_only_for_inventor"
    if ship is not None and card != "engineer":
        return "ship_only_for_engineer"
    return _CARD_PROBLEMS[card](state, player, action)


def _builder_problem(state: State, player: Player, action: Action):
    return manor_step_problem(player)


def _inventor_problem(state: State, player: Player, action: Action):
    return None if state.stacks[action["luxury"]] > 0 else "stack_empty"


def _engineer_problem(state: State, player: Player, action: Action):
    ship = action.get("ship")
    if ship is None:
        return None if next_cannon_price(player) is not None else "cannon_track_full"
    return None if player.part.damaged[ship] else "ship_not_damaged"


_CARD_PROBLEMS = {
    "explorer": lambda state, player, action: None,
    "builder": _builder_problem,
    "inventor": _inventor_problem,
    "engineer": _engineer_problem,
}


def _play_card_perform(state: State, seat: int, action: Action, events: list[Event]) -> None:
    player = state.players[seat]
    card = action["card"]
    player.part.cards.remove(card)
    state.part.aristocrat_discard.append(card)
    event(events, "aristocrat_card_played", seat, card=card)
    if card == "explorer":
        bonus = CONTENT["explorer_bonus_ap"]
        player.ship_ap = [
            ap + bonus if at is not None else ap for at, ap in zip(player.ship_at, player.ship_ap)
        ]
        player.part.free_discovery = True
    elif card == "builder":
        advance_manor(state, seat, events, draw=False)
    elif card == "inventor":
        take(state, player, action["luxury"])
        event(events, "commodity_taken", seat, commodity=action["luxury"], source="inventor")
    elif action.get("ship") is not None:
        repair(state, seat, action["ship"], events)
    else:
        player.part.cannons += 1
        event(events, "cannon_bought", seat, gold=0, cannons=player.part.cannons)


def _exchange_card_candidates(state: State, seat: int) -> list[Action]:
    return [{"type": "exchange_card", "card": c} for c in CARD_TYPES if c in state.players[seat].part.cards]


def _exchange_card_check(state: State, seat: int, action: Action) -> str | None:
    player = state.players[seat]
    if player.part.exchanged:
        return "exchanged_this_turn"
    if action["card"] not in player.part.cards:
        return "card_not_held"
    return None if player.gold >= _EXCHANGE else "not_enough_gold"


def _exchange_card_perform(state: State, seat: int, action: Action, events: list[Event]) -> None:
    player = state.players[seat]
    player.gold -= _EXCHANGE
    player.part.cards.remove(action["card"])
    player.part.exchanged = True
    state.part.aristocrat_discard.append(action["card"])
    event(events, "aristocrat_card_exchanged", seat, card=action["card"], gold=_EXCHANGE)
    draw_aristocrat_cards(state, seat, 1, events)


# --- respond and discard_card -------------------------------------------------------


def _respond_candidates(state: State, seat: int) -> list[Action]:
    return [{"type": "respond", "option": o} for o in state.choice["options"]]


def _respond_check(state: State, seat: int, action: Action) -> str | None:
    return None if action["option"] in state.choice["options"] else "not_an_option"


_ANSWERS = {
    "pirate_attack": pirate_attack_answer,
    "sea_hero": sea_hero_answer,
    "pirate_penalty": give_penalty,
    "pirate_offer": offer_answer,
}


def _respond_perform(state: State, seat: int, action: Action, events: list[Event]) -> None:
    kind = state.choice["kind"]
    state.choice = None
    _ANSWERS[kind](state, action["option"], events)


# --- a discovered lair (S3 §6.3) -----------------------------------------------------
# The finder either puts the tile back and explores on (``return_tile``) or
# reveals the lair and fights it (``attack_lair``); the discovery alone
# starts no battle.


def _discovered_lair(state: State):
    return TILE_KINDS[state.spaces[state.discovery["space"]]] == "lair"


def _attack_lair_candidates(state: State, seat: int) -> list[Action]:
    if _discovered_lair(state) and may_attack_lairs(state.players[seat]):
        return [{"type": "attack_lair"}]
    return []


def _attack_lair_check(state: State, seat: int, action: Action) -> str | None:
    if not _discovered_lair(state):
        return "not_a_lair"
    if not may_attack_lairs(state.players[seat]):
        return "two_lairs_defeated"
    return None


def _attack_lair_perform(state: State, seat: int, action: Action, events: list[Event]) -> None:
    discovery = state.discovery
    attack_lair(state, seat, discovery["ship"], discovery["space"], events)


def _discard_card_candidates(state: State, seat: int) -> list[Action]:
    return [{"type": "discard_card", "card": c} for c in CARD_TYPES if c in state.players[seat].part.cards]


def _discard_card_check(state: State, seat: int, action: Action) -> str | None:
    return None if action["card"] in state.players[seat].part.cards else "card_not_held"


def _discard_card_perform(state: State, seat: int, action: Action, events: list[Event]) -> None:
    player = state.players[seat]
    player.part.cards.remove(action["card"])
    state.part.aristocrat_discard.append(action["card"])
    event(events, "aristocrat_card_discarded", seat, card=action["card"])
    if len(player.part.cards) <= CARD_HAND_LIMIT:
        finish_turn(state, seat, events)


SPECS: list[ActionSpec] = [
    ActionSpec(
        "play_card",
        {
            "card": OneOf(PLAYABLE_CARDS, "an aristocrat card"),
            "luxury": Optional(OneOf(LUXURIES, "Inventor: the luxury to take")),
            "ship": Optional(SHIP),
        },
        _play_card_candidates,
        _play_card_check,
        _play_card_perform,
        "Expansion: play an aristocrat card before your first ship move or discovery.",
    ),
    ActionSpec(
        "exchange_card",
        {"card": OneOf(CARD_TYPES, "the card to give up")},
        _exchange_card_candidates,
        _exchange_card_check,
        _exchange_card_perform,
        "Expansion: once per turn pay 2 gold to discard a card and draw a new one.",
    ),
    ActionSpec(
        "respond",
        {"option": OneOf(_RESPONSES, "one of the pending choice's options")},
        _respond_candidates,
        _respond_check,
        _respond_perform,
        "Expansion: answer the pending sea-battle decision (pay/fight, Sea Hero, penalty, offer).",
    ),
    ActionSpec(
        "attack_lair",
        {},
        _attack_lair_candidates,
        _attack_lair_check,
        _attack_lair_perform,
        "Expansion: reveal the discovered pirate lair and fight it (else return_tile puts it back).",
    ),
    ActionSpec(
        "discard_card",
        {"card": OneOf(CARD_TYPES, "an aristocrat card")},
        _discard_card_candidates,
        _discard_card_check,
        _discard_card_perform,
        "Expansion: end of turn with more than 4 aristocrat cards: discard one.",
    ),
]
