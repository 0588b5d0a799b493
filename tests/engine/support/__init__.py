"""Helpers of the generic engine tests.

``SUPPORT`` maps a game id to the module that knows that game's bookkeeping
(what is conserved), secrets (what a viewer may not see) and how its seeded
matches are played (``MATCH_VARIANTS``, ``COVERAGE``). A new game adds one
module with the same names as ``anno1503`` and one line here; until it
does, its random-match invariant tests fail and say so.
"""

from . import anno1452, anno1503

SUPPORT = {anno1503.GAME_ID: anno1503, anno1452.GAME_ID: anno1452}


def support_for(game_id):
    """The game's support module; fails the test when there is none."""
    try:
        return SUPPORT[game_id]
    except KeyError:
        raise AssertionError(
            f"no invariant support for {game_id!r}: add tests/engine/support/{game_id}.py "
            "(state_problems, victory_points, outcome_problems, perturbations, perturbation_names, "
            "view_leaks, event_leaks, MATCH_VARIANTS, COVERAGE) "
            "and register it in tests/engine/support/__init__.py"
        ) from None
