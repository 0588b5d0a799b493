"""The API boots while its Redis Cluster is down (the cluster client is
built on first use, service/storage/redis_modes.py ``LazyCluster``): gunicorn
answers, every request that needs storage is a 503 ``unavailable`` (the
contract's error document, never a 500), and once the cluster is up the
same process serves them (2xx), with no restart."""

import json
import time

import pytest

from bench.redis_topologies import ClusterServers
from launcher.redis_process import RedisProcess
from tests.service.live import LiveServer

# Left out by `make test-fast` (-m "not slow"): starts a Redis Cluster or Sentinel.
pytestmark = pytest.mark.slow

UP_BOUND_S = 30  # from cluster_state:ok on every node to a 201


def _answer(server, method, path, body=None):
    status, _, raw = server.request(method, path, body, timeout=15)
    return status, json.loads(raw) if raw else None


NEW_MATCH = {"game": "anno1503", "seats": [{"kind": "human", "name": "A"}, {"kind": "human", "name": "B"}]}


def test_the_api_boots_while_the_cluster_is_down_and_serves_once_it_is_up(tmp_path):
    cluster = ClusterServers(tmp_path / "cluster")  # its ports chosen, nothing listening yet
    with (
        RedisProcess() as queue,
        LiveServer(
            cluster.url,
            log=tmp_path / "gunicorn.log",
            env={"REDIS_MODE": "cluster", "RQ_REDIS_URL": queue.url},
        ) as server,
    ):
        for method, path, body in (
            ("GET", "/v1/matches", None),
            ("POST", "/v1/matches", NEW_MATCH),
            ("GET", "/v1/matches/m-unknown", None),
        ):
            status, document = _answer(server, method, path, body)
            assert status == 503, (method, path, status, document)
            assert document["error"] == "unavailable" and set(document) == {"error", "message", "details"}
        with cluster:
            seen, deadline = [], time.monotonic() + UP_BOUND_S
            while True:
                status, document = _answer(server, "POST", "/v1/matches", NEW_MATCH)
                seen.append(status)
                if status == 201 or time.monotonic() > deadline:
                    break
                assert status == 503 and document["error"] == "unavailable", (status, document)
                time.sleep(0.2)
            assert status == 201, seen
            match_id = document["match"]["id"]
            status, lobby = _answer(server, "GET", "/v1/matches")
            assert status == 200 and match_id in [m["id"] for m in lobby], lobby  # a list of Matches


def test_the_benchmarks_cluster_without_replicas_has_three_primaries_serving_every_slot(tmp_path):
    """``ClusterServers(replicas=0)``, scaleout_bench's ``--bare-cluster``."""
    with ClusterServers(tmp_path / "bare", replicas=0) as cluster:
        roles = [client.info("replication") for client in cluster.clients()]
        assert [role["role"] for role in roles] == ["master"] * 3
        assert all(int(role["connected_slaves"]) == 0 for role in roles)
        info = cluster.clients()[0].cluster("info")
        assert info["cluster_state"] == "ok" and int(info["cluster_slots_ok"]) == 16384


def test_a_cluster_node_whose_port_another_server_took_is_reported_not_joined(tmp_path):
    """The boot test picks its cluster's ports long before it starts the nodes; a server that
    takes one meanwhile must stop the start with its port named, not join the cluster."""
    with RedisProcess() as stranger:
        cluster = ClusterServers(tmp_path / "taken", replicas=0)
        cluster.ports[0] = stranger.port
        with pytest.raises(RuntimeError, match=f"{stranger.port}"), cluster:
            pass
        assert stranger.answers() and stranger.proc.poll() is None
