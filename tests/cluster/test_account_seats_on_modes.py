"""Seats bound to accounts, the account events and the account stream on a
Redis Cluster and on Sentinel: the tests of tests/service/test_account_seats.py,
test_account_events.py and test_account_stream.py on this folder's fixtures
(the account stream on the account's shard channel, under gunicorn with a
real RQ worker; the check that no node refused a command: an account's keys,
its once-keys and its indexes share its slot)."""

import pytest

from tests.service.test_account_events import (  # noqa: F401
    test_a_match_against_the_ai_sends_each_event_once_and_nothing_private,
    test_running_the_after_commit_path_again_sends_and_counts_nothing_more,
)
from tests.service.test_account_seats import (  # noqa: F401
    test_an_account_holds_at_most_one_seat_of_a_match,
    test_create_and_join_bind_the_seats_and_still_issue_seat_tokens,
    test_the_account_token_acts_for_its_seat_on_every_match_route,
)
from tests.service.test_account_stream import (  # noqa: F401
    test_a_stream_ticket_opens_the_account_stream_once,
    test_first_your_turn_then_resume_after_last_event_id_without_gap_or_repeat,
    test_one_stream_carries_two_matches_in_order_with_nothing_private,
)

# Left out by `make test-fast` (-m "not slow"): starts a Redis Cluster or Sentinel.
pytestmark = pytest.mark.slow
