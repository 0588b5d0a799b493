"""Anno 1503's goals as the AI counts them: each seat's progress towards the
five goals (a fraction each) and the score of such progress, which rewards
the three most advanced (a match is won with any three)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...games.anno1503.data import GOALS
from ...games.anno1503.rules import island_tiles, outside_red, owns
from .values import merchant_progress

if TYPE_CHECKING:
    from ...games.anno1503.state import Player


_NEED = dict(GOALS)
GOAL_NAMES = tuple(name for name, _ in GOALS)
GOLD, OFFICES, AGREEMENTS, BUILDINGS, MERCHANTS = range(5)
_OUTSIDE_TOP3 = 0.15  # progress on a goal outside the best three still has some value
_VP_BONUS = 0.6


def _buildings_reachable(player: Player, supply):
    """Owned buildings plus types still in the supply that the seat lacks."""
    owned = player.buildings
    return len(owned) - owned.count(None) + sum(1 for b, n in supply.items() if n > 0 and b not in owned)


def gold_progress(gold):
    # convex: early gold is spent freely, the last coins before 30 are kept
    return min(gold / _NEED["gold"], 1.0) ** 1.5


# Coins above 30 keep the gold goal through a pirate raid or a fire (each
# costs gold unless a Smithy / Fire Brigade protects): worth a little each.
_BUFFER_UNIT = 0.012


def gold_buffer(player: Player, gold):
    """The value of ``gold`` above the goal as insurance against raids and fires."""
    spare = gold - _NEED["gold"]
    if spare <= 0:
        return 0.0
    owed = 0
    if not owns(player, "smithy"):
        owed = island_tiles(player)
    if not owns(player, "fire_brigade"):
        owed = max(owed, outside_red(player))
    return _BUFFER_UNIT * min(spare, owed)


def goal_progress(player: Player, supply=None):
    """Five fractions in [0, 1], in GOALS order.

    With the building ``supply`` given, a public-building goal that can no
    longer be reached counts for little, so the seat turns to another goal.
    """
    offices = 5 - player.branch_offices.count(None)
    buildings: float = 4 - player.buildings.count(None)
    if supply is not None and _buildings_reachable(player, supply) < _NEED["public_buildings"]:
        buildings *= 0.3
    return [
        gold_progress(player.gold),
        min(offices / _NEED["branch_offices"], 1.0),
        min(len(player.trade_agreements) / _NEED["trade_agreements"], 1.0),
        min(buildings / _NEED["public_buildings"], 1.0),
        merchant_progress(player.slots),
    ]


def goal_score(progress):
    a, b, c, d, e = sorted(progress, reverse=True)
    done = (a >= 1.0) + (b >= 1.0) + (c >= 1.0) + (d >= 1.0) + (e >= 1.0)
    return a + b + c + _OUTSIDE_TOP3 * (d + e) + _VP_BONUS * done


def goal_gain(progress, goal, delta, score=None):
    """How much the goal score changes when ``goal`` progresses by
    ``delta``; ``score``: ``goal_score(progress)`` when already known."""
    changed = list(progress)
    changed[goal] = max(0.0, min(changed[goal] + delta, 1.0))
    return goal_score(changed) - (goal_score(progress) if score is None else score)
