"""The seeded random matches of the engine suite, one case per (game,
variant, player count, seed): what ``tests/engine/conftest.py`` parametrizes
and what ``tests/engine/match_report.py`` counts."""

from dataclasses import dataclass

import engine

from . import SUPPORT


@dataclass(frozen=True)
class MatchCase:
    game_id: str
    variant: object  # support.variants.Variant, or None for a game without support
    num_players: int
    seed: int

    @property
    def options(self):
        return dict(self.variant.options) if self.variant else {}

    @property
    def id(self):
        label = self.variant.label.replace(" ", "-") if self.variant else self.game_id
        return f"{label}-{self.num_players}p-seed{self.seed}"


def match_cases(per_game):
    """The cases of every registered game's variants, round-robin over player counts.

    A game without a support module gets a single case, which fails and
    says what to add (rather than hundreds of identical failures).
    """
    cases = []
    for game_id in engine.list_games():
        support = SUPPORT.get(game_id)
        if support is None:
            cases.append(MatchCase(game_id, None, engine.get_game(game_id).min_players, 0))
            continue
        for variant in support.MATCH_VARIANTS:
            for num_players, seed in variant.matches(per_game):
                cases.append(MatchCase(game_id, variant, num_players, seed))
    return cases
