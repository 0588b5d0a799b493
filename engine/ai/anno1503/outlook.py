"""``hard``'s leaf value in the base game: the position as the next
production roll will leave it.

Every seat takes one card on every roll, and the island decides which: a
number gives its home commodity, a branch office on that number's bridge
adds its own, and the ``?`` number any. Spice and tobacco, which citizens
and merchants need, come only from ``?``, branch offices and buying, so the
same hand is worth more to a seat whose island will bring the missing card.
``evaluate`` sees the hand as it is; this value averages it over the six
numbers of the die, the seat taking its best card on each (a 6 is an event:
counted as no card). That also values where a branch office goes, which the
hand alone cannot tell.

Only what the seat may know is read: its own island and branch offices and
the public stacks.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...games.anno1503.data import RULES
from ...games.anno1503.turn import production_options
from .values import HARD_INHABITANT
from .variants import ai_of, evaluate, relative_value, tile_beliefs

if TYPE_CHECKING:
    from ...games.anno1503.state import State


# The die's top face is the event face; production numbers lie below it.
_EVENT_FACE = RULES["event_die_face"]


def next_roll_value(state: State, seat: int, beliefs=None, inhabitant=HARD_INHABITANT):
    """``evaluate`` averaged over the next production number."""
    ai = ai_of(state)
    if state.winner is not None or not ai.looks_one_roll_ahead:
        return evaluate(state, seat, beliefs, inhabitant)
    # tile beliefs read goal progress, which one card does not change
    beliefs = beliefs or tile_beliefs(state, seat)
    numbers = [set(production_options(state, seat, n)[0]) for n in range(1, _EVENT_FACE)]
    # every card any number may bring, each valued once (this runs at every leaf)
    now, with_card = ai.evaluate_with_cards(state, seat, set().union(*numbers), beliefs, inhabitant)
    total = now
    for cards in numbers:
        total += max((with_card[c] for c in cards), default=now)
    return total / _EVENT_FACE


def hard_leaf_value(state: State, seat: int):
    """The search's leaf: the seat's value after the next roll, with hard's
    inhabitant values, minus the strongest opponent's public strength."""
    return relative_value(state, seat, inhabitant=HARD_INHABITANT, own_value=next_roll_value)
