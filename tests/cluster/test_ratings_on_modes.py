"""Ratings on a Redis Cluster and on Sentinel: the tests of
tests/service/test_ratings.py and test_rated_matches.py on this folder's
fixtures. A pool's keys share its slot (``ratings:{<pool>}:...``), so the
update's Lua script and its reads never span slots; the check after every
test (conftest) fails any CROSSSLOT or MOVED a node answered."""

import pytest

from tests.service.test_rated_matches import (  # noqa: F401
    test_a_rated_match_s_open_seat_is_joined_with_an_account_token_only,
    test_a_rated_match_with_an_account_token_seats_the_account,
)
from tests.service.test_ratings import (  # noqa: F401
    test_a_finished_rated_match_rates_every_seat_in_finishing_order,
    test_a_stale_read_is_refused_without_writing,
    test_a_step_that_dies_before_its_write_leaves_nothing_and_runs_again,
    test_a_step_whose_answer_is_lost_after_the_write_does_not_apply_twice,
    test_concurrent_runs_apply_a_match_once,
    test_the_after_commit_path_run_again_changes_nothing,
    test_the_leaderboard_orders_by_conservative_rating_and_filters_kinds,
    test_two_matches_racing_on_one_account_both_apply,
)

# Left out by `make test-fast` (-m "not slow"): starts a Redis Cluster or Sentinel.
pytestmark = pytest.mark.slow
