"""The account tests of tests/service/test_accounts.py on a Redis Cluster and
on Sentinel (this folder's fixtures, and its check that no node refused a
command: an account's keys share one slot, each claim is a single key)."""

import pytest

from tests.service.test_accounts import (  # noqa: F401
    APP_KEYS,
    LIMITED,
    test_a_live_account_token_counts_against_its_own_window,
    test_a_revoked_token_is_401_on_every_process_at_once,
    test_account_events_append_and_read,
    test_app_accounts_are_made_once_and_mint_a_token_each_call,
    test_closing_revokes_every_token_and_keeps_the_name_reserved,
    test_last_used_is_noted_at_most_once_a_minute,
    test_names_that_differ_by_case_or_width_collide,
    test_public_profile,
    test_scope_matrix,
    test_sign_up_answers_the_account_and_a_token_shown_once,
)

from .conftest import deployment_app


@pytest.fixture
def two_apps(deployment):
    """Two apps on the deployment: two API processes, as far as tokens go."""
    deployment.flush()
    apps = [deployment_app(deployment, TABULA_APP_KEYS=APP_KEYS) for _ in range(2)]
    yield [a.test_client() for a in apps]
    for a in apps:
        a.extensions["tabula"].close()


@pytest.fixture
def limited_client(deployment):
    """An app on the deployment allowing 3 requests per hour per token or address."""
    deployment.flush()
    app = deployment_app(deployment, **LIMITED)
    yield app.test_client()
    app.extensions["tabula"].close()
