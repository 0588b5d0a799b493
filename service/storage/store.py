"""Redis storage of matches: keys, the atomic commit, events, lobby, tokens.

Keys of one match carry its id as a hash tag so a Redis Cluster keeps them in
one slot and the commit script can touch them all:

- ``match:{<id>}``            hash: ``rev`` (write counter), ``doc`` (JSON:
  seats, status, version...), ``state`` (the engine's dump, JSON),
  ``tok:<sha256>`` (seat of a bearer token)
- ``match:{<id>}:events``     stream, entry id ``0-<seq>``
- ``match:{<id>}:actions``    list of ``{"seat", "action"}`` (the replay)
- ``match:{<id>}:idem:<token sha256>:<key sha256>`` idempotency records
  (TTL 24 h; service/play/idempotency.py)
- ``match:{<id>}:live``       pub/sub channel (SPUBLISH on Redis >= 7, else
  PUBLISH): the commit script publishes the new last seq there whenever it
  adds events; service/live/hub.py wakes the event streams with it
- ``match:{<id>}:ticket:<sha256>`` a stream ticket (TTL ``STREAM_TICKET_TTL_S``):
  the hash of the bearer token it stands for, deleted on use (GETDEL)

Retention: the commit that stores a finished match (and any later one, such
as a rematch claim) sets ``FINISHED_MATCH_TTL_S`` on the hash, the events and
the actions in its script (0: kept for ever); idempotency records and tickets
expire on their own, shorter TTLs.

Indexes deliberately outside the match's slot (they span matches; on a
cluster they are plain keys written after the commit, best effort, on each
status change; the lobby listing repairs an entry whose status is stale):

- ``lobby:<status|*>:<game|*>`` sorted sets of match ids by creation time
- ``deadlines:{<shard>}`` (+ ``:v``) the deadline index (service/play/deadlines.py):
  match id -> due time, in ``DEADLINE_SHARDS`` sorted sets so no one key takes
  every commit; written in the commit's round trip, never in its script
- ``token:{<sha256>}``          match id of a live token: tells 403 from 401, and
  whether a request may count against its token's rate-limit window
  (``ratelimit:t:{<sha256>}:<window>``, same slot) rather than its address's;
  given the match's retention TTL when it finishes
- ``retention:{<shard>}`` sorted sets, ``<game>:<match id>`` -> when its keys
  expire (epoch ms), written when a match finishes: the workers' sweep
  (``prune_expired``) drops expired matches from the lobby indexes with it,
  so no index keeps finished matches for ever

On a Redis Cluster (service/storage/redis_modes.py) the hot round trips are split by
node: each command goes to the primary of its key's slot, the commands of one
node in one write, so no command ever spans slots; the indexes above are
single-key commands (redis-py's cluster pipelines route each). With
``wait=(replicas, timeout ms)`` every commit is followed, in the same write to
the same node, by ``WAIT``: a commit that too few replicas confirm is answered
503 ``unavailable``: it may be applied, and a retry with the same
Idempotency-Key returns its result (the replay refreshes the record's TTL, a
write that the next WAIT covers along with everything before it).

Everything is JSON (orjson), never pickle.
"""

import os
import sys
import threading
import time
import zlib
from dataclasses import dataclass
from functools import cached_property
from importlib import resources

import hiredis
import orjson
import redis
from redis.exceptions import (
    AskError,
    ClusterDownError,
    MasterDownError,
    MovedError,
    NoScriptError,
    ResponseError,
    TryAgainError,
)

from service.model.errors import ApiError
from service.storage import redis_modes

STATUSES = ("waiting", "active", "finished")


def match_key(match_id):
    return f"match:{{{match_id}}}"


def events_key(match_id):
    return f"match:{{{match_id}}}:events"


def actions_key(match_id):
    return f"match:{{{match_id}}}:actions"


def live_channel(match_id):
    return f"match:{{{match_id}}}:live"


def ticket_key(match_id, ticket_hash):
    return f"match:{{{match_id}}}:ticket:{ticket_hash}"


def threads_are_greenlets():
    """True when gevent has patched ``threading`` (the gevent gunicorn worker):
    a ``threading.local`` is then one greenlet's, i.e. one request's."""
    monkey = sys.modules.get("gevent.monkey")
    return monkey is not None and monkey.is_module_patched("threading")


def publish_command(client):
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


def idem_key(match_id, token_hash, key_hash):
    return f"match:{{{match_id}}}:idem:{token_hash}:{key_hash}"


def lobby_key(status, game):
    return f"lobby:{status or '*'}:{game or '*'}"


def token_index_key(token_hash):
    return f"token:{{{token_hash}}}"


DEADLINE_SHARDS = 16


def deadline_shard_keys(shard):
    """The sorted set and version hash of one shard of the index (one slot)."""
    return f"deadlines:{{{shard}}}", f"deadlines:{{{shard}}}:v"


def deadline_keys(match_id):
    """The keys of ``match_id``'s shard."""
    return deadline_shard_keys(zlib.crc32(match_id.encode("utf-8")) % DEADLINE_SHARDS)


RETENTION_SHARDS = 16


def retention_shard_key(shard):
    return f"retention:{{{shard}}}"


def retention_key(match_id):
    """The retention index shard of ``match_id`` (one slot, like the deadlines')."""
    return retention_shard_key(zlib.crc32(match_id.encode("utf-8")) % RETENTION_SHARDS)


def _script(client, name):
    return client.register_script(resources.files("service.storage").joinpath(f"lua/{name}").read_text())


@dataclass
class StoredMatch:
    """One match as read from Redis; ``rev`` is what a commit must still find."""

    id: str
    rev: str
    doc: dict
    state_json: bytes  # decoded on first use: a cached engine state needs no decoding
    token_seat: int | None = None  # seat of the token asked for in ``load``

    @cached_property
    def state(self):
        """The engine's dump, as stored (JSON-decoded)."""
        return orjson.loads(self.state_json)


@dataclass
class Change:
    """Everything one commit writes besides the revision."""

    doc: dict
    state: dict | None = None
    events: list = None  # [(seq, version, engine_event_dict)]
    action: dict | None = None  # {"seat", "action"} for the replay log
    set_tokens: dict = None  # token hash -> seat
    del_tokens: list = None  # token hashes
    idem_key: str | None = None
    idem_value: bytes | None = None


class CommitResult:
    def __init__(self, outcome, payload=None, replicas=None, wanted=0):
        self.outcome = outcome  # "OK" | "CONFLICT" | "DUP"
        self.payload = payload  # OK: the new rev; DUP: the stored idempotency value
        self.replicas = replicas  # replicas that confirmed it (WAIT), None: not asked
        self.wanted = wanted

    def raise_if_unreplicated(self):
        """The 503 of a commit fewer replicas confirmed than ``REDIS_WAIT_REPLICAS``."""
        if self.replicas is not None and self.replicas < self.wanted and self.outcome in ("OK", "DUP"):
            raise ApiError(
                503,
                "unavailable",
                "the change is stored but fewer replicas than required confirmed it in time; "
                "retry with the same Idempotency-Key to get its result",
                retry=True,
                replicas=self.replicas,
                required_replicas=self.wanted,
            )


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
_UNAVAILABLE_REPLIES = (ClusterDownError, TryAgainError, MasterDownError, AskError, MovedError)
_REDIRECTS = (AskError, MovedError, TryAgainError)


class Store:
    """Match storage on one redis-py client (not decoding responses)."""

    def __init__(self, client, idempotency_ttl_s=24 * 3600, wait=None, finished_ttl_s=0):
        self.redis = client
        self.idempotency_ttl_s = idempotency_ttl_s
        self.finished_ttl_s = finished_ttl_s  # FINISHED_MATCH_TTL_S; 0: keep for ever
        self.wait = wait  # (replicas, timeout ms) each commit WAITs for, or None
        self._cluster = redis_modes.is_cluster_client(client)
        self._stale_topology = False
        self._commit = _script(client, "commit.lua")
        self._count_known = _script(client, "count_known.lua")
        self._deadline = _script(client, "deadline.lua")
        self._local = threading.local()
        # Under gevent a threading.local is per greenlet (per request): a
        # connection kept there would never go back to the pool.
        self._per_greenlet = threads_are_greenlets()
        self._publish = None  # publish_command(), decided on the first commit

    # --- the hot round trips (a move's read, every commit) -------------------

    def _replies(self, commands, retry):
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

    def _routed_replies(self, commands, retry):
        """``_replies`` on a cluster: each command to the primary of its key's
        slot (a WAIT to the node of the command before it), one write per
        node. A redirected command (nothing was run: see REDIRECT_ROUNDS) is
        sent again where it says: MOVED reads the slot map again, ASK goes to
        the importing node after ASKING, TRYAGAIN waits a little. A broken
        node refreshes the slot map on the next call (its replica may have
        taken over)."""
        if self._stale_topology:
            self._stale_topology = False
            redis_modes.refresh_topology(self.redis)
        replies = [None] * len(commands)
        todo = list(range(len(commands)))
        asking = {}  # index -> the importing node an ASK named, for the next round
        pause = TRYAGAIN_PAUSE_S
        for attempt in range(REDIRECT_ROUNDS + 1):
            redirected = set()
            for pool, indexes in self._route(commands, todo, asking).values():
                for i, reply in zip(
                    indexes, self._send_routed(pool, commands, indexes, asking, retry), strict=True
                ):
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
                redis_modes.refresh_topology(self.redis)
            if TryAgainError in kinds:
                time.sleep(pause)
                pause = min(pause * 2, TRYAGAIN_PAUSE_MAX_S)
        return replies

    def _route(self, commands, todo, asking):
        """``{id(pool): (pool, [index...])}``: where each command goes."""
        groups, key, pool = {}, None, None
        for i in todo:
            if i in asking:
                pool = self.redis.get_redis_connection(asking[i]).connection_pool
            elif _routing_key(commands[i]) is not None or pool is None:
                key = _routing_key(commands[i]) or key
                pool = redis_modes.node_pool(self.redis, key)
            groups.setdefault(id(pool), (pool, []))[1].append(i)
        return groups

    def _asked_nodes(self, redirects):
        """``{index: node}`` of the ASK replies among ``redirects``."""
        asked = {}
        for i, reply in redirects.items():
            if not isinstance(reply, AskError):
                continue
            node = self.redis.nodes_manager.get_node(host=reply.host, port=reply.port)
            if node is None:  # a node the slot map does not know yet
                redis_modes.refresh_topology(self.redis)
                node = self.redis.nodes_manager.get_node(host=reply.host, port=reply.port)
            if node is None:
                raise redis.ConnectionError(f"the cluster asked for an unknown node: {reply}")
            asked[i] = node
        return asked

    def _send_routed(self, pool, commands, indexes, asking, retry):
        """The replies of ``commands[indexes]`` on ``pool``'s node, an ASKING
        before each one an ASK sent there (its own reply left out)."""
        sent, mine = [], []
        for i in indexes:
            if i in asking:
                sent.append(("ASKING",))
            mine.append(len(sent))
            sent.append(commands[i])
        try:
            out = _pooled(pool, sent, retry)
        except (redis.ConnectionError, redis.TimeoutError):
            self._stale_topology = True
            raise
        return [out[k] for k in mine]

    def _thread_connection(self):
        """This thread's own connection from the pool, kept rather than returned.

        Taking one from the pool and giving it back costs two lock rounds and
        a readiness poll per call; a connection used by one thread only, and
        dropped on any error (see ``_send_and_read``), never has replies
        pending. A forked child gets its own (its parent's socket is shared).
        """
        pid = os.getpid()
        held = getattr(self._local, "held", None)
        if held is None or held[0] != pid:
            held = self._local.held = (pid, self.redis.connection_pool.get_connection())
        return held[1]

    def _scripted_round_trip(self, *commands, retry=True):
        """The replies of ``commands`` (``_replies``), raising the first error
        reply. Commands may call our scripts by EVALSHA: they are loaded when
        the server lacks them (a restarted or another
        server: what redis-py's Script does too). A script's SHA never changes.
        The commands of one round trip run whatever the others answer, so
        only those the server refused for a missing script are sent again.
        """
        replies = self._replies(commands, retry)
        missing = [i for i, reply in enumerate(replies) if isinstance(reply, NoScriptError)]
        if missing:
            for script in (self._commit, self._count_known, self._deadline):
                self.redis.script_load(script.script)
            again = self._replies([commands[i] for i in missing], retry)
            for i, reply in zip(missing, again, strict=True):
                replies[i] = reply
        for reply in replies:
            if isinstance(reply, _UNAVAILABLE_REPLIES):
                raise redis.ConnectionError(f"the cluster cannot serve this now: {reply}")
            if isinstance(reply, Exception):
                raise reply
        return replies

    def _eval_commit(self, match_id, keys, args, deadline=None):
        """EVALSHA of commit.lua, after the deadline index write ``deadline``
        (``(version, due ms)``, or None) in the same round trip."""
        commands = [("EVALSHA", self._commit.sha, len(keys), *keys, *args)]
        if self.wait is not None:
            # Same connection (same node), right after: WAIT counts the
            # replicas that have this connection's writes so far.
            commands.append(("WAIT", *self.wait))
        if deadline is not None:
            commands.insert(0, self._deadline_command(match_id, *deadline))
        replies = self._scripted_round_trip(*commands, retry=False)
        if self.wait is not None:
            return replies[-2], replies[-1]
        return replies[-1], None

    # --- the deadline index ------------------------------------------------

    def _deadline_command(self, match_id, version, due_ms):
        return (
            "EVALSHA",
            self._deadline.sha,
            2,
            *deadline_keys(match_id),
            match_id,
            version,
            "" if due_ms is None else int(due_ms),
        )

    def set_deadline(self, match_id, version, due_ms):
        """Write (``due_ms`` None: clear) a match's entry unless a newer version
        wrote it; True when written."""
        return self._scripted_round_trip(self._deadline_command(match_id, version, due_ms))[0] == 1

    def due_matches(self, now_ms, limit):
        """Ids of matches whose entry is due by ``now_ms``, earliest first per
        shard, at most ``limit`` per shard (one round trip)."""
        pipe = self.redis.pipeline(transaction=False)
        for shard in range(DEADLINE_SHARDS):
            pipe.zrangebyscore(deadline_shard_keys(shard)[0], "-inf", now_ms, start=0, num=limit)
        return [raw.decode() for ids in pipe.execute() for raw in ids]

    # --- rate-limit counters ----------------------------------------------

    def _counter_commands(self, counter_key, ttl_s, known_token):
        if known_token is None:
            return [("INCR", counter_key), ("EXPIRE", counter_key, ttl_s, "NX")]
        return [("EVALSHA", self._count_known.sha, 2, token_index_key(known_token), counter_key, ttl_s)]

    def count(self, counter_key, ttl_s, known_token=None):
        """INCR a rate-limit window (TTL set on first use); returns the count.

        ``known_token``: count only if that token hash is a live token's;
        returns None (nothing counted) otherwise.
        """
        return _count(self._scripted_round_trip(*self._counter_commands(counter_key, ttl_s, known_token)))

    # --- reading ---------------------------------------------------------

    def load(self, match_id, token_hash=None):
        """The match, or None when there is none with this id.

        With ``token_hash``, the seat that token acts for comes in the same
        round trip (``token_seat``, None when unknown here).
        """
        values = self.redis.hmget(match_key(match_id), self._load_fields(token_hash))
        return self._stored(match_id, token_hash, values)

    def load_counted(self, match_id, token_hash, counter_key, counter_ttl_s, known_token=None):
        """``(load(match_id, token_hash), count(counter_key, ...))`` in one round trip.

        A pipeline, not one script, so the counter's slot and the match's may
        live on different cluster nodes.
        """
        fields = self._load_fields(token_hash)
        replies = self._scripted_round_trip(
            *self._counter_commands(counter_key, counter_ttl_s, known_token),
            ("HMGET", match_key(match_id), *fields),
        )
        return self._stored(match_id, token_hash, replies[-1]), _count(replies[:-1])

    @staticmethod
    def _load_fields(token_hash):
        return ["rev", "doc", "state"] + ([f"tok:{token_hash}"] if token_hash else [])

    @staticmethod
    def _stored(match_id, token_hash, values):
        rev, doc, state = values[:3]
        if rev is None or doc is None:
            return None
        seat = values[3] if token_hash else None
        return StoredMatch(
            match_id, rev.decode(), orjson.loads(doc), state, None if seat is None else int(seat)
        )

    def probe(self, match_id, token_hash):
        """``(exists, seat of the token or None)`` in one round trip."""
        rev, seat = self.redis.hmget(match_key(match_id), "rev", f"tok:{token_hash}")
        return rev is not None, None if seat is None else int(seat)

    def load_doc(self, match_id):
        """Only the document of a match (no engine state), or None."""
        raw = self.redis.hget(match_key(match_id), "doc")
        return None if raw is None else orjson.loads(raw)

    def load_docs(self, match_ids):
        """Docs of several matches (None for missing ones), one round trip."""
        pipe = self.redis.pipeline(transaction=False)
        for match_id in match_ids:
            pipe.hget(match_key(match_id), "doc")
        return [orjson.loads(raw) if raw else None for raw in pipe.execute()]

    def seat_token_hashes(self, match_id, seat):
        """The hashes of the live tokens of ``seat`` in ``match_id``."""
        fields = self.redis.hgetall(match_key(match_id))
        return [
            name[4:].decode()
            for name, value in fields.items()
            if name.startswith(b"tok:") and int(value) == seat
        ]

    def token_match(self, token_hash):
        """The match id a token was issued for (revoked ones included), or None."""
        raw = self.redis.get(token_index_key(token_hash))
        return None if raw is None else raw.decode()

    def read_events(self, match_id, after, limit):
        """``[(seq, version, event)]`` with seq > ``after``, at most ``limit``."""
        return parse_events(
            self.redis.xrange(events_key(match_id), min=f"0-{after + 1}", max="+", count=limit)
        )

    def put_ticket(self, match_id, ticket_hash, token_hash, ttl_s):
        self.redis.set(ticket_key(match_id, ticket_hash), token_hash, ex=ttl_s)

    def take_ticket(self, match_id, ticket_hash):
        """The token hash a ticket stands for, deleting it (single use); None
        when unknown, used or expired."""
        raw = self.redis.getdel(ticket_key(match_id, ticket_hash))
        return None if raw is None else raw.decode()

    def read_actions(self, match_id):
        return [orjson.loads(raw) for raw in self.redis.lrange(actions_key(match_id), 0, -1)]

    def read_idempotency(self, key):
        """The record stored under ``key`` (None: none). With ``wait`` set, the
        same round trip WAITs on the record's node, so a record whose commit
        was answered 503 (too few replicas confirmed it) is answered 503 again
        until they do: a retry is told "accepted" only under the guarantee
        the first attempt was refused for lacking."""
        if self.wait is None:
            raw = self.redis.get(key)
        else:
            raw, replicas = self._scripted_round_trip(("GET", key), ("WAIT", *self.wait))
            if raw is not None:
                CommitResult("DUP", replicas=replicas, wanted=self.wait[0]).raise_if_unreplicated()
        return None if raw is None else orjson.loads(raw)

    # --- writing ---------------------------------------------------------

    def commit(self, match_id, expected_rev, change, deadline=None):
        """Write ``change`` if the match is still at ``expected_rev``.

        ``expected_rev`` None creates the match (fails if it exists). One
        round trip; either everything is written or nothing. ``deadline``
        (``(version, due ms)``) goes to the deadline index in the same round
        trip, whatever the commit's outcome: an early entry only costs the
        sweeper a look.
        """
        args = [expected_rev or ""]
        fields = {"doc": orjson.dumps(change.doc)}
        if change.state is not None:
            fields["state"] = orjson.dumps(change.state)
        for token_hash, seat in (change.set_tokens or {}).items():
            fields[f"tok:{token_hash}"] = str(seat)
        args.append(len(fields))
        for name, value in fields.items():
            args += [name, value]
        deleted = [f"tok:{h}" for h in change.del_tokens or ()]
        args += [len(deleted), *deleted]
        events = change.events or []
        args.append(len(events))
        for seq, version, event in events:
            args += [seq, version, orjson.dumps(event)]
        args.append(orjson.dumps(change.action) if change.action is not None else "")
        if self._publish is None:
            self._publish = publish_command(self.redis)
        args += [
            change.idem_value or "",
            self.idempotency_ttl_s,
            self._publish,
            self.finished_ttl_s if change.doc["status"] == "finished" else 0,
        ]
        keys = [
            match_key(match_id),
            events_key(match_id),
            actions_key(match_id),
            change.idem_key or idem_key(match_id, "-", "-"),
            live_channel(match_id),
        ]
        reply, replicas = self._eval_commit(match_id, keys, args, deadline)
        outcome = reply[0].decode()
        payload = reply[1] if len(reply) > 1 else None
        if outcome == "DUP":
            payload = orjson.loads(payload)
        elif outcome == "OK":
            payload = payload.decode()  # the new revision
        if outcome == "SEQ":
            raise RuntimeError(f"event seq out of order in match {match_id}: stream ends at {payload!r}")
        return CommitResult(outcome, payload, replicas, self.wait[0] if self.wait else 0)

    def after_commit(self, doc, new_token_hashes=(), revoked_token_hashes=()):
        """Update the cross-slot indexes (lobby, token index); idempotent."""
        pipe = self.redis.pipeline(transaction=False)
        score = doc["created_ms"]
        for status in STATUSES:
            for game in (None, doc["game"]):
                key = lobby_key(status, game)
                if status == doc["status"]:
                    pipe.zadd(key, {doc["id"]: score})
                else:
                    pipe.zrem(key, doc["id"])
        for game in (None, doc["game"]):
            pipe.zadd(lobby_key(None, game), {doc["id"]: score})
        for token_hash in new_token_hashes:
            pipe.set(token_index_key(token_hash), doc["id"])
        for token_hash in revoked_token_hashes:
            pipe.delete(token_index_key(token_hash))
        if doc["status"] == "finished" and self.finished_ttl_s > 0:
            self._expire_with_match(pipe, doc)
        pipe.execute()

    def _expire_with_match(self, pipe, doc):
        """Queue on ``pipe`` what makes a finished match's cross-slot entries
        follow its keys out: its live tokens' index entries expire with them,
        and the retention index tells ``prune_expired`` when to drop it from
        the lobby (an upper bound: the TTL only runs from the last commit)."""
        ttl_s = self.finished_ttl_s
        for name in self.redis.hkeys(match_key(doc["id"])):
            if name.startswith(b"tok:"):
                pipe.expire(token_index_key(name[4:].decode()), ttl_s)
        expires_ms = int(time.time() * 1000) + ttl_s * 1000
        pipe.zadd(retention_key(doc["id"]), {f"{doc['game']}:{doc['id']}": expires_ms})

    def prune_expired(self, now_ms, limit=100):
        """Drop from the lobby indexes the finished matches whose keys have
        expired by ``now_ms``, at most ``limit`` per retention shard; returns
        how many. An entry whose match is still there (a later change renewed
        its TTL) moves to its new expiry; one kept for ever leaves the index."""
        pipe = self.redis.pipeline(transaction=False)
        for shard in range(RETENTION_SHARDS):
            pipe.zrangebyscore(retention_shard_key(shard), "-inf", now_ms, start=0, num=limit)
        due = [(shard, member.decode()) for shard, members in enumerate(pipe.execute()) for member in members]
        if not due:
            return 0
        pipe = self.redis.pipeline(transaction=False)
        for _, member in due:
            pipe.pttl(match_key(member.split(":", 1)[1]))
        ttls = pipe.execute()
        pipe = self.redis.pipeline(transaction=False)
        pruned = 0
        for (shard, member), ttl_ms in zip(due, ttls, strict=True):
            key = retention_shard_key(shard)
            if ttl_ms > 0:
                pipe.zadd(key, {member: now_ms + ttl_ms})
                continue
            pipe.zrem(key, member)
            if ttl_ms == -2:  # gone (-1: kept for ever, it stays listed)
                game, match_id = member.split(":", 1)
                for status in (*STATUSES, None):
                    for listed_game in (None, game):
                        pipe.zrem(lobby_key(status, listed_game), match_id)
                pruned += 1
        pipe.execute()
        return pruned

    def lobby_page(self, status, game, offset, limit):
        """``(match_ids, total)`` newest first; a page past the end is empty.

        Redis takes range indexes as signed 64-bit integers (a larger one is
        an error reply): both ends are capped far past any real lobby, so a
        page at 2**63 asks for an empty range, as page 2 of a short lobby does.
        """
        key = lobby_key(status, game)
        last = 1 << 62  # the largest index sent (no sorted set comes near it)
        pipe = self.redis.pipeline(transaction=False)
        pipe.zrevrange(key, min(offset, last), min(offset + limit - 1, last))
        pipe.zcard(key)
        ids, total = pipe.execute()
        return [i.decode() for i in ids], total

    def active_match_ids(self, start=0, count=1000):
        """Active matches, newest first, from ``start``."""
        ids = self.redis.zrevrange(lobby_key("active", None), start, start + count - 1)
        return [i.decode() for i in ids]


def parse_events(entries):
    """XRANGE entries of an event stream as ``[(seq, version, event)]``."""
    return [
        (int(entry_id.split(b"-")[1]), int(fields[b"v"]), orjson.loads(fields[b"e"]))
        for entry_id, fields in entries
    ]


def _count(replies):
    """The count of ``_counter_commands``' replies (INCR's, or the script's)."""
    return None if replies[0] == -1 else replies[0]


def _pack(commands):
    return b"".join(hiredis.pack_command(command) for command in commands)


def _pooled(pool, commands, retry):
    """``commands`` on a connection borrowed from ``pool`` for this call."""
    conn = pool.get_connection()
    try:
        return _attempts(conn, _pack(commands), len(commands), retry)
    finally:
        pool.release(conn)


def _routing_key(command):
    """The key a command's slot is taken from (EVALSHA: its first KEYS
    entry); None for WAIT, which goes where the command before it went."""
    name = command[0]
    if name == "WAIT":
        return None
    if name in ("EVALSHA", "EVAL"):
        return command[3]
    return command[1]


def _attempts(conn, packed, replies, retry):
    if not retry:
        return _send_and_read(conn, packed, replies)
    return conn.retry.call_with_retry(
        lambda: _send_and_read(conn, packed, replies), lambda _error: conn.disconnect()
    )


def _send_and_read(conn, packed, replies):
    """One attempt of ``Store._replies`` on ``conn``: every reply read, an
    error reply kept as its exception (so none is left pending)."""
    conn.send_packed_command([packed])
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
