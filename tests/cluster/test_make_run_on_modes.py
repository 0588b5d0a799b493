"""`make run` (python -m launcher.devserver) pointed at external servers:
a cluster or a Sentinel service for matches starts no redis-server of its
own, its workers get the queue's URL; settings that cannot work are refused
before anything starts, with what to change."""

import pytest
import requests

from tests.ops.stack import cmdlines, wait_gone

# Left out by `make test-fast` (-m "not slow"): starts a Redis Cluster or Sentinel.
pytestmark = pytest.mark.slow


def test_make_run_on_the_deployment_starts_no_redis(launch, deployment):
    launcher = launch(**deployment.env)
    launcher.wait_ready()
    children = launcher.descendants()
    lines = cmdlines(children)
    assert not any("redis-server" in line for line in lines), lines
    workers = launcher.workers()
    assert workers, lines
    assert {w.environ().get("RQ_REDIS_URL") for w in workers} == {deployment.config["RQ_REDIS_URL"]}
    assert {w.environ().get("REDIS_MODE") for w in workers} == {deployment.mode}
    created = requests.post(
        launcher.url + "/v1/matches",
        timeout=10,
        json={"game": "anno1503", "seats": [{"kind": "human"}, {"kind": "ai", "level": "random"}]},
    )
    assert created.status_code == 201, created.text
    assert f"using REDIS_URL={deployment.config['REDIS_URL']} (no redis-server started)" in launcher.log()
    assert launcher.interrupt() == 0, launcher.log()
    assert wait_gone(children) == [], launcher.log()


def _refused(launch, **env):
    launcher = launch(**env)
    assert launcher.proc.wait(timeout=30) == 1, launcher.log()
    assert not any("redis-server" in line for line in cmdlines(launcher.seen))
    return launcher.log()


def test_a_cluster_without_a_queue_url_is_refused(launch, redis_cluster):
    log = _refused(launch, REDIS_URL=redis_cluster.url, REDIS_MODE="cluster")
    assert "REDIS_MODE=cluster needs RQ_REDIS_URL" in log, log


@pytest.mark.parametrize("scheme", ["redis", "redis+cluster"])
def test_a_cluster_for_the_queue_is_refused(launch, redis_cluster, scheme):
    node = f"{scheme}://127.0.0.1:{redis_cluster.ports[0]}"
    log = _refused(launch, REDIS_URL=redis_cluster.url, REDIS_MODE="cluster", RQ_REDIS_URL=node)
    assert "RQ_REDIS_URL" in log and "cluster" in log.lower(), log


def test_a_mode_without_a_url_is_refused(launch):
    log = _refused(launch, REDIS_MODE="cluster")
    assert "REDIS_MODE=cluster needs REDIS_URL" in log, log
