"""The live event streams (SSE/NDJSON under gunicorn's gevent worker, AI
seats played by a real RQ worker) on a Redis Cluster (sharded pub/sub on the
match's shard) and on Sentinel: the tests of tests/service/test_stream.py on
this folder's ``stack`` (conftest.py)."""

import pytest

from tests.service.test_stream import (  # noqa: F401
    test_each_viewer_sees_what_get_events_shows_it,
    test_first_match_then_every_event_in_order_with_ai_seats_playing,
    test_resume_with_last_event_id_or_after_no_gap_no_duplicate,
    test_stream_tickets_are_single_use_and_short_lived,
    test_the_stream_ends_after_the_match_ends_with_the_final_match,
)

# Left out by `make test-fast` (-m "not slow"): starts a Redis Cluster or Sentinel.
pytestmark = pytest.mark.slow
