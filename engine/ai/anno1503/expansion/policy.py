"""Answers to the expansion's battles, scored without rolling the dice.

Applying ``fight`` in a sampled world would score one roll of the dice; the
policy needs the expectation instead: the chance to win (from both
strengths, ``win_probability``) times the card's reward, against the loss.
Paying costs the pay-off gold. Using the Sea Hero wins a tie for a card.
Also: whether to fight a lair just found (S3 §6.3: fight or put it back)
and whether a seen tile is worth discovering again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ....games.anno1503.expansion.data import CONTENT, LUXURIES, PIRATE_CARDS, TILE_KINDS
from ....games.anno1503.expansion.rules import cannons
from .evaluate import _DAMAGED, _FLEET, _GOLD_UNIT, lair_value, progress, ship_value, win_probability

if TYPE_CHECKING:
    from ....core import Action
    from ....games.anno1503.state import Player, State


# The expansion's actions whose result the policy values by applying them.
APPLIED = frozenset(
    (
        "buy_cannon",
        "build_manor",
        "build_aristocrat",
        "sell_luxury",
        "repair_ship",
        "play_card",
        "exchange_card",
        "discard_card",
        "respond",
    )
)
_PAY = CONTENT["pay_off_pirates"]
_LOSS = {"give": 0.08, "damage": _DAMAGED + 0.05, "half_gold": None}
_REWARD_GOODS = 0.07  # a card won (a luxury counts a little more)


def _reward(card):
    value = 0.0
    for what, n in card["win"].items():
        if what == "gold":
            value += _GOLD_UNIT * n
        else:
            value += n * (_REWARD_GOODS + (0.03 if what in LUXURIES else 0.0))
    return value


def _loss(card, player: Player):
    loss = _LOSS[card["loss"]]
    return _GOLD_UNIT * (player.gold // 2) if loss is None else loss


def respond_score(state: State, seat: int, action: Action, base):
    """The expected value of an answer to a pirate attack or a Sea Hero tie."""
    option = action["option"]
    combat = state.part.combat
    if state.choice["kind"] == "sea_hero":
        # The tie is won for one card; a reroll is an even fight again.
        return base + (0.02 if option == "sea_hero" else 0.0)
    player = state.players[seat]
    card = PIRATE_CARDS[combat["card"]]
    if option == "pay":
        return base - _GOLD_UNIT * _PAY
    p = win_probability(cannons(player), combat["strength"])
    return base + p * _reward(card) - (1 - p) * _loss(card, player)


def attack_score(state: State, seat: int, base):
    """Fighting the lair just discovered: its worth weighed by the odds (a
    goal step if won, a damaged ship if lost). Below zero, putting the tile
    back (``return_tile``, valued like any move) is the better answer."""
    player = state.players[seat]
    tile = state.spaces[state.discovery["space"]]
    return base + lair_value(player, tile, *progress(player))


def worth_taking(state: State, seat: int, ship, space, beliefs):
    """Whether a tile the seat has seen is worth discovering again.

    A lair is worth finding again when fighting it is (its value already
    weighs the odds; ``attack_score`` then fights it).
    Other tiles send the ship home when taken: they must be worth more than
    the ship aiming elsewhere, else discover-and-return would loop forever.
    """
    if TILE_KINDS[state.spaces[space]] == "lair":
        return True
    value = beliefs.space_value(state, space)
    if value <= _FLEET:
        return False
    # what the ship is worth without this tile to aim at
    return value > ship_value(state, state.players[seat], ship, beliefs.without(space))
