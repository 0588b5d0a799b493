"""The finish under faults on a Redis Cluster: the process dies right after
the finishing commit (no finish step ran) and the match's shard fails over
(``CLUSTER FAILOVER`` on its replica, the commit confirmed by ``WAIT`` before
its answer). Afterwards the record is on the new primary and serves every
read as before, and the workers' sweep completes the finish steps exactly
once.

It changes the session cluster's topology (as test_cluster_failover.py)."""

import time

import pytest

from service.play import finishing
from service.storage.keys import match_key, record_key
from service.worker import sweeper
from tests.cluster.test_cluster_failover import _fail_over, _wait
from tests.service.conftest import make_app
from tests.service.test_accounts import account_token
from tests.service.test_archive import archive_now, every_read
from tests.service.test_finishing import intents, play_to_the_finishing_move, played

# Left out by `make test-fast` (-m "not slow"): starts a Redis Cluster.
pytestmark = pytest.mark.slow


@pytest.fixture
def cluster_app(redis_cluster, queue_server):
    _wait(redis_cluster.is_ready, "the cluster is not ready")
    for node in redis_cluster.clients():
        if node.info("replication").get("role") == "master":
            node.flushall()
    app = make_app(
        redis_cluster.url,
        REDIS_MODE="cluster",
        RQ_REDIS_URL=queue_server.url,
        REDIS_WAIT_REPLICAS=1,
        REDIS_WAIT_TIMEOUT_MS=2000,
    )
    yield app
    app.extensions["tabula"].close()


def test_a_dead_process_and_a_failover_at_the_finish_archive_once(redis_cluster, cluster_app, monkeypatch):
    client, services = cluster_app.test_client(), cluster_app.extensions["tabula"]
    ada = account_token(client, "Ada")
    monkeypatch.setattr(finishing, "finish", lambda services, doc: False)  # dies after the commit
    match_id, _, response = play_to_the_finishing_move(client, ada)
    monkeypatch.undo()
    assert response.status_code == 200  # WAIT: a replica had it before the answer
    before = every_read(client, match_id, {})

    old_primary = services.redis.get_node_from_key(match_key(match_id)).port
    new_primary = _fail_over(redis_cluster, old_primary)
    assert services.redis.get(record_key(match_id)) is not None  # (a MOVED refreshes the map)
    assert services.redis.get_node_from_key(record_key(match_id)).port == new_primary
    assert intents(services) == {match_id}

    sweeper.sweep(services, int(time.time() * 1000) + 10_000)  # a worker's sweep
    assert intents(services) == set()
    assert sum(game["played"] for game in played(client).values()) == 1
    sweeper.sweep(services, int(time.time() * 1000) + 20_000)
    assert finishing.run_steps(services, services.store.load_doc(match_id))
    assert sum(game["played"] for game in played(client).values()) == 1

    archive_now(services, match_id)
    assert every_read(client, match_id, {}) == before


def test_a_rated_match_changes_its_ratings_once_through_a_dead_process_and_a_failover(
    redis_cluster, cluster_app, monkeypatch
):
    """The ratings update is a finish step: the process dies after the
    finishing commit, the match's shard fails over, the sweep runs the steps
    (twice, and once more by hand): each account's rating changed once."""
    client, services = cluster_app.test_client(), cluster_app.extensions["tabula"]
    ada, bo = account_token(client, "Ada"), account_token(client, "Bo")
    monkeypatch.setattr(finishing, "finish", lambda services, doc: False)  # dies after the commit
    match_id, _, response = play_to_the_finishing_move(client, ada, rated_with=bo)
    monkeypatch.undo()
    assert response.status_code == 200 and response.get_json()["match"]["rated"] is True
    pool = response.get_json()["match"]["pool"]

    def changes(name):
        return client.get(f"/v1/accounts/{name}/ratings/{pool}").get_json()["total"]

    assert (changes("Ada"), changes("Bo")) == (0, 0)  # no step ran
    _fail_over(redis_cluster, services.redis.get_node_from_key(match_key(match_id)).port)
    assert services.redis.get(record_key(match_id)) is not None  # (a MOVED refreshes the map)
    for later_s in (10, 20):
        sweeper.sweep(services, int(time.time() * 1000) + later_s * 1000)
    assert finishing.run_steps(services, services.store.load_doc(match_id))
    assert (changes("Ada"), changes("Bo")) == (1, 1)
    assert intents(services) == set()
