"""Invariants over hundreds of seeded random matches, checked at every step.

One test case per (game, variant, player count, seed); see
``support.cases`` and ``support.playout`` for what is checked at
every step and at sampled steps. Here, on top: the end (the game's support
module recomputes the winner and scores from the holdings), that the
secrecy checks really ran, and that seed + options + actions replay to the
same final state and events. The action types chosen are recorded for the
session-level coverage check in ``match_report``.
"""

import engine
from engine.runner import replay

from .support import support_for
from .support.playout import play_checked


def test_random_match_keeps_invariants(match_case, record_property):
    game = engine.get_game(match_case.game_id)
    support = support_for(match_case.game_id)
    variant = match_case.variant
    match = play_checked(
        game,
        match_case.num_players,
        match_case.seed,
        support,
        options=variant.options,
        player=variant.player(),
    )
    record_property("match_length", [f"{variant.label} {match.num_players}p", len(match.actions)])

    assert match.outcome is not None, "the match did not end"
    problems = support.outcome_problems(match.final_dump, match.outcome)
    assert not problems, f"end of match: {problems}"
    _assert_probes_ran(support, match)
    _assert_replays(game, match)
    if variant.coverage:
        record_property("action_types", [variant.coverage, sorted({a["type"] for _, a in match.actions})])


def _assert_probes_ran(support, match):
    """Guard against vacuous passes: every kind of hidden-info edit was exercised."""
    assert match.probed, "no step was probed"
    assert match.refusals > 0, "no bad action was tried"
    expected = support.perturbation_names(match.options, match.num_players)
    missing = [name for name in expected if match.perturbations[name] == 0]
    assert not missing, f"these hidden-info perturbations never applied: {missing}"


def _assert_replays(game, match):
    state, events = replay(game, match.num_players, match.options, match.seed, match.actions)
    assert game.dump(state) == match.final_dump, "replaying seed + actions gives another final state"
    assert events == match.events, "replaying seed + actions gives other events"
