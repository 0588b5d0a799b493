"""The seeded random matches' session report: their lengths, the action
types each coverage group chose, and the coverage check.

Session-level check: for every coverage group whose matches all ran, each
action type the support module lists in ``COVERAGE`` must have been chosen
at least once, else the session fails (a weight that starves a type, or a
rules change that makes one unreachable, shows up here). It needs the
default number of matches or more (``make test``); a smaller run (``make
test-fast``'s 16) prints what was chosen without the check.

These hooks run where the reports arrive: on the xdist controller, which
collects nothing and so never imports ``tests/engine/conftest.py``. The
root ``tests/conftest.py`` loads them (in that conftest they went unheard
from a run of the whole tree: the check never ran).
"""

import pytest

from .support import SUPPORT
from .support.cases import match_cases

# ``--engine-matches`` when not given: per game, shared by its variants.
DEFAULT_MATCHES = 300

_LENGTHS = []
_CHOSEN = {}  # coverage group -> set of chosen action types
_DONE = {}  # coverage group -> matches reported
_PLANNED = {}  # coverage group -> matches collected
_MISSING = {}  # coverage group -> action types never chosen


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
    per_game = session.config.getoption("engine_matches")
    _PLANNED.update(_planned(per_game))
    if per_game < DEFAULT_MATCHES:
        return  # too few matches to reach every type: reported, not checked
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
            if terminalreporter.config.getoption("engine_matches") < DEFAULT_MATCHES:
                complete += f", fewer than {DEFAULT_MATCHES} per game: not checked"
            terminalreporter.write_line(
                f"{group} ({_DONE.get(group)} matches, {complete}): {len(types)} types: {' '.join(sorted(types))}"
            )
    for group, missing in sorted(_MISSING.items()):
        terminalreporter.write_line(f"FAILED coverage: {group} never chose {missing}", red=True)
