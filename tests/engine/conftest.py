"""Parametrization of the seeded random matches (``support.cases``).

Each match is its own test case (game, variant, player count, seed), so
pytest-xdist spreads them over workers. ``--engine-matches`` sets how many
per game variant (a variant's ``share`` of it; see ``support.variants``);
they cycle over the variant's player counts. Their lengths and the coverage
check are reported by ``match_report.py``, which the root conftest loads.
A variant marked ``slow`` (``support.variants``) marks its cases slow.
"""

import pytest

from .support.cases import match_cases


def pytest_generate_tests(metafunc):
    if "match_case" in metafunc.fixturenames:
        cases = match_cases(metafunc.config.getoption("engine_matches"))
        params = [
            pytest.param(c, id=c.id, marks=[pytest.mark.slow] if c.variant and c.variant.slow else [])
            for c in cases
        ]
        metafunc.parametrize("match_case", params)
