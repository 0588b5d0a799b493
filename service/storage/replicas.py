"""In-sync replicas (REDIS_WAIT_REPLICAS): a commit is refused before it
writes anything while its primary has fewer in-sync replicas than required,
as Kafka's ``min.insync.replicas`` or Redis's own ``min-replicas-to-write``.

Without this, a shard that lost its replica (its primary killed, the replica
promoted, no other replica yet) stored every commit and then answered it 503
(``WAIT`` came back short after its timeout), and a retry with the same key
was answered 503 again: clients crawled, one move every few seconds, on a
shard where nothing they were told was lasting. Now such a commit is
answered 503 ``not_enough_replicas`` at once, with ``Retry-After``, and
nothing is written, so a retry with the same Idempotency-Key once a replica
follows the primary again is applied once.

An in-sync replica is one the primary lists in ``INFO replication`` as
``state=online`` whose last acknowledgement is at most ``max_lag_s`` old
(``lag=``: Redis's ``min-replicas-max-lag`` counts the same way). Each
process asks each primary at most once per ``REFRESH_S`` (one ``INFO`` on
its node: the hot path reads a cached count), and again at once after a
``WAIT`` came back short. So the refusal is decided per process, not inside
the commit: a replica lost between two looks makes the commits of that
instant stored-but-unconfirmed (503 ``unavailable``, what a ``WAIT`` that
times out always answered), and the next look closes the shard. Redis's
``min-replicas-to-write`` closes that window in the server, for every write
of the node: docs/operations.md says when to set it as well (the store
answers its ``NOREPLICAS`` refusals the same way).
"""

import contextlib
import threading
import time
from dataclasses import dataclass
from typing import Any

import redis

from service.model.errors import not_enough_replicas
from service.storage import redis_modes

# A process looks at a primary's replicas at most this often.
REFRESH_S = 1.0
# Retry-After of a refusal: a replica comes back by a restart or an
# operator's CLUSTER REPLICATE (seconds at best), and the refusal costs a
# read and a rate-limit count, so waiting a few seconds costs little.
RETRY_AFTER_S = 5


@dataclass(frozen=True)
class ShardReplicas:
    """One primary: its address and how many in-sync replicas follow it
    (``reachable`` False: it did not answer; counts 0)."""

    node: str
    in_sync: int
    connected: int
    reachable: bool = True

    def status(self, wanted: int) -> str:
        """``ok``, ``degraded`` (too few in-sync replicas) or ``unreachable``."""
        if not self.reachable:
            return "unreachable"
        return "ok" if self.in_sync >= wanted else "degraded"


def in_sync_replicas(info: dict[str, Any], max_lag_s: int) -> tuple[int, int]:
    """``(in sync, connected)`` replicas from a primary's ``INFO replication``."""
    connected = in_sync = 0
    for name, value in info.items():
        if not (name.startswith("slave") and isinstance(value, dict)):
            continue
        connected += 1
        if value.get("state") == "online" and int(value.get("lag", max_lag_s + 1)) <= max_lag_s:
            in_sync += 1
    return in_sync, connected


def shard_report(client: Any, max_lag_s: int) -> list[ShardReplicas]:
    """Every primary of ``client``'s deployment (a cluster's shards, from its
    slot map read again now, else the one primary) with its replicas now:
    one ``INFO replication`` each. Raises ``redis.RedisError`` only when no
    node answers."""
    if not redis_modes.is_cluster_client(client):
        return [ShardReplicas("primary", *in_sync_replicas(client.info("replication"), max_lag_s))]
    redis_modes.refresh_topology(client, reconnect=False)  # a failover since the last look
    report = []
    for node in client.get_primaries():
        try:
            info = client.get_redis_connection(node).info("replication")
        except redis.RedisError:
            report.append(ShardReplicas(node.name, 0, 0, reachable=False))
            continue
        report.append(ShardReplicas(node.name, *in_sync_replicas(info, max_lag_s)))
    return sorted(report, key=lambda shard: shard.node)


class ReplicaGate:
    """Refuses a commit (``check``) on a primary with too few in-sync replicas.

    One per ``Store``; shared by the process's threads. The counts are
    cached per primary (a cluster node's name, else ``primary``)."""

    def __init__(self, client: Any, wanted: int, max_lag_s: int) -> None:
        self.redis = client
        self.wanted = wanted
        self.max_lag_s = max_lag_s
        self._cluster = redis_modes.is_cluster_client(client)
        self._lock = threading.Lock()
        self._seen: dict[str, tuple[int, float]] = {}  # node -> (in-sync replicas, looked at)

    def check(self, key: Any) -> None:
        """Raise 503 ``not_enough_replicas`` (an ApiError) when the primary
        of ``key`` has fewer in-sync replicas than required."""
        node, connection = self._node(key)
        seen = self._seen.get(node)
        if seen is None or time.monotonic() - seen[1] >= REFRESH_S:
            seen = self._look(node, connection)
        if seen[0] < self.wanted:
            raise not_enough_replicas(seen[0], self.wanted, RETRY_AFTER_S)

    def suspect(self, key: Any) -> None:
        """A WAIT on ``key``'s primary came back short: look again next time."""
        with self._lock:
            self._seen.pop(self._node(key)[0], None)

    def _node(self, key: Any) -> tuple[str, Any]:
        """``(name, client)`` of the primary of ``key``."""
        if self._cluster:
            node = self.redis.get_node_from_key(key)
            return node.name, self.redis.get_redis_connection(node)
        return "primary", self.redis

    def _look(self, node: str, connection: Any) -> tuple[int, float]:
        try:
            info = connection.info("replication")
        except (redis.ConnectionError, redis.TimeoutError):
            if self._cluster:  # its replica may have taken over: read the slot map again
                with contextlib.suppress(redis.RedisError):
                    redis_modes.refresh_topology(self.redis)
            raise
        in_sync, _ = in_sync_replicas(info, self.max_lag_s)
        seen = (in_sync, time.monotonic())
        with self._lock:
            self._seen[node] = seen
        return seen
