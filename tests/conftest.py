"""Shared pytest setup: make the repository importable, add suite options.

The repository root is put on ``sys.path`` so ``import engine`` works from
any working directory without installing the project.
"""

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from service.redis_process import RedisProcess  # noqa: E402  (needs the root on sys.path)


def pytest_addoption(parser):
    parser.addoption(
        "--engine-matches",
        type=int,
        default=300,
        help="seeded random matches per game for the engine invariant tests (default 300)",
    )


@pytest.fixture(scope="session")
def redis_url():
    """A private redis-server for the session (tests that start their own stacks)."""
    with RedisProcess() as redis_server:
        yield redis_server.url
