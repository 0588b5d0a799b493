"""The match state: one JSON-compatible dict plus small shared helpers.

``State.data`` is exactly what ``dump`` returns (see DESIGN.md), so a state
round-trips through JSON and copies cheaply. Helpers here are the only code
that touches gold, prestige and the generator, so the 0-20 bounds, the
insolvency rule and the seeded dice are applied in one place.
"""

from __future__ import annotations

import marshal
from typing import TYPE_CHECKING, Any

from ...kit import event
from ...rng import Rng
from .data import GOLD_PER_PRESTIGE, OTTOKAR_ID, PRESTIGE_MAX

if TYPE_CHECKING:
    from ...core import Event


def _copy(value):
    """Deep copy of plain JSON data.

    A marshal round trip (in memory) is about twice as fast as a recursive
    copy, and cloning is a large part of every AI rollout step. It keeps a
    container that appears twice shared in the copy; the state never holds
    one twice (it is JSON, and ``test_anno1452_random`` checks every step).
    """
    return marshal.loads(marshal.dumps(value))


# The match's plain data: one JSON dict in the DESIGN.md dump format.
Data = dict[str, Any]


class State:
    """A match position; ``data`` is plain JSON data."""

    __slots__ = ("data",)

    def __init__(self, data):
        self.data = data

    def clone(self):
        return State(_copy(self.data))

    def frozen(self):
        """This position, for cloning many times and changing never: an AI
        player applies each of its moves to one position, and its clones
        skip half the copying work (the position is serialized once)."""
        return FrozenState(self.data)

    def __eq__(self, other):
        return isinstance(other, State) and self.data == other.data

    def __repr__(self):
        d = self.data
        return f"<Anno1452 row={d['row']} phase={d['phase']} decision={d['decision']}>"


class FrozenState(State):
    """A ``State`` whose data must not change: its clones are read from the
    data serialized when it was made."""

    __slots__ = ("_serialized",)

    def __init__(self, data):
        super().__init__(data)
        self._serialized = marshal.dumps(data)

    def clone(self):
        return State(marshal.loads(self._serialized))


def copy_data(data):
    return _copy(data)


def roll(d: Data, count, events: list[Event], purpose, seat=None):
    """Roll ``count`` dice with the state's generator; recorded as an event."""
    rng = Rng(d["rng"])
    dice = [rng.die() for _ in range(count)]
    d["rng"] = rng.state
    event(events, "dice_rolled", seat, purpose=purpose, dice=dice)
    return dice


def shuffle(d: Data, items) -> None:
    rng = Rng(d["rng"])
    rng.shuffle(items)
    d["rng"] = rng.state


def players_of(d: Data):
    """Seats of the real players (Ottokar is never one)."""
    return range(d["num_players"])


def is_player(owner) -> bool:
    return owner != OTTOKAR_ID


def gain_gold(d: Data, seat, amount, events: list[Event], reason) -> None:
    if amount > 0:
        d["players"][seat]["gold"] += amount
        event(events, "gold_received", seat, amount=amount, reason=reason)


def pay_gold(d: Data, seat, amount, events: list[Event], reason) -> None:
    """Pay ``amount`` to the supply; the caller checked that it is payable."""
    if amount > 0:
        d["players"][seat]["gold"] -= amount
        event(events, "gold_paid", seat, amount=amount, reason=reason)


def change_prestige(d: Data, seat, delta, events: list[Event], reason) -> None:
    """Move on the 0-20 prestige table with the 5-gold conversions.

    Points above 20 become 5 gold each; points lost below 0 cost 5 gold each,
    and a player who cannot pay that debt makes the supply pay the amount to
    every other player instead (the insolvency rule, ruling 9).
    """
    if seat == OTTOKAR_ID or delta == 0:
        return
    player = d["players"][seat]
    raw = player["prestige"] + delta
    player["prestige"] = min(PRESTIGE_MAX, max(0, raw))
    event(events, "prestige_changed", seat, delta=delta, prestige=player["prestige"], reason=reason)
    if raw > PRESTIGE_MAX:
        gain_gold(d, seat, (raw - PRESTIGE_MAX) * GOLD_PER_PRESTIGE, events, "prestige_above_20")
    elif raw < 0:
        debt = -raw * GOLD_PER_PRESTIGE
        if player["gold"] >= debt:
            pay_gold(d, seat, debt, events, "prestige_below_0")
        else:
            event(events, "insolvent", seat, amount=debt)
            for other in players_of(d):
                if other != seat:
                    gain_gold(d, other, debt, events, "insolvency")
