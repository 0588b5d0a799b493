"""The value primitives that Anno 1503's base evaluation (evaluate.py) and
the expansion's (expansion/evaluate.py) both build on."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...games.anno1503.data import GOALS

if TYPE_CHECKING:
    from ...games.anno1503.state import Player


WIN = 100.0
_NEED = dict(GOALS)
# Partial credit of each inhabitant kind towards three merchants.
_MERCHANT_CREDIT = {"pioneer": 0.0, "settler": 0.2, "citizen": 0.55, "merchant": 1.0}


def merchant_progress(slots):
    """Progress towards three merchants: only the three most developed
    inhabitants count (settlers beyond them would make 2 merchants and
    4 settlers look nearly done, and the last development worthless)."""
    credits = sorted((_MERCHANT_CREDIT[k] for k in slots if k is not None), reverse=True)
    return min(sum(credits[: _NEED["merchants"]]) / _NEED["merchants"], 1.0)


# Inhabitants buy goods (income) and are steps towards merchants.
_INHABITANT = {"pioneer": 0.06, "settler": 0.15, "citizen": 0.26, "merchant": 0.38}
# hard's table: a placed pioneer is the step every later goal waits on (a
# slot to develop towards merchants; the next slot carries a building), and
# medium's 0.06 lets the wood a pioneer needs be sold. Medium's greedy rule
# with 0.09, one seat against three mediums, won 176 of 600 4-player
# matches against medium's own 147 (seeds 30001 and 50001). A pioneer worth
# more than a settler (0.18) is never developed: 16% of 200.
HARD_INHABITANT = {**_INHABITANT, "pioneer": 0.09}


def _inhabitant_value(player: Player, inhabitant=None):
    inhabitant = inhabitant or _INHABITANT
    return sum(inhabitant[k] for k in player.slots if k is not None)
