"""The webhook deliveries of tests/service/test_webhooks.py on a Redis Cluster
and on Sentinel: the webhook's keys share the account's slot; the queue is
RQ_REDIS_URL's (standalone or Sentinel, never the cluster), as the AI's."""

import pytest

from tests.service.test_webhooks import (  # noqa: F401
    FAST,
    LOOPBACK_OK,
    test_delivered_signed_retried_after_500_and_timeout_deduplicated,
    test_no_webhook_or_another_type_enqueues_nothing,
    test_ping_and_the_deliveries_log,
    test_set_read_and_delete,
    test_switched_off_after_a_run_of_failures_and_said_on_the_account_stream,
)

from .conftest import deployment_app


@pytest.fixture
def hook_app(deployment):
    deployment.flush()
    app = deployment_app(deployment, **LOOPBACK_OK, **FAST)
    app.extensions["tabula"].webhook_queue.empty()
    yield app
    app.extensions["tabula"].close()


@pytest.fixture
def worker_env(deployment):
    return deployment.env
