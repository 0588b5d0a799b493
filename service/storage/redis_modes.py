"""One connection factory for every role: standalone, Sentinel or Cluster
(the modes and URL forms: targets.py), and what the store and the live hub
need of a cluster's topology (slot owners, shard channels, refreshes).

Every client made here keeps the timeouts the service relies on
(``socket_timeout``: a hung server is a 503 within it, not a stuck request).
"""

import threading
from collections.abc import Callable
from typing import Any

import redis
from redis.cluster import ClusterNode, RedisCluster
from redis.commands.core import Script
from redis.connection import Encoder
from redis.event import (
    AfterSlotsCacheRefreshEvent,
    EventDispatcher,
    EventListenerInterface,
)
from redis.exceptions import RedisClusterException
from redis.sentinel import Sentinel, SentinelManagedConnection

from service.storage.targets import ConfigError, Target

# --- clients ----------------------------------------------------------------


def client(target: Target, **options: Any) -> Any:
    """A redis-py client for ``target``: ``redis.Redis`` (standalone, or the
    current primary of a Sentinel service) or ``RedisCluster``.

    ``options`` are redis-py connection options (socket_timeout, retry,
    connection_class...); ``connection_pool`` (standalone only) wins.
    """
    if target.mode == "sentinel":
        return _sentinel_primary(target, **options)
    if target.mode == "cluster":
        return _cluster(target, **options)
    pool = options.pop("connection_pool", None)
    if pool is not None:
        return redis.Redis(connection_pool=pool)
    return redis.Redis.from_url(target.url, **options)


def _sentinel_manager(target: Target, socket_timeout: float = 2.0) -> Sentinel:
    return Sentinel(
        list(target.hosts),
        sentinel_kwargs={
            "socket_timeout": socket_timeout,
            "socket_connect_timeout": min(socket_timeout, 2.0),
            "password": target.sentinel_password,
        },
    )


class SentinelConnection(SentinelManagedConnection):
    """redis-py's connection to a Sentinel service's primary, dropped (as a
    plain ``redis.Connection`` is) when a read fails or is interrupted: its
    own default keeps it with a reply pending, which the next command then
    waits for forever (seen: RQ's warm shutdown interrupts its blocking
    dequeue, then its clean-up hangs)."""

    def read_response(self, *args: Any, **kwargs: Any) -> Any:
        kwargs.setdefault("disconnect_on_error", True)
        return super().read_response(*args, **kwargs)

    def connect_check_health(self, *args: Any, **kwargs: Any) -> None:
        # redis-py 8 reconnects a dropped connection here (send_packed_command),
        # not through connect(), so to the address it had: after a failover,
        # the dead primary's. Ask Sentinel where the primary is now first.
        if not self._sock and self.connection_pool.is_master:
            self.host, self.port = self.connection_pool.get_master_address()
        return super().connect_check_health(*args, **kwargs)


def _sentinel_primary(target: Target, **options: Any) -> redis.Redis:
    options.pop("connection_pool", None)
    connection_class = options.pop("connection_class", None)
    if target.tls:
        options["ssl"] = True  # redis-py's SentinelManagedSSLConnection
    elif connection_class is not None and not issubclass(connection_class, SentinelManagedConnection):
        # The breaker's hooks (breaker.py) on top of Sentinel's look-up of the
        # current primary at each (re)connection.
        options["connection_class"] = type(
            f"Sentinel{connection_class.__name__}", (connection_class, SentinelConnection), {}
        )
    else:
        options["connection_class"] = connection_class or SentinelConnection
    manager = _sentinel_manager(target, options.get("socket_timeout") or 2.0)
    return manager.master_for(
        target.service, db=target.db, username=target.username, password=target.password, **options
    )


def _cluster(target: Target, **options: Any) -> "LazyCluster":
    options.pop("connection_pool", None)
    options.pop("health_check_interval", None)  # per node pool: keep redis-py's default
    return LazyCluster(target, options)


def _unreachable(exc: BaseException) -> redis.ConnectionError:
    # No node reachable to read the slot map from: "unreachable" (503) to
    # every caller, like a standalone server that is down.
    return redis.ConnectionError(f"Redis Cluster unreachable: {exc}")


class LazyCluster:
    """A ``RedisCluster`` built on first use rather than at start-up.

    redis-py's ``RedisCluster`` reads the slot map in its constructor and
    raises when no node answers, so a process started while its cluster is
    down could not even boot. This stands in for it: every attribute is the
    cluster client's, built (from the configured nodes) by the first call
    that needs it; while that fails each caller gets ``redis.ConnectionError``
    (a 503 ``unavailable``), and once the cluster answers, the client is
    kept. ``forget()`` (a refresh that found no node) drops it, so the next
    call builds a new one from the configured nodes again.

    Scripts are registered without a client (their SHA needs only the
    encoder), and the slot-map listeners of ``watch_slot_map`` outlive any
    rebuild (every client built shares one event dispatcher).
    """

    def __init__(self, target: Target, options: dict[str, Any]) -> None:
        self._target = target
        self._options = options
        self._client: RedisCluster | None = None
        self._lock = threading.Lock()
        self.events = EventDispatcher()
        self.encoder = Encoder(
            options.get("encoding", "utf-8"),
            options.get("encoding_errors", "strict"),
            options.get("decode_responses", False),
        )

    def current(self) -> RedisCluster:
        """The ``RedisCluster``, built now if there is none yet."""
        client = self._client
        if client is None:
            with self._lock:
                if self._client is None:
                    self._client = self._build()
                client = self._client
        return client

    def _build(self) -> RedisCluster:
        (host, port), *others = self._target.hosts
        # Given a URL, redis-py builds each node's pool from the options (so a
        # connection_class, the breaker's, reaches every node's connections).
        scheme = "rediss" if self._target.tls else "redis"
        try:
            return RedisCluster(
                url=f"{scheme}://{host}:{port}",
                startup_nodes=[ClusterNode(h, p) for h, p in others],
                username=self._target.username,
                password=self._target.password,
                event_dispatcher=self.events,
                **self._options,
            )
        except RedisClusterException as exc:
            raise _unreachable(exc) from exc

    def forget(self, client: RedisCluster) -> None:
        """Drop ``client`` (if still the current one): built anew on next use."""
        with self._lock:
            if self._client is client:
                self._client = None

    def __getattr__(self, name: str) -> Any:
        return getattr(self.current(), name)

    def get_encoder(self) -> Encoder:
        return self.encoder

    def register_script(self, script: str) -> Script:
        return Script(self, script)  # type: ignore[arg-type]  # it stands in for the cluster client

    def close(self) -> None:
        client, self._client = self._client, None
        if client is not None:
            client.close()


def is_cluster_client(client_: Any) -> bool:
    return isinstance(client_, (RedisCluster, LazyCluster))


class _SlotMapListener(EventListenerInterface):
    def __init__(self, callback: Callable[[], None]) -> None:
        self.callback = callback

    def listen(self, event: object) -> None:
        self.callback()


def watch_slot_map(client_: Any, callback: Callable[[], None]) -> None:
    """Call ``callback()`` (no I/O in it: it runs in the thread that read the
    map) whenever a cluster client's slot map changes: a refresh, or a MOVED
    that redis-py applied. Nothing for other clients."""
    if isinstance(client_, LazyCluster):
        client_.events.register_listeners({AfterSlotsCacheRefreshEvent: [_SlotMapListener(callback)]})


def refuse_cluster_queue(queue_client: Any) -> None:
    """Raise ``ConfigError`` when the queue's server runs in cluster mode
    (an RQ_REDIS_URL of ``redis://`` pointing at a cluster node)."""
    try:
        enabled = queue_client.info("cluster").get("cluster_enabled")
    except redis.ResponseError:
        return  # a server without INFO cluster is no cluster
    if str(enabled) == "1":
        raise ConfigError(
            "RQ_REDIS_URL points at a Redis Cluster node: RQ needs a standalone Redis "
            "(or one managed by Sentinel), its keys cross hash slots"
        )


# --- routing (cluster) ------------------------------------------------------


def node_pool(client_: Any, key: Any) -> Any:
    """The connection pool of the server that holds ``key``: the client's
    own pool, or on a cluster the pool of the primary of ``key``'s slot."""
    if is_cluster_client(client_):
        node = client_.get_node_from_key(key)
        return client_.get_redis_connection(node).connection_pool
    return client_.connection_pool


def node_name(client_: Any, key: Any) -> str:
    """The name (``host:port``) of the primary of ``key``'s slot on a
    cluster; ``"primary"`` for any other client (one server has every key)."""
    return str(client_.get_node_from_key(key).name) if is_cluster_client(client_) else "primary"


def pubsub_address(client_: Any, channel: bytes) -> tuple[str, dict[str, Any]]:
    """``(name, connection kwargs)`` of the server whose pub/sub carries
    ``channel``: the primary of its slot on a cluster (sharded pub/sub), the
    current primary of a Sentinel service, else the one server."""
    pool = node_pool(client_, channel)
    kwargs = dict(pool.connection_kwargs)
    if hasattr(pool, "get_master_address"):  # Sentinel: ask where the primary is now
        kwargs["host"], kwargs["port"] = pool.get_master_address()
    name = node_name(client_, channel)
    return name, kwargs


def refresh_topology(client_: Any, reconnect: bool = True) -> None:
    """Read the cluster's slot map again (after MOVED, or a failed node).

    ``reconnect=False`` (a routine check, nothing failed) leaves the queried
    node's pooled connections alone; redis-py otherwise reconnects them.
    When no node answers, a ``LazyCluster`` forgets its client: the next call
    starts again from the configured nodes."""
    if not is_cluster_client(client_):
        return
    cluster = client_.current() if isinstance(client_, LazyCluster) else client_
    try:
        cluster.nodes_manager.initialize(disconnect_startup_nodes_pools=reconnect)
    except RedisClusterException as exc:
        if isinstance(client_, LazyCluster):
            client_.forget(cluster)
        raise _unreachable(exc) from exc
