"""Small helpers the game encoders share: one-hot slots, seat-relative order."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.core import View


def one_hot(value, vocabulary):
    """``len(vocabulary) + 1`` floats: the value's slot, or the last for anything else."""
    out = [0.0] * (len(vocabulary) + 1)
    out[vocabulary.index(value) if value in vocabulary else len(vocabulary)] = 1.0
    return out


def seat_one_hot(seat: int | None, viewer, num_players: int):
    """``num_players + 1`` floats: the seat relative to the viewer, or the last for none/other."""
    out = [0.0] * (num_players + 1)
    out[(seat - viewer) % num_players if type(seat) is int else num_players] = 1.0
    return out


def seats_multi_hot(seats, viewer, num_players: int):
    out = [0.0] * num_players
    for seat in seats or ():
        if type(seat) is int:
            out[(seat - viewer) % num_players] = 1.0
    return out


def number(value):
    """A view number; booleans as 0/1, None as 0."""
    return float(value) if isinstance(value, (int, float)) else 0.0


def relative_players(view: View, viewer):
    """The view's players, the viewer first, then in seat order after it."""
    players = view["players"]
    n = len(players)
    return [players[(viewer + i) % n] for i in range(n)]
