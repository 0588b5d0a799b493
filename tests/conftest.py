"""Shared pytest setup: suite options, the seeded matches' report, the Redis fixture.

The repository root and ``client/src`` are importable through pytest's
``pythonpath`` option (pyproject.toml), so ``import engine`` works from any
working directory without installing the project.
"""

import pytest

from launcher.redis_process import RedisProcess

# The seeded matches' report and coverage check: hooks that must run on the
# xdist controller, which only loads this conftest (tests/engine/match_report.py).
from tests.engine.match_report import (  # noqa: F401
    DEFAULT_MATCHES,
    pytest_runtest_logreport,
    pytest_sessionfinish,
    pytest_terminal_summary,
)


def pytest_addoption(parser):
    parser.addoption(
        "--engine-matches",
        type=int,
        default=DEFAULT_MATCHES,
        help="seeded random matches per game for the engine invariant tests, shared by its "
        "variants (default 300; `make test-fast` plays 16)",
    )


@pytest.fixture(scope="session")
def redis_url():
    """A private redis-server for the session (tests that start their own stacks)."""
    with RedisProcess() as redis_server:
        yield redis_server.url
