"""The wire: commands packed by hiredis and sent in one write, replies read
back as hiredis parses them; on a Redis Cluster each command goes to the
primary of its key's slot, following MOVED, ASK and TRYAGAIN (see
REDIRECT_ROUNDS). ``Store`` sends every hot round trip through here."""

import os
import sys
import threading
import time
import weakref
from collections.abc import Sequence
from typing import Any

import hiredis
import redis
from redis.crc import key_slot
from redis.exceptions import (
    AskError,
    ClusterDownError,
    MasterDownError,
    MovedError,
    ResponseError,
    TryAgainError,
)

from service.model.errors import from_storage_refusal
from service.storage import redis_modes

# One Redis command as sent (its name, then its arguments), and a round trip's commands.
Command = tuple[Any, ...]
Commands = Sequence[Command]


def threads_are_greenlets() -> bool:
    """True when gevent has patched ``threading`` (the gevent gunicorn worker):
    a ``threading.local`` is then one greenlet's, i.e. one request's."""
    monkey = sys.modules.get("gevent.monkey")
    return monkey is not None and monkey.is_module_patched("threading")


def publish_command(client: Any) -> str:
    """``SPUBLISH`` on Redis >= 7 (a shard channel: on a cluster only the
    match's shard carries it), else ``PUBLISH``. A cluster always shards
    (REDIS_MODE=cluster needs Redis >= 7)."""
    if redis_modes.is_cluster_client(client):
        return "SPUBLISH"
    try:
        version = client.info("server").get("redis_version", "0")
    except Exception:  # noqa: BLE001  (unknown: the command every version has)
        return "PUBLISH"
    return "SPUBLISH" if int(str(version).split(".")[0]) >= 7 else "PUBLISH"


# Rounds one cluster round trip may take when a node redirects commands:
# MOVED (a failover or a resharding moved the slot: the slot map is read
# again), ASK (the slot is being migrated and the key is already on the
# importing node: sent there, after ASKING, for this command only) or
# TRYAGAIN (see TRYAGAIN_PAUSE_S). Every redirect means the command was not
# run, so sending it again (a commit too) never applies it twice.
REDIRECT_ROUNDS = 16
# While a slot migrates, its migrating node answers ASK to a command one of
# whose keys it lacks, and the importing node (after ASKING) answers a
# multi-key command one of whose keys it lacks with TRYAGAIN: nothing can run
# such a command until the slot is handed over (redis cluster spec:
# "multi-key operations may become unavailable" while a slot is resharded).
# The commit script is one: besides the match's keys it declares its live
# channel and its idempotency record, keys that do not exist, so from
# SETSLOT MIGRATING to SETSLOT NODE it is refused on both sides, whatever
# keys have moved (single-key commands, the reads, follow ASK and are served). It is sent again after pauses doubling from this one up
# to TRYAGAIN_PAUSE_MAX_S (about 1 s in all, within REDIRECT_ROUNDS); a
# migration still open then is answered 503: the cluster cannot serve the
# match now, and the client retries.
TRYAGAIN_PAUSE_S = 0.025
TRYAGAIN_PAUSE_MAX_S = 0.2
# Error replies that mean "the cluster cannot serve this slot now" (a
# redirect still there after REDIRECT_ROUNDS: the slot map keeps changing,
# or the slot's migration outlasted the pauses): answered 503 like a lost
# connection, never a 500.
UNAVAILABLE_REPLIES = (ClusterDownError, TryAgainError, MasterDownError, AskError, MovedError)
_REDIRECTS = (AskError, MovedError, TryAgainError)


def raise_error_replies(replies: Sequence[Any]) -> None:
    """Raise the first error reply of a round trip (``Transport.replies``): a
    slot the cluster cannot serve now as a ConnectionError (503), a server's
    own min-replicas-to-write (NOREPLICAS) as the 503 not_enough_replicas the
    replica gate answers, any other as it is."""
    for reply in replies:
        if isinstance(reply, UNAVAILABLE_REPLIES):
            raise redis.ConnectionError(f"the cluster cannot serve this now: {reply}")
        if isinstance(reply, Exception):
            raise from_storage_refusal(reply) or reply


class Transport:
    """Round trips on one redis-py client (not decoding responses): the raw
    write-then-read of a move's read and every commit, routed by slot on a cluster."""

    def __init__(self, client: Any) -> None:
        self.redis = client
        self._cluster = redis_modes.is_cluster_client(client)
        self._stale_topology = False
        # Cluster: the pool of each slot's primary as the slot map last said;
        # emptied whenever the map is read again (MOVED, a failed node).
        self._pools: dict[int, Any] = {}
        redis_modes.watch_slot_map(client, self._pools.clear)
        self._local = threading.local()
        # Under gevent a threading.local is per greenlet (per request): a
        # connection kept there would never go back to the pool.
        self._per_greenlet = threads_are_greenlets()

    def replies(self, commands: Commands, retry: bool) -> list[Any]:
        """Send ``commands`` in one write; return every reply as hiredis parses
        it (bytes, ints, lists), an error reply as its exception object (the
        commands after it were run all the same).

        A move's two round trips go through here rather than redis-py's
        command layer (pipeline objects, reply callbacks, observability hooks),
        which cost several times the CPU of the commands themselves. Same
        pool and exceptions; a connection error is retried as redis-py does
        only with ``retry`` (never for a commit: a commit sent before the
        connection broke may have been applied, and applying it twice is
        what the API promises never to do; the caller answers 503).
        """
        if self._cluster:
            return self._routed_replies(commands, retry)
        if self._per_greenlet:
            return _pooled(self.redis.connection_pool, commands, retry)
        return _attempts(self._thread_connection(), _pack(commands), len(commands), retry)

    def _routed_replies(self, commands: Commands, retry: bool) -> list[Any]:
        """``replies`` on a cluster: each command to the primary of its key's
        slot (a WAIT to the node of the command before it), one write per
        node. A redirected command (nothing was run: see REDIRECT_ROUNDS) is
        sent again where it says: MOVED reads the slot map again, ASK goes to
        the importing node after ASKING, TRYAGAIN waits a little. A broken
        node refreshes the slot map on the next call (its replica may have
        taken over)."""
        if self._stale_topology:
            self._stale_topology = False
            self._refresh_topology()
        replies: list[Any] = [None] * len(commands)
        todo = list(range(len(commands)))
        asking: dict = {}  # index -> the importing node an ASK named, for the next round
        pause = TRYAGAIN_PAUSE_S
        for attempt in range(REDIRECT_ROUNDS + 1):
            redirected = set()
            groups = list(self._route(commands, todo, asking).values())
            for (_pool, indexes), got in zip(
                groups, self._send_routed(groups, commands, asking, retry), strict=True
            ):
                for i, reply in zip(indexes, got, strict=True):
                    replies[i] = reply
                    if isinstance(reply, _REDIRECTS):
                        redirected.add(i)
            if not redirected or attempt == REDIRECT_ROUNDS:
                break
            # A WAIT follows its command to the node it is sent to now.
            todo = [i for i in todo if i in redirected or (commands[i][0] == "WAIT" and i - 1 in redirected)]
            asking = self._asked_nodes({i: replies[i] for i in redirected})
            kinds = {type(replies[i]) for i in redirected}
            if MovedError in kinds:
                self._refresh_topology()
            if TryAgainError in kinds:
                time.sleep(pause)
                pause = min(pause * 2, TRYAGAIN_PAUSE_MAX_S)
        return replies

    def _route(
        self, commands: Commands, todo: list[int], asking: dict[int, Any]
    ) -> dict[int, tuple[Any, list[int]]]:
        """``{id(pool): (pool, [index...])}``: where each command goes."""
        groups: dict = {}
        key, pool = None, None
        for i in todo:
            if i in asking:
                pool = self.redis.get_redis_connection(asking[i]).connection_pool
            elif _routing_key(commands[i]) is not None or pool is None:
                key = _routing_key(commands[i]) or key
                pool = self._pool_of(key)
            groups.setdefault(id(pool), (pool, []))[1].append(i)
        return groups

    def _pool_of(self, key: Any) -> Any:
        """The pool of the primary of ``key``'s slot (``node_pool``, kept per slot)."""
        slot = key_slot(key if isinstance(key, bytes) else str(key).encode())
        pool = self._pools.get(slot)
        if pool is None:
            pool = self._pools[slot] = redis_modes.node_pool(self.redis, key)
        return pool

    def _refresh_topology(self) -> None:
        self._pools.clear()
        redis_modes.refresh_topology(self.redis)

    def _asked_nodes(self, redirects: dict[int, Exception]) -> dict[int, Any]:
        """``{index: node}`` of the ASK replies among ``redirects``."""
        asked = {}
        for i, reply in redirects.items():
            if not isinstance(reply, AskError):
                continue
            node = self.redis.nodes_manager.get_node(host=reply.host, port=reply.port)
            if node is None:  # a node the slot map does not know yet
                self._refresh_topology()
                node = self.redis.nodes_manager.get_node(host=reply.host, port=reply.port)
            if node is None:
                raise redis.ConnectionError(f"the cluster asked for an unknown node: {reply}")
            asked[i] = node
        return asked

    def _send_routed(
        self, groups: list[tuple[Any, list[int]]], commands: Commands, asking: dict[int, Any], retry: bool
    ) -> list[list[Any]]:
        """The replies of each group ``(pool, [index...])`` of ``commands`` on
        its pool's node, an ASKING before each command an ASK sent there (its
        own reply left out). Every node's commands are written before any
        reply is read (``_parallel``): the nodes of a round trip answer in the
        time of the slowest one, not of all of them in turn."""
        batches: list[tuple[Any, Commands]] = []
        positions: list[list[int]] = []
        for pool, indexes in groups:
            sent: list[Command] = []
            mine: list[int] = []
            for i in indexes:
                if i in asking:
                    sent.append(("ASKING",))
                mine.append(len(sent))
                sent.append(commands[i])
            batches.append((pool, sent))
            positions.append(mine)
        try:
            out = _parallel(batches, retry)
        except (redis.ConnectionError, redis.TimeoutError):
            self._stale_topology = True
            raise
        return [[got[k] for k in mine] for got, mine in zip(out, positions, strict=True)]

    def _thread_connection(self) -> Any:
        """This thread's own connection from the pool, kept rather than returned.

        Taking one from the pool and giving it back costs two lock rounds and
        a readiness poll per call; a connection used by one thread only, and
        dropped on any error (see ``_send_and_read``), never has replies
        pending. A forked child gets its own (its parent's socket is shared).
        """
        held = getattr(self._local, "held", None)
        if held is None or held.pid != os.getpid():
            held = self._local.held = _HeldConnection(self.redis.connection_pool)
        return held.conn


class _HeldConnection:
    """A thread's kept connection, given back to its pool when the thread
    ends (its ``threading.local`` goes, and this with it). Threads that come
    and go (a pairing wave's match creators, service/meet/waves.py) would
    otherwise each keep one for ever, and redis-py's pool refuses the 101st
    (MaxConnectionsError): seen as a worker whose waves stopped after a few
    hundred matches (bench.rating_simulation)."""

    def __init__(self, pool: Any) -> None:
        self.pid = os.getpid()
        self.conn = pool.get_connection()
        weakref.finalize(self, pool.release, self.conn)


def _pack(commands: Commands) -> bytes:
    return b"".join(hiredis.pack_command(command) for command in commands)


def _pooled(pool: Any, commands: Commands, retry: bool) -> list[Any]:
    """``commands`` on a connection borrowed from ``pool`` for this call."""
    conn = pool.get_connection()
    try:
        return _attempts(conn, _pack(commands), len(commands), retry)
    finally:
        pool.release(conn)


def _parallel(batches: list[tuple[Any, Commands]], retry: bool) -> list[list[Any]]:
    """The replies of each ``(pool, commands)`` batch, each on a connection of
    its pool: every batch written, then every reply read. With ``retry``, a
    batch whose connection failed is sent again on its own (as ``_pooled``
    would); without, the first failure is raised once every connection is
    read or dropped (none goes back to its pool with replies pending)."""
    if len(batches) == 1:
        return [_pooled(batches[0][0], batches[0][1], retry)]
    held: list[tuple[Any, Any]] = []
    out: list[Any] = [None] * len(batches)
    try:
        for pool, commands in batches:
            held.append((pool, pool.get_connection()))
            out[len(held) - 1] = _try(_send, held[-1][1], _pack(commands))
        for k, (_, conn) in enumerate(held):
            if out[k] is None:
                out[k] = _try(_read, conn, len(batches[k][1]))
    except BaseException:
        for k, (_, conn) in enumerate(held):
            if out[k] is None:
                conn.disconnect()  # written, not read: replies may be pending
        raise
    finally:
        for pool, conn in held:
            pool.release(conn)
    for k, got in enumerate(out):
        if isinstance(got, _Failed):
            if not retry:
                raise got.error
            out[k] = _pooled(batches[k][0], batches[k][1], retry)
    return out


class _Failed:
    """A batch's connection error, kept while the other batches are read."""

    def __init__(self, error: BaseException) -> None:
        self.error = error


def _try(step: Any, conn: Any, arg: Any) -> Any:
    """``step(conn, arg)``, or a ``_Failed`` for a connection error (``conn``
    is then dropped: it may have replies pending)."""
    try:
        return step(conn, arg)
    except (redis.ConnectionError, redis.TimeoutError, OSError) as error:
        conn.disconnect()
        return _Failed(error)


def _send(conn: Any, packed: bytes) -> None:
    conn.send_packed_command([packed])


def _routing_key(command: Command) -> Any:
    """The key a command's slot is taken from (EVALSHA: its first KEYS
    entry); None for WAIT, which goes where the command before it went."""
    name = command[0]
    if name == "WAIT":
        return None
    if name in ("EVALSHA", "EVAL"):
        return command[3]
    return command[1]


def _attempts(conn: Any, packed: bytes, replies: int, retry: bool) -> list[Any]:
    if not retry:
        return _send_and_read(conn, packed, replies)
    return conn.retry.call_with_retry(
        lambda: _send_and_read(conn, packed, replies), lambda _error: conn.disconnect()
    )


def _send_and_read(conn: Any, packed: bytes, replies: int) -> list[Any]:
    """One attempt of ``Transport.replies`` on ``conn``: every reply read, an
    error reply kept as its exception (so none is left pending)."""
    conn.send_packed_command([packed])
    return _read(conn, replies)


def _read(conn: Any, replies: int) -> list[Any]:
    """``replies`` replies of ``conn``, error replies as their exceptions; a
    failure to read drops the connection."""
    out = []
    try:
        for _ in range(replies):
            try:
                out.append(conn.read_response())
            except ResponseError as error:
                out.append(error)
    except BaseException:
        # A broken connection may have replies pending: never use it again.
        conn.disconnect()
        raise
    return out
