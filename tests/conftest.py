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

from launcher.redis_process import RedisProcess  # noqa: E402  (needs the root on sys.path)

# The seeded matches' report and coverage check: hooks that must run on the
# xdist controller, which only loads this conftest (tests/engine/match_report.py).
from tests.engine.match_report import (  # noqa: E402, F401
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


# What `make test-fast` leaves out (`-m "not slow"`): tests that start a
# browser, a Redis cluster or Sentinel, a whole stack, a code generator or
# a fuzzer, or play fixed long matches; each takes seconds to minutes. The
# whole suite (`make test`) runs them all.
SLOW = (
    "tests/web/",
    "tests/cluster/",
    "tests/service/test_schemathesis.py",
    "tests/service/test_retention.py",
    "tests/service/test_full_match.py",
    "tests/service/test_live_gunicorn.py",
    "tests/service/test_hung_redis.py",
    "tests/service/test_redis_outage.py",
    "tests/client/test_generated_clients.py",
    "tests/client/test_packaging.py",
    "tests/ops/test_doc_code_blocks.py",
    "tests/ops/test_launcher.py",
    "tests/ops/test_chaos.py",
    "tests/ops/test_starter_bot.py",
    "tests/ops/test_worker_reconnect.py",
    "tests/ops/test_lint.py",
    "tests/engine/ai/test_ai_replay.py",
    "tests/env/test_live.py",
    # seconds each: live streams, multi-process metrics, deploy renders,
    # make itself, replica waits, the client against a served stack
    "tests/service/test_stream.py",
    "tests/service/test_metrics.py",
    "tests/service/test_idempotent_retries.py",
    "tests/service/test_deadlines.py",
    "tests/ops/test_deploy_schemas.py",
    "tests/ops/test_make_and_ci.py",
    "tests/client/test_client.py",
    "tests/client/test_cli.py",
    "tests/engine/games/anno1503/test_expansion_base_unchanged.py",
    # every variant's board rendered and searched; PettingZoo's api_test per variant
    "tests/engine/test_render_anno1503.py",
    "tests/engine/test_render_anno1452.py",
    "tests/env/test_aec.py",
)
SLOW_IDS = ("anno1503-base-uniform-",)  # the fixed uniform matches, ~10 s each


def pytest_collection_modifyitems(config, items):
    for item in items:
        if item.nodeid.startswith(SLOW) or any(part in item.nodeid for part in SLOW_IDS):
            item.add_marker(pytest.mark.slow)


@pytest.fixture(scope="session")
def redis_url():
    """A private redis-server for the session (tests that start their own stacks)."""
    with RedisProcess() as redis_server:
        yield redis_server.url
