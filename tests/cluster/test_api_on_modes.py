"""The service's API tests that matter, run on a Redis Cluster and on Sentinel.

The test functions are those of tests/service, imported here so they run
with this folder's fixtures (conftest.py: the app on each deployment, an RQ
worker on its queue, and the check that Redis refused no command): a full
match with AI seats played by a real ``python -m service.worker``, racing
posts, idempotency, the lobby, events, the deadline index and the sweeper
(turn timers, stalled AI decisions), rate limits.
"""

from types import SimpleNamespace

import pytest

from tests.service import test_rate_limit
from tests.service.test_actions import (  # noqa: F401
    test_idempotent_retry_returns_first_response_and_applies_once,
    test_legal_action_is_applied_and_logged,
    test_stale_version_and_if_match,
)
from tests.service.test_ai_recovery import (  # noqa: F401
    test_a_job_marked_queued_but_out_of_the_queue_is_replaced,
    test_a_job_waiting_in_the_queue_is_left_alone,
    test_two_jobs_racing_for_one_decision_apply_it_once,
)
from tests.service.test_catalogue_and_ops import (
    test_readyz_wants_storage_and_a_recent_worker,  # noqa: F401
)
from tests.service.test_concurrency import (  # noqa: F401
    test_concurrent_retries_with_one_idempotency_key_apply_once,
    test_sixteen_identical_posts_one_wins,
    test_two_joins_race_for_one_seat,
)
from tests.service.test_deadlines import (  # noqa: F401
    test_a_finished_match_leaves_the_index,
    test_a_job_held_by_a_dead_worker_is_replaced,
    test_a_visit_moves_the_entry_to_the_next_due_time,
    test_backfill_puts_older_active_matches_in_the_index_once,
    test_the_newest_version_wins_a_race_for_the_entry,
)
from tests.service.test_full_match import test_random_human_against_three_ai_workers  # noqa: F401
from tests.service.test_idempotent_retries import (  # noqa: F401
    test_a_move_retried_after_its_token_was_revoked_gets_the_first_answer,
    test_a_resign_retried_with_its_key_gets_the_first_answer,
)
from tests.service.test_matches import (  # noqa: F401
    test_join_fills_open_seats_then_starts,
    test_lobby_filters_and_paginates,
    test_lobby_repairs_a_stale_index_entry,
    test_resign_hands_seat_to_medium_ai_and_revokes_token,
)
from tests.service.test_metrics import (
    test_queue_depth_and_matches_by_status_are_read_at_scrape_time,  # noqa: F401
)
from tests.service.test_turn_timers import (  # noqa: F401
    test_a_timer_fires_and_the_ai_decides_for_the_seat,
    test_racing_a_timer_applies_exactly_one,
    test_the_persons_move_first_means_the_timer_does_nothing,
    test_three_time_outs_in_a_row_hand_the_seat_to_the_ai,
)

# Left out by `make test-fast` (-m "not slow"): starts a Redis Cluster or Sentinel.
pytestmark = pytest.mark.slow


@pytest.mark.parametrize(
    "rate_limit_test",
    [
        test_rate_limit.test_made_up_tokens_count_against_the_address,
        test_rate_limit.test_unknown_tokens_on_the_move_path_count_against_the_address,
        test_rate_limit.test_a_known_token_has_its_own_budget,
        test_rate_limit.test_a_revoked_token_counts_against_the_address,
    ],
    ids=lambda test: test.__name__,
)
def test_rate_limits(mode_env, rate_limit_test):
    """test_rate_limit.py's tests build their app from a URL alone: here the
    deployment's, its mode and queue from the environment (``mode_env``)."""
    rate_limit_test(SimpleNamespace(url=mode_env.config["REDIS_URL"]))
