"""Redis storage of matches: keys, the atomic commit, events, lobby, tokens.

Keys of one match carry its id as a hash tag so a Redis Cluster keeps them in
one slot and the commit script can touch them all:

- ``match:{<id>}``            hash: ``rev`` (write counter), ``doc`` (JSON:
  seats, status, version...), ``state`` (the engine's dump, JSON),
  ``tok:<sha256>`` (seat of a bearer token)
- ``match:{<id>}:events``     stream, entry id ``0-<seq>``
- ``match:{<id>}:actions``    list of ``{"seat", "action"}`` (the replay)
- ``match:{<id>}:idem:<seat>:<sha256>`` idempotency records (TTL 24 h)

Indexes deliberately outside the match's slot (they span matches; on a
cluster they are plain keys written after the commit, best effort, on each
status change; the lobby listing repairs an entry whose status is stale):

- ``lobby:<status|*>:<game|*>`` sorted sets of match ids by creation time
- ``token:<sha256>``            match id of a token (only to tell 403 from 401)

Everything is JSON (orjson), never pickle.
"""

import os
import threading
from dataclasses import dataclass
from functools import cached_property
from importlib import resources

import hiredis
import orjson
from redis.exceptions import NoScriptError

STATUSES = ("waiting", "active", "finished")


def match_key(match_id):
    return f"match:{{{match_id}}}"


def events_key(match_id):
    return f"match:{{{match_id}}}:events"


def actions_key(match_id):
    return f"match:{{{match_id}}}:actions"


def idem_key(match_id, seat, key_hash):
    return f"match:{{{match_id}}}:idem:{seat}:{key_hash}"


def lobby_key(status, game):
    return f"lobby:{status or '*'}:{game or '*'}"


def token_index_key(token_hash):
    return f"token:{token_hash}"


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
    def __init__(self, outcome, payload=None):
        self.outcome = outcome  # "OK" | "CONFLICT" | "DUP"
        self.payload = payload  # OK: the new rev; DUP: the stored idempotency value


class Store:
    """Match storage on one redis-py client (not decoding responses)."""

    def __init__(self, client, idempotency_ttl_s=24 * 3600):
        self.redis = client
        self.idempotency_ttl_s = idempotency_ttl_s
        source = resources.files("service").joinpath("lua/commit.lua").read_text()
        self._commit = client.register_script(source)
        self._local = threading.local()

    # --- the hot round trips (a move's read, every commit) -------------------

    def _round_trip(self, *commands):
        """Send ``commands`` in one write; return their replies as hiredis parses
        them (bytes, ints, lists), raising the first error reply.

        A move's two round trips go through here rather than redis-py's
        command layer (pipeline objects, reply callbacks, observability hooks),
        which cost several times the CPU of the commands themselves. Same
        pool, same retry policy on connection errors, same exceptions.
        """
        packed = b"".join(hiredis.pack_command(command) for command in commands)
        conn = self._thread_connection()
        return conn.retry.call_with_retry(
            lambda: _send_and_read(conn, packed, len(commands)),
            lambda _error: conn.disconnect())

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

    def _eval_commit(self, keys, args):
        """EVALSHA of commit.lua, loading the script when the server lacks it."""
        command = ("EVALSHA", self._commit.sha, len(keys), *keys, *args)
        try:
            return self._round_trip(command)[0]
        except NoScriptError:
            # A restarted (or another) server: what redis-py's Script does too.
            self._commit.sha = self.redis.script_load(self._commit.script)
            return self._round_trip(("EVALSHA", self._commit.sha, *command[2:]))[0]

    # --- reading ---------------------------------------------------------

    def load(self, match_id, token_hash=None):
        """The match, or None when there is none with this id.

        With ``token_hash``, the seat that token acts for comes in the same
        round trip (``token_seat``, None when unknown here).
        """
        values = self.redis.hmget(match_key(match_id), self._load_fields(token_hash))
        return self._stored(match_id, token_hash, values)

    def load_counted(self, match_id, token_hash, counter_key, counter_ttl_s):
        """``(load(match_id, token_hash), counter after INCR)`` in one round trip.

        The counter (a rate-limit window, outside the match's slot) gets its
        TTL on first use. A pipeline, not a script, so the two slots may live
        on different cluster nodes.
        """
        fields = self._load_fields(token_hash)
        count, _, values = self._round_trip(
            ("INCR", counter_key),
            ("EXPIRE", counter_key, counter_ttl_s, "NX"),
            ("HMGET", match_key(match_id), *fields))
        return self._stored(match_id, token_hash, values), count

    @staticmethod
    def _load_fields(token_hash):
        return ["rev", "doc", "state"] + ([f"tok:{token_hash}"] if token_hash else [])

    @staticmethod
    def _stored(match_id, token_hash, values):
        rev, doc, state = values[:3]
        if rev is None or doc is None:
            return None
        seat = values[3] if token_hash else None
        return StoredMatch(match_id, rev.decode(), orjson.loads(doc), state,
                           None if seat is None else int(seat))

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

    def token_match(self, token_hash):
        """The match id a token was issued for (revoked ones included), or None."""
        raw = self.redis.get(token_index_key(token_hash))
        return None if raw is None else raw.decode()

    def read_events(self, match_id, after, limit):
        """``[(seq, version, event)]`` with seq > ``after``, at most ``limit``."""
        entries = self.redis.xrange(events_key(match_id), min=f"0-{after + 1}", max="+", count=limit)
        out = []
        for entry_id, fields in entries:
            seq = int(entry_id.split(b"-")[1])
            out.append((seq, int(fields[b"v"]), orjson.loads(fields[b"e"])))
        return out

    def read_actions(self, match_id):
        return [orjson.loads(raw) for raw in self.redis.lrange(actions_key(match_id), 0, -1)]

    def read_idempotency(self, key):
        raw = self.redis.get(key)
        return None if raw is None else orjson.loads(raw)

    # --- writing ---------------------------------------------------------

    def commit(self, match_id, expected_rev, change):
        """Write ``change`` if the match is still at ``expected_rev``.

        ``expected_rev`` None creates the match (fails if it exists). One
        round trip; either everything is written or nothing.
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
        args += [change.idem_value or "", self.idempotency_ttl_s]
        keys = [match_key(match_id), events_key(match_id), actions_key(match_id),
                change.idem_key or idem_key(match_id, "-", "-")]
        reply = self._eval_commit(keys, args)
        outcome = reply[0].decode()
        payload = reply[1] if len(reply) > 1 else None
        if outcome == "DUP":
            payload = orjson.loads(payload)
        elif outcome == "OK":
            payload = payload.decode()  # the new revision
        if outcome == "SEQ":
            raise RuntimeError(f"event seq out of order in match {match_id}: stream ends at {payload!r}")
        return CommitResult(outcome, payload)

    def after_commit(self, doc, new_token_hashes=()):
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
        pipe.execute()

    def lobby_page(self, status, game, offset, limit):
        """``(match_ids, total)`` newest first."""
        key = lobby_key(status, game)
        pipe = self.redis.pipeline(transaction=False)
        pipe.zrevrange(key, offset, offset + limit - 1)
        pipe.zcard(key)
        ids, total = pipe.execute()
        return [i.decode() for i in ids], total

    def active_match_ids(self, limit=1000):
        return [i.decode() for i in self.redis.zrevrange(lobby_key("active", None), 0, limit - 1)]


def _send_and_read(conn, packed, replies):
    """One attempt of ``Store._round_trip`` on ``conn``."""
    conn.send_packed_command([packed])
    out = []
    try:
        for _ in range(replies):
            out.append(conn.read_response())
    except BaseException:
        # An error reply leaves the later replies unread: never use this
        # connection again with them pending.
        conn.disconnect()
        raise
    return out
