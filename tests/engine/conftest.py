"""Parametrization of the seeded random matches; their length and coverage summary.

Each match is its own test case (game, variant, player count, seed), so
pytest-xdist spreads them over workers. ``--engine-matches`` sets how many
per game variant (a variant's ``share`` of it; see ``support.variants``);
they cycle over the variant's player counts.

Session-level check: for every coverage group whose matches all ran, each
action type the support module lists in ``COVERAGE`` must have been chosen
at least once, else the session fails (a weight that starves a type, or a
rules change that makes one unreachable, shows up here).
"""

from dataclasses import dataclass

import pytest

import engine

from .support import SUPPORT

_LENGTHS = []
_CHOSEN = {}  # coverage group -> set of chosen action types
_DONE = {}  # coverage group -> matches reported
_PLANNED = {}  # coverage group -> matches collected
_MISSING = {}  # coverage group -> action types never chosen


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


def pytest_generate_tests(metafunc):
    if "match_case" in metafunc.fixturenames:
        cases = match_cases(metafunc.config.getoption("engine_matches"))
        metafunc.parametrize("match_case", cases, ids=[c.id for c in cases])


def _planned(per_game):
    """Coverage group -> how many matches a full run plays (computed, since
    under xdist the controller collects nothing)."""
    planned = {}
    for case in match_cases(per_game):
        if case.variant is not None and case.variant.coverage:
            planned[case.variant.coverage] = planned.get(case.variant.coverage, 0) + 1
    return planned


def pytest_runtest_logreport(report):
    """Collect what match tests record (xdist-safe: runs on the controller)."""
    if report.when != "call":
        return
    for name, value in report.user_properties:
        if name == "match_length":
            _LENGTHS.append(value)
        elif name == "action_types" and report.passed:
            group, types = value
            _CHOSEN.setdefault(group, set()).update(types)
            _DONE[group] = _DONE.get(group, 0) + 1


@pytest.hookimpl(tryfirst=True)
def pytest_sessionfinish(session):
    if hasattr(session.config, "workerinput"):
        return  # a worker sees only its share; the controller checks
    _PLANNED.update(_planned(session.config.getoption("engine_matches")))
    for support in SUPPORT.values():
        for group, expected in support.COVERAGE.items():
            if _PLANNED.get(group) and _DONE.get(group) == _PLANNED[group]:
                missing = sorted(expected - _CHOSEN.get(group, set()))
                if missing:
                    _MISSING[group] = missing
    if _MISSING and session.exitstatus == pytest.ExitCode.OK:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter):
    if _LENGTHS:
        by_kind = {}
        for kind, actions in _LENGTHS:
            by_kind.setdefault(kind, []).append(actions)
        terminalreporter.section("actions per random match")
        for kind, lengths in sorted(by_kind.items()):
            lengths.sort()
            terminalreporter.write_line(
                f"{kind}: {len(lengths)} matches, min {lengths[0]}, median {lengths[len(lengths) // 2]}, "
                f"mean {sum(lengths) / len(lengths):.0f}, max {lengths[-1]}"
            )
    if _CHOSEN:
        terminalreporter.section("action types chosen per coverage group")
        for group, types in sorted(_CHOSEN.items()):
            complete = (
                "all matches ran" if _DONE.get(group) == _PLANNED.get(group) else "partial run, not checked"
            )
            terminalreporter.write_line(
                f"{group} ({_DONE.get(group)} matches, {complete}): {len(types)} types: {' '.join(sorted(types))}"
            )
    for group, missing in sorted(_MISSING.items()):
        terminalreporter.write_line(f"FAILED coverage: {group} never chose {missing}", red=True)
