"""What the generic invariant tests need to know about Anno 1503, base game
and Pirates & Aristocrats: ``components`` (the printed counts),
``bookkeeping`` (conservation, victory), ``secrets`` (what a viewer may not
see) and ``matches`` (how the seeded matches are played). The names the
generic tests use (see ``support_for``) are gathered here.
"""

from .bookkeeping import outcome_problems, state_problems, victory_points
from .components import GAME_ID
from .matches import COVERAGE, MATCH_VARIANTS, perturbation_names
from .secrets import (
    FORBIDDEN_VIEW_KEYS,
    LEAKY_EVENTS,
    PERTURBATIONS,
    PLANTED_SECRETS,
    SAFE_EVENTS,
    event_leaks,
    perturbations,
    rich_in_secrets,
    view_leaks,
)

__all__ = [
    "COVERAGE",
    "FORBIDDEN_VIEW_KEYS",
    "GAME_ID",
    "LEAKY_EVENTS",
    "MATCH_VARIANTS",
    "PERTURBATIONS",
    "PLANTED_SECRETS",
    "SAFE_EVENTS",
    "event_leaks",
    "outcome_problems",
    "perturbation_names",
    "perturbations",
    "rich_in_secrets",
    "state_problems",
    "victory_points",
    "view_leaks",
]
