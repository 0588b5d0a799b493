"""Challenges, seeks and pairing waves on a Redis Cluster and on Sentinel:
the tests of tests/service/test_challenges.py and test_seeks.py on this
folder's fixtures. A challenge's keys share its slot, a pool's seeks (and
its ratings) the pool's, so each Lua step and claim runs on one slot; the
autouse check fails a test on any error reply (CROSSSLOT, MOVED...)."""

import pytest

from tests.service.test_challenges import (  # noqa: F401
    test_a_challenge_expires,
    test_a_challenge_of_ai_seats_only_starts_at_once,
    test_challenge_accepted_by_every_invitee_starts_one_match,
    test_decline_and_cancel_end_a_challenge,
)
from tests.service.test_seeks import (  # noqa: F401
    test_a_cancelled_seek_is_never_paired,
    test_a_seek_not_renewed_expires,
    test_a_wave_dies_after_its_claim_and_the_next_creates_the_match,
    test_ai_fill_after_its_wait,
    test_concurrent_waves_seat_each_seeker_once,
    test_near_ratings_first_and_the_range_widens,
    test_two_seekers_land_in_one_match_with_their_seats,
)

from .conftest import deployment_app

# Left out by `make test-fast` (-m "not slow"): starts a Redis Cluster or Sentinel.
pytestmark = pytest.mark.slow


@pytest.fixture
def roomy(deployment):
    """test_seeks's ``roomy`` on the deployment: no sign-up limit."""
    deployment.flush()
    app = deployment_app(deployment, SIGNUP_RATE_LIMIT=0)
    yield app.test_client(), app.extensions["tabula"]
    app.extensions["tabula"].close()
