"""``ExpansionAI``: the Pirates & Aristocrats answers at the AI's hooks
(``variant.BaseAI`` lists them)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ....games.anno1503.data import COLS
from ....games.anno1503.expansion.data import TILE_CROWN
from ....games.anno1503.expansion.hooks import EXPANSION_RULES, OWN_TYPES
from ..variant import BaseAI
from . import evaluate, policy, sample

if TYPE_CHECKING:
    from ....core import Action, View
    from ....games.anno1503.state import State
    from ....rng import Rng


# The expansion's longer turns: fewer simulations per decision (``players``).
_SIMULATIONS = 72
# The expansion's values between moves differ several times less than the
# base game's (gold is a means, not a goal): easy's jitter is scaled to match.
_NOISE = 0.3


class ExpansionAI(BaseAI):
    """Six goals, battles scored by their odds, the hidden decks sampled."""

    rules = EXPANSION_RULES
    name = rules.name
    applied_types = BaseAI.applied_types | (frozenset(OWN_TYPES) - {"attack_lair"})
    special_types = frozenset(("respond", "attack_lair"))
    looks_one_roll_ahead = False
    noise_scale = _NOISE
    simulations = _SIMULATIONS
    stack_sizes = sample.STACK_SIZES

    # --- value ------------------------------------------------------------------

    def tile_beliefs(self, state: State, seat: int):
        return evaluate.TileBeliefs(state, seat)

    def evaluate(self, state: State, seat: int, beliefs, inhabitant):
        return evaluate.evaluate(state, seat, beliefs)

    def public_strength(self, state: State, seat: int, inhabitant):
        return evaluate.public_strength(state, seat)

    # --- policy -------------------------------------------------------------------

    def special_score(self, state: State, seat: int, action: Action, base):
        """A pirate attack or Sea Hero answer, or a lair fight: by the odds."""
        if action["type"] == "attack_lair":
            return policy.attack_score(state, seat, base)
        if state.choice["kind"] in ("pirate_attack", "sea_hero"):
            return policy.respond_score(state, seat, action, base)
        return None

    def seen_tile_worth(self, state: State, seat: int, action: Action, space, beliefs):
        worth = beliefs.space_value(state, space) > 0.0
        return worth and policy.worth_taking(state, seat, action["ship"], space, beliefs)

    # --- determinization ----------------------------------------------------------

    def located_tiles(self, view: View):
        return sample.located_expansion_tiles(view)

    def unknown_tiles(self, view: View, known, backs):
        return sample.unknown_expansion_tiles(view, known, backs)

    def is_own_tile(self, tile) -> bool:
        return TILE_CROWN[tile]

    def is_own_square(self, square) -> bool:
        return square[1] >= COLS  # the pirate board lies east of the main board

    def check_reserve(self, view: View, reserve) -> None:
        if len(reserve) != view["expansion"]["expansion_reserve_size"]:
            raise ValueError("the view's expansion tiles do not add up; cannot determinize")

    def player_part(self, entry, cards):
        return "aristocrat", sample.player_aristocrat(entry, cards)

    def top_level(self, view: View, seat: int, rng: Rng, reserve):
        return sample.expansion_top_level(view, seat, rng, reserve)

    def box_tiles(self, view: View, backs):
        return [t for t in sample.EXPANSION_TILES if sample.TILE_BACKS[t] not in backs]


EXPANSION_AI = ExpansionAI()
