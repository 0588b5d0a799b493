"""The AI of each Anno 1503 variant, and the value read through it.

``AI_VARIANTS`` maps a rules variant's name (``state.variant.name``) to its
AI hooks (``variant.BaseAI`` or a subclass); ``policy``, ``outlook``,
``sample`` and ``players`` reach the variant only through ``ai_of`` /
``ai_of_view`` and the functions here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...games.anno1503.variants import variant_for
from .expansion.hooks import EXPANSION_AI
from .values import WIN
from .variant import BASE_AI

if TYPE_CHECKING:
    from ...core import View
    from ...games.anno1503.state import State


AI_VARIANTS = {BASE_AI.name: BASE_AI, EXPANSION_AI.name: EXPANSION_AI}


def ai_of(state: State):
    """The AI hooks of the variant ``state`` is played with."""
    return AI_VARIANTS[state.variant.name]


def ai_of_view(view: View):
    """The AI hooks of the variant a view's options name (the base game when none)."""
    try:
        return AI_VARIANTS[variant_for(view.get("options") or {}).name]
    except KeyError:
        return BASE_AI


def tile_beliefs(state: State, seat: int):
    """What ``seat`` expects of the face-down tiles (the variant's beliefs)."""
    return ai_of(state).tile_beliefs(state, seat)


def evaluate(state: State, seat: int, beliefs=None, inhabitant=None):
    """The value of ``state`` for ``seat`` (own holdings only), with
    ``inhabitant`` the table of inhabitant values (medium's by default)."""
    return ai_of(state).evaluate(state, seat, beliefs, inhabitant)


def public_strength(state: State, seat: int, inhabitant=None):
    """A seat's value from public information only (hand counted by size)."""
    return ai_of(state).public_strength(state, seat, inhabitant)


def relative_value(state: State, seat: int, beliefs=None, inhabitant=None, own_value=evaluate):
    """Own value (``own_value``) minus the strongest opponent's: the search's leaf value."""
    if state.winner is not None:
        return WIN if state.winner == seat else -WIN
    mine = own_value(state, seat, beliefs, inhabitant)
    ai = ai_of(state)
    rival = max(ai.public_strength(state, s, inhabitant) for s in range(state.num_players) if s != seat)
    return mine - rival
