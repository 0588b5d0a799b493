"""What an operation needs: configuration, the match store, the AI and webhook queues.

Built once per process (the Flask app, or the RQ worker) from the config.
"""

from typing import Any

import redis
from redis.backoff import ExponentialBackoff, NoBackoff
from redis.retry import Retry
from rq import Queue
from rq.serializers import JSONSerializer

from service.runtime.archive import Archive
from service.runtime.state_cache import EngineStateCache
from service.storage import redis_modes, targets
from service.storage.breaker import Breaker, connection_class
from service.storage.store import Store
from service.storage.targets import Target
from service.storage.transport import threads_are_greenlets

# Loaded engine states kept per process (one per match, least recently used
# evicted): a loaded state is a few kilobytes, so a few megabytes at most.
ENGINE_STATE_CACHE_SIZE = 512


def redis_client(
    target: Target, socket_timeout: float, breaker: Breaker | None = None, max_connections: int | None = None
) -> Any:
    """A client of ``target`` (targets.Target: standalone, Sentinel or
    Cluster) that fails fast when Redis is down or hangs (-> 503), not after
    minutes.

    A refused connection is retried twice within 0.2 s (a restarting
    server); a timeout is not retried (it already took ``socket_timeout``),
    and with ``breaker`` the calls after it fail at once (breaker.py).
    TLS and unix-socket URLs keep redis-py's own connection class (no breaker).

    Under gevent (thousands of greenlets, storage.threads_are_greenlets) the
    pool of a standalone server (of each node of a cluster) is a blocking
    one of ``max_connections``: a greenlet waits up to ``socket_timeout``
    for a free connection rather than opening one more.
    """
    options = {
        "socket_timeout": socket_timeout,
        "socket_connect_timeout": min(socket_timeout, 2.0),
        "retry": Retry(ExponentialBackoff(cap=0.2, base=0.02), 2, supported_errors=(redis.ConnectionError,)),
        "health_check_interval": 30,
    }
    if breaker is not None and not (target.tls and target.mode != "standalone"):
        options["connection_class"] = connection_class(breaker)
    if max_connections and threads_are_greenlets():
        if target.mode == "standalone":
            options["connection_pool"] = redis.BlockingConnectionPool.from_url(
                target.url, max_connections=max_connections, timeout=socket_timeout, **options
            )
        elif target.mode == "cluster":  # one such pool per node
            options.update(
                connection_pool_class=redis.BlockingConnectionPool,
                max_connections=max_connections,
                timeout=socket_timeout,
            )
        # Sentinel: redis-py has no blocking Sentinel pool; connections are not capped.
    return redis_modes.client(target, **options)


class Services:
    """Process-wide handles; cheap to share between threads (redis-py pools)."""

    def __init__(self, config: dict[str, Any], worker: bool = False) -> None:
        self.config = config
        timeout = config["REDIS_SOCKET_TIMEOUT_S"]
        self.breaker = Breaker()
        self.target = targets.parse_target(config["REDIS_URL"], config.get("REDIS_MODE") or "standalone")
        self.queue_target = targets.queue_target(config["RQ_REDIS_URL"])
        self.redis = redis_client(self.target, timeout, self.breaker, config.get("REDIS_MAX_CONNECTIONS"))
        if worker:
            # An RQ worker's own client: RQ sets the timeouts its blocking
            # dequeue needs, and the worker reconnects by itself (worker.py).
            self.rq_redis = redis_modes.client(self.queue_target, socket_connect_timeout=2.0)
        else:
            same = config["RQ_REDIS_URL"] == config["REDIS_URL"]
            self.rq_redis = redis_client(self.queue_target, timeout, self.breaker if same else Breaker())
        self.store = Store(
            self.redis,
            config["IDEMPOTENCY_TTL_S"],
            wait=_wait_policy(config),
            finished_ttl_s=config["FINISHED_MATCH_TTL_S"],
            archive_ttl_s=config["ARCHIVE_TTL_S"],
        )
        self.store.archive = Archive()
        self.queue = Queue(config["AI_QUEUE"], connection=self.rq_redis, serializer=JSONSerializer)
        self.webhook_queue = Queue(
            config["WEBHOOK_QUEUE"], connection=self.rq_redis, serializer=JSONSerializer
        )
        self.states = EngineStateCache(ENGINE_STATE_CACHE_SIZE)

    def probe_clients(self) -> tuple[Any, Any]:
        """``(storage client, queue client)`` for /readyz: short timeouts, no
        retry, no breaker, so readiness says within 2 s what is true now
        (one client when both roles share a server)."""
        timeout = min(0.9, self.config["REDIS_SOCKET_TIMEOUT_S"])
        if getattr(self, "_probes", None) is None:

            def probe(target: Target) -> Any:
                return redis_modes.client(
                    target,
                    socket_timeout=timeout,
                    socket_connect_timeout=timeout,
                    retry=Retry(NoBackoff(), 0),
                )

            storage = probe(self.target)
            same = self.config["RQ_REDIS_URL"] == self.config["REDIS_URL"]
            self._probes = (storage, storage if same else probe(self.queue_target))
        return self._probes

    def close(self) -> None:
        hub = getattr(self, "live_hub", None)
        if hub is not None:
            hub.close()
        self.redis.close()
        self.rq_redis.close()
        for client in getattr(self, "_probes", None) or ():
            client.close()


def _wait_policy(config: dict[str, Any]) -> tuple[int, int] | None:
    """``(replicas, timeout ms)`` every commit waits for (WAIT), or None (off)."""
    replicas = int(config.get("REDIS_WAIT_REPLICAS") or 0)
    return (replicas, int(config.get("REDIS_WAIT_TIMEOUT_MS") or 0)) if replicas > 0 else None
