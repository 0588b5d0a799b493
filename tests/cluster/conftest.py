"""The service on a real Redis Cluster and on a real Sentinel setup.

``deployment`` is parametrized over the two modes (session-scoped servers,
started on first use; bench/redis_topologies.py has how):

- ``cluster``: matches on a 3 + 3 Redis Cluster (REDIS_MODE=cluster), the AI
  queue on a standalone redis-server (RQ cannot use a cluster);
- ``sentinel``: matches and queue on the primary of a Sentinel service
  (REDIS_MODE=sentinel, ``redis+sentinel://`` for both).

The fixtures the tests of tests/service use (``app``, ``client``,
``services``, ``ai_runner``, ``worker``...) are defined here on the
deployment, so test_api_on_modes.py runs those same test functions on each
mode. After every test, no data node may have refused or failed a command
(``INFO commandstats``: a CROSSSLOT is a rejected call; an EVALSHA's NOSCRIPT,
a script loaded on first use, excepted) nor answered a cluster error
(``INFO errorstats``: MOVED, ASK, TRYAGAIN, CLUSTERDOWN): any of them fails
the test that caused it (test_error_check.py shows the check sees one).
"""

from dataclasses import dataclass, field

import psutil
import pytest

from bench.redis_topologies import ClusterServers, SentinelServers
from launcher.redis_process import RedisProcess
from tests.ops.stack import launch  # noqa: F401  (a fixture: test_make_run_on_modes.py)
from tests.service.conftest import make_app, run_ai_jobs
from tests.service.helpers import worker_process

MODES = ("cluster", "sentinel")
# Error replies of a command that spans slots or reached the wrong node.
CLUSTER_ERRORS = {"CROSSSLOT", "MOVED", "ASK", "TRYAGAIN", "CLUSTERDOWN"}


@pytest.fixture(scope="session")
def _no_leftovers():
    """The session's servers are all gone at its end."""
    started = []
    yield started
    alive = [
        pid
        for pid in started
        if psutil.pid_exists(pid) and psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    ]
    assert not alive, f"servers left running: {alive}"


@pytest.fixture(scope="session")
def redis_cluster(tmp_path_factory, _no_leftovers):
    with ClusterServers(tmp_path_factory.mktemp("cluster")) as servers:
        _no_leftovers.extend(servers.pids())
        yield servers


@pytest.fixture(scope="session")
def redis_sentinel(tmp_path_factory, _no_leftovers):
    with SentinelServers(tmp_path_factory.mktemp("sentinel")) as servers:
        _no_leftovers.extend(servers.pids())
        yield servers


@pytest.fixture(scope="session")
def queue_server(_no_leftovers):
    """The cluster deployment's AI queue: a standalone redis-server."""
    with RedisProcess() as server:
        _no_leftovers.append(server.proc.pid)
        yield server


@dataclass
class Deployment:
    """One mode's settings and its data nodes (what the checks look at)."""

    mode: str
    config: dict
    data_nodes: list = field(default_factory=list)  # plain clients of each server holding matches
    queue_url: str = ""
    servers: object = None  # ClusterServers or SentinelServers

    @property
    def env(self):
        return {key: str(value) for key, value in self.config.items()}

    def flush(self):
        for node in self.data_nodes:
            if node.info("replication").get("role") == "master":
                node.flushall()
        self.reset_errors()

    def reset_errors(self):
        for node in self.data_nodes:
            node.config_resetstat()

    def error_replies(self):
        """``{node: {command or error: count}}`` of the commands the data
        nodes refused or failed since the last reset (``INFO commandstats``:
        a CROSSSLOT is a rejected call), and of cluster errors by kind
        (``INFO errorstats``); an EVALSHA's NOSCRIPT (the script is loaded
        and the command sent again) left out."""
        found = {}
        for node in self.data_nodes:
            errors = {
                name.removeprefix("errorstat_"): value["count"]
                for name, value in node.info("errorstats").items()
                if name.removeprefix("errorstat_") in CLUSTER_ERRORS
            }
            noscript = node.info("errorstats").get("errorstat_NOSCRIPT", {}).get("count", 0)
            for name, value in node.info("commandstats").items():
                bad = value.get("rejected_calls", 0) + value.get("failed_calls", 0)
                if name == "cmdstat_evalsha":
                    bad -= noscript
                if bad > 0:
                    errors[name.removeprefix("cmdstat_")] = bad
            if errors:
                kwargs = node.connection_pool.connection_kwargs
                found[f"{kwargs['host']}:{kwargs['port']}"] = errors
        return found


@pytest.fixture(scope="module", params=MODES)
def deployment(request):
    if request.param == "cluster":
        servers = request.getfixturevalue("redis_cluster")
        queue = request.getfixturevalue("queue_server")
        return Deployment(
            "cluster",
            {"REDIS_URL": servers.url, "REDIS_MODE": "cluster", "RQ_REDIS_URL": queue.url},
            servers.clients(),
            queue.url,
            servers,
        )
    servers = request.getfixturevalue("redis_sentinel")
    return Deployment(
        "sentinel",
        {"REDIS_URL": servers.url, "REDIS_MODE": "sentinel", "RQ_REDIS_URL": servers.url},
        [servers.primary()],
        servers.url,
        servers,
    )


@pytest.fixture(autouse=True)
def no_error_replies(request):
    """Fail a test whose Redis commands got an error reply (CROSSSLOT...)."""
    if "deployment" not in request.fixturenames:
        yield
        return
    deployment = request.getfixturevalue("deployment")
    deployment.reset_errors()
    yield
    assert deployment.error_replies() == {}, "Redis refused commands the service sent"


# --- the fixtures of tests/service, on the deployment ---------------------


def deployment_app(deployment, **overrides):
    """``make_app`` on the deployment's Redis (its mode, its queue's Redis)."""
    return make_app(
        deployment.config["REDIS_URL"],
        REDIS_MODE=deployment.mode,
        RQ_REDIS_URL=deployment.config["RQ_REDIS_URL"],
        **overrides,
    )


@pytest.fixture
def app(deployment):
    deployment.flush()
    app = deployment_app(deployment)
    services = app.extensions["tabula"]
    if deployment.mode == "cluster":
        services.rq_redis.flushdb()
    yield app
    services.close()


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def services(app):
    return app.extensions["tabula"]


@pytest.fixture
def ai_runner(services):
    return lambda max_jobs=None: run_ai_jobs(services, max_jobs)


@pytest.fixture
def worker(deployment, app):
    """``python -m service.worker`` on the deployment (what test_full_match uses)."""
    with worker_process(**deployment.env) as proc:
        yield proc


@pytest.fixture(scope="module")
def stack(deployment, tmp_path_factory):
    """gunicorn (gevent, deploy/gunicorn.conf.py) and a real RQ worker on the
    deployment: what test_stream.py's tests use."""
    from tests.service import test_stream
    from tests.service.live import LiveServer, RqWorker

    logs = tmp_path_factory.mktemp(f"stream-{deployment.mode}")
    deployment.flush()
    worker = RqWorker(deployment.config["REDIS_URL"], log=logs / "worker.log")
    worker.env.update(deployment.env)
    with (
        worker,
        LiveServer(
            deployment.config["REDIS_URL"],
            workers=1,
            log=logs / "gunicorn.log",
            env={
                **deployment.env,
                "STREAM_KEEPALIVE_S": str(test_stream.KEEPALIVE_S),
                "STREAM_TICKET_TTL_S": str(test_stream.TICKET_TTL_S),
                "STREAM_REMATCH_WAIT_S": str(test_stream.REMATCH_WAIT_S),
                "REDIS_MAX_CONNECTIONS": "8",
            },
        ) as server,
    ):
        yield server, None


@pytest.fixture
def server(stack):
    return stack[0]


@pytest.fixture
def stall_app(deployment):
    """test_deadlines.py's app (AI stalls due at once), on the deployment."""
    deployment.flush()
    app = deployment_app(deployment, AI_STALL_S=0, WORKER_SEEN_S=5)
    if deployment.mode == "cluster":
        app.extensions["tabula"].rq_redis.flushdb()
    yield app
    app.extensions["tabula"].close()


@pytest.fixture
def mode_env(deployment, monkeypatch):
    """REDIS_MODE and RQ_REDIS_URL in the environment, for tests that build
    their app from a URL alone (tests.service.conftest.make_app)."""
    monkeypatch.setenv("REDIS_MODE", deployment.mode)
    monkeypatch.setenv("RQ_REDIS_URL", deployment.config["RQ_REDIS_URL"])
    deployment.flush()
    return deployment
