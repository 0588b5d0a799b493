"""The check every test here ends with (conftest ``no_error_replies``) sees a
command Redis refused: a cross-slot one on the cluster, a failing one on
Sentinel's primary."""

import pytest
import redis

# Left out by `make test-fast` (-m "not slow"): starts a Redis Cluster or Sentinel.
pytestmark = pytest.mark.slow


def _refuse_a_command(deployment, client):
    if deployment.mode == "cluster":
        # Two matches' keys: two slots, on one node (the first key's).
        node = client.get_node_from_key("match:{a}")
        client.get_redis_connection(node).execute_command("MGET", "match:{a}", "match:{b}")
    else:
        client.hset("match:{a}", "rev", "1")
        client.incr("match:{a}")  # WRONGTYPE


def test_the_check_sees_a_refused_command(deployment, services):
    deployment.reset_errors()
    assert deployment.error_replies() == {}
    with pytest.raises(redis.ResponseError):
        _refuse_a_command(deployment, services.redis)
    refused = deployment.error_replies()
    deployment.reset_errors()
    assert refused, "a refused command went unseen"
    if deployment.mode == "cluster":
        assert any("CROSSSLOT" in errors for errors in refused.values()), refused
