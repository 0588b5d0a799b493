"""The base game's answers at the AI's variant hooks.

The AI reads the variant of the game it plays through ``variants.ai_of``
(a state) or ``variants.ai_of_view`` (a view) and calls it at these points;
``BaseAI`` answers for the base game and a variant's AI
(``expansion.hooks.ExpansionAI``) overrides them:

Value (``variants``, ``policy``, ``outlook``)
    ``tile_beliefs(state, seat)``, ``evaluate(state, seat, beliefs,
    inhabitant)``, ``public_strength(state, seat, inhabitant)``,
    ``looks_one_roll_ahead`` (hard's leaf value averages the next roll) and
    then ``evaluate_with_cards(state, seat, commodities, beliefs,
    inhabitant)`` (the value with one more card of each commodity).
Policy (``policy``)
    ``applied_types`` (types scored by applying them), ``special_types`` and
    ``special_score(...)`` (types scored by odds instead; None: apply),
    ``seen_tile_worth(...)`` (a tile the seat has seen: worth discovering
    again? None: score by applying the discovery).
Players (``players``)
    ``noise_scale`` (easy's jitter), ``simulations`` (hard's budget).
Determinization (``sample``)
    ``stack_sizes``, ``located_tiles(view)``, ``unknown_tiles(view, known,
    backs)``, ``is_own_tile(tile)``, ``is_own_square(square)``,
    ``check_reserve(view, reserve)``, ``player_part(entry, cards)``,
    ``top_level(view, seat, rng, reserve)``, ``box_tiles(view, backs)``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from ...games.anno1503.variant import ACTION_TYPES, BASE_GAME
from .evaluate import TileBeliefs, evaluate, evaluate_with_cards, public_strength

if TYPE_CHECKING:
    from ...core import Action, View
    from ...games.anno1503.state import State
    from ...rng import Rng


# Scored without applying them (``policy``): their result depends on hidden
# things (the next roll, the tile, the card drawn) or on the turn passing.
_SCORED_APART = frozenset(("end_turn", "discover", "big_branch_office", "discard"))
# hard's simulations per decision, before the player-count discount (``players``).
SIMULATIONS = 100


class BaseAI:
    """The AI's hooks for the base game."""

    rules = BASE_GAME
    name = rules.name
    applied_types = frozenset(ACTION_TYPES) - _SCORED_APART
    special_types: frozenset[str] = frozenset()
    looks_one_roll_ahead = True
    noise_scale = 1.0
    simulations = SIMULATIONS
    stack_sizes: ClassVar[dict[str, int]] = {}

    # --- value ------------------------------------------------------------------

    def tile_beliefs(self, state: State, seat: int):
        return TileBeliefs(state, seat)

    def evaluate(self, state: State, seat: int, beliefs, inhabitant):
        return evaluate(state, seat, beliefs, inhabitant)

    def evaluate_with_cards(self, state: State, seat: int, commodities, beliefs, inhabitant):
        """``(evaluate, {commodity: evaluate with one more such card})``; read
        only where ``looks_one_roll_ahead``."""
        return evaluate_with_cards(state, seat, commodities, beliefs, inhabitant)

    def public_strength(self, state: State, seat: int, inhabitant):
        return public_strength(state, seat, inhabitant)

    # --- policy -------------------------------------------------------------------

    def special_score(self, state: State, seat: int, action: Action, base):
        return None

    def seen_tile_worth(self, state: State, seat: int, action: Action, space, beliefs):
        return None

    # --- determinization ----------------------------------------------------------

    def located_tiles(self, view: View):
        return set()

    def unknown_tiles(self, view: View, known, backs):
        return []

    def is_own_tile(self, tile) -> bool:
        return False

    def is_own_square(self, square) -> bool:
        return False

    def check_reserve(self, view: View, reserve):
        """Raise ``ValueError`` when the variant's reserve does not add up."""

    def player_part(self, entry, cards):
        """``(key, dump)`` of the variant's part of a player, or None."""
        return None

    def top_level(self, view: View, seat: int, rng: Rng, reserve):
        """``(top-level dump keys, cards per seat)`` of the variant."""
        return {}, [None] * view["num_players"]

    def box_tiles(self, view: View, backs):
        return []


BASE_AI = BaseAI()
