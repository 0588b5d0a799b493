"""The match store: every read and write of a match goes through ``Store``
(keys in keys.py, values in records.py, the wire in transport.py, the
cross-slot indexes in indexes.py, the deadline index in deadline_index.py).

On a Redis Cluster (service/storage/redis_modes.py) the hot round trips are split by
node: each command goes to the primary of its key's slot, the commands of each
node in one write, every node written before any reply is read, so no command
spans slots (but for the commit script's deadline entry, in another slot of
its node: deadline_index.py); the cross-slot indexes (keys.py) are
single-key commands (redis-py's cluster pipelines route each). With
``wait=(replicas, timeout ms)`` a commit is refused before it writes anything
while its primary has fewer in-sync replicas than that (503
``not_enough_replicas``, replicas.py), and every commit is followed, in the
same write to the same node, by ``WAIT``: a commit that too few replicas
confirm is answered 503 ``unavailable``: it may be applied, and a retry with
the same Idempotency-Key returns its result (the replay refreshes the
record's TTL, a write that the next WAIT covers along with everything before
it).

Everything is JSON (orjson), never pickle.
"""

from importlib import resources
from typing import Any

import orjson
import redis
from redis.exceptions import NoScriptError

from service.storage.archived import ArchivedReads
from service.storage.counters import RateCounters
from service.storage.deadline_index import CROSS_SLOT_SHEBANG, NON_LOCAL_KEY, Deadline, DeadlineIndex
from service.storage.indexes import MatchIndexes
from service.storage.keys import (
    actions_key,
    events_key,
    idem_key,
    idems_key,
    live_channel,
    match_key,
    record_key,
    ticket_key,
    token_index_key,
)
from service.storage.records import Change, CommitResult, SeatCount, StoredMatch, parse_events
from service.storage.redis_modes import is_cluster_client, refresh_topology, watch_slot_map
from service.storage.replicas import ReplicaGate
from service.storage.transport import Command, Transport, publish_command, raise_error_replies

# An event as read back: ``(seq, version, event)``.
Event = tuple[int, int, dict]


def _script(client: Any, name: str, prefix: str = "") -> Any:
    text = resources.files("service.storage").joinpath(f"lua/{name}").read_text()
    return client.register_script(prefix + text)


class Store(MatchIndexes, ArchivedReads, DeadlineIndex, RateCounters):
    """Match storage on one redis-py client (not decoding responses).

    A finished match whose hot keys are gone is read from its archive record
    (``ArchivedReads``, archived.py): every read below falls back to it.
    """

    def __init__(
        self,
        client: Any,
        idempotency_ttl_s: int = 24 * 3600,
        wait: tuple[int, int] | None = None,
        finished_ttl_s: int = 0,
        replica_max_lag_s: int = 10,
        archive_ttl_s: int = 0,
    ) -> None:
        self.redis = client
        self.idempotency_ttl_s = idempotency_ttl_s
        self.finished_ttl_s = finished_ttl_s  # FINISHED_MATCH_TTL_S; 0: keep for ever
        self.archive_ttl_s = archive_ttl_s  # ARCHIVE_TTL_S: the record's; 0: for ever
        self.archive: Any = None  # runtime/archive.Archive (set by Services): rebuilds from records
        self.wait = wait  # (replicas, timeout ms) each commit WAITs for, or None
        # Refuses commits before writing on a primary short of in-sync replicas.
        self.replicas = None if wait is None else ReplicaGate(client, wait[0], replica_max_lag_s)
        # On a cluster the commit script writes its deadline entry in another
        # slot of its node (deadline_index.py): Redis 7's flag allows it.
        shebang = CROSS_SLOT_SHEBANG if is_cluster_client(client) else ""
        self._commit = _script(client, "commit.lua", shebang)
        self._count_known = _script(client, "count_known.lua")
        self._count_seat = _script(client, "count_seat.lua")
        self._deadline = _script(client, "deadline.lua")
        self._local_shards = None  # DeadlineIndex: node -> the deadline shards it serves
        watch_slot_map(client, self.forget_slot_map)
        self.transport = Transport(client)
        self._publish: str | None = None  # publish_command(), decided on the first commit

    def _scripted_round_trip(self, *commands: Command, retry: bool = True) -> list[Any]:
        """The replies of ``commands`` (``Transport.replies``), raising the first error
        reply. Commands may call our scripts by EVALSHA: they are loaded when
        the server lacks them (a restarted or another
        server: what redis-py's Script does too). A script's SHA never changes.
        The commands of one round trip run whatever the others answer, so
        only those the server refused for a missing script are sent again,
        each with the WAIT that follows it: that WAIT ran before the script
        wrote anything, so its count confirmed none of the script's writes
        (a commit's first on a fresh or promoted node was answered 2xx
        without any replica having it).
        """
        replies = self.transport.replies(commands, retry)
        refused = [i for i, reply in enumerate(replies) if isinstance(reply, NoScriptError)]
        waits = [i + 1 for i in refused if i + 1 < len(commands) and commands[i + 1][0] == "WAIT"]
        missing = sorted({*refused, *waits})
        if missing:
            for script in (self._commit, self._count_known, self._count_seat, self._deadline):
                self.redis.script_load(script.script)
            again = self.transport.replies([commands[i] for i in missing], retry)
            for i, reply in zip(missing, again, strict=True):
                replies[i] = reply
        raise_error_replies(replies)
        return replies

    def _send_commit(
        self, match_id: str, keys: list[str], args: list[Any], deadline: Deadline | None
    ) -> tuple[Any, Any]:
        """``_eval_commit`` with the deadline entry in the script where its shard
        is on the script's node; else (or when the slot map was out of date:
        the script wrote nothing) the entry first, in a round trip of its own."""
        if deadline is None:
            return self._eval_commit(keys, [*self.commit_deadline_args(None, match_id, None), *args])
        tag, in_script = self.deadline_shard(match_id)
        if in_script:
            try:
                return self._eval_commit(keys, [*self.commit_deadline_args(tag, match_id, deadline), *args])
            except redis.ResponseError as error:
                if NON_LOCAL_KEY not in str(error):
                    raise
            refresh_topology(self.redis)
            self.forget_slot_map()
            tag = self.deadline_shard(match_id)[0]
        self._scripted_round_trip(self._deadline_command(tag, match_id, *deadline))
        return self._eval_commit(keys, [*self.commit_deadline_args(None, match_id, None), *args])

    def _eval_commit(self, keys: list[str], args: list[Any]) -> tuple[Any, Any]:
        """EVALSHA of commit.lua, followed by WAIT when writes are acknowledged."""
        commands = [("EVALSHA", self._commit.sha, len(keys), *keys, *args)]
        if self.wait is not None:
            # Same connection (same node), right after: WAIT counts the
            # replicas that have this connection's writes so far.
            commands.append(("WAIT", *self.wait))
        replies = self._scripted_round_trip(*commands, retry=False)
        if self.wait is not None:
            return replies[-2], replies[-1]
        return replies[-1], None

    # --- reading ---------------------------------------------------------

    def load(self, match_id: str, token_hash: str | None = None) -> StoredMatch | None:
        """The match, or None when there is none with this id.

        With ``token_hash``, the seat that token acts for comes in the same
        round trip (``token_seat``, None when unknown here).
        """
        values = self.redis.hmget(match_key(match_id), self._load_fields(token_hash))
        return self._stored(match_id, token_hash, values) or self.load_archived(match_id, token_hash)

    @staticmethod
    def _load_fields(token_hash: str | None) -> list[str]:
        return ["rev", "doc", "state"] + ([f"tok:{token_hash}"] if token_hash else [])

    @staticmethod
    def _stored(match_id: str, token_hash: str | None, values: list[Any]) -> StoredMatch | None:
        rev, doc, state = values[:3]
        if rev is None or doc is None:
            return None
        seat = values[3] if token_hash else None
        seat = None if seat is None else int(seat)
        return StoredMatch(match_id, rev.decode(), orjson.loads(doc), state, seat, doc_json=doc)

    def probe(self, match_id: str, token_hash: str) -> tuple[bool, int | None]:
        """``(exists, seat of the token or None)`` in one round trip."""
        rev, seat = self.redis.hmget(match_key(match_id), "rev", f"tok:{token_hash}")
        if rev is None:
            archived = self.load_archived(match_id, token_hash)
            return archived is not None, None if archived is None else archived.token_seat
        return True, None if seat is None else int(seat)

    def load_doc(self, match_id: str) -> dict | None:
        """Only the document of a match (no engine state), or None."""
        raw = self.redis.hget(match_key(match_id), "doc")
        return self.archived_docs([match_id])[0] if raw is None else orjson.loads(raw)

    def load_docs(self, match_ids: list[str]) -> list[dict | None]:
        """Docs of several matches (None for missing ones), one round trip
        (one more for those read from their records)."""
        pipe = self.redis.pipeline(transaction=False)
        for match_id in match_ids:
            pipe.hget(match_key(match_id), "doc")
        docs = [orjson.loads(raw) if raw else None for raw in pipe.execute()]
        missing = [i for i, doc in enumerate(docs) if doc is None]
        for i, doc in zip(missing, self.archived_docs([match_ids[i] for i in missing]), strict=True):
            docs[i] = doc
        return docs

    def seat_token_hashes(self, match_id: str, seat: int) -> list[str]:
        """The hashes of the live tokens of ``seat`` in ``match_id``."""
        fields = self.redis.hgetall(match_key(match_id))
        return [
            name[4:].decode()
            for name, value in fields.items()
            if name.startswith(b"tok:") and int(value) == seat
        ]

    def token_match(self, token_hash: str) -> str | None:
        """The match id a token was issued for (revoked ones included), or None."""
        raw = self.redis.get(token_index_key(token_hash))
        return None if raw is None else raw.decode()

    def read_events(self, match_id: str, after: int, limit: int) -> list[Event]:
        """``[(seq, version, event)]`` with seq > ``after``, at most ``limit``
        (from the record when the hot keys are gone: same round trip)."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.xrange(*_events_after(match_id, after, limit))
        pipe.exists(match_key(match_id))
        entries, hot = pipe.execute()
        if not entries and not hot:
            stored = self.load_archived(match_id)
            return (
                []
                if stored is None or stored.archived is None
                else stored.archived.events_after(after, limit)
            )
        return parse_events(entries)

    def read_new_events(
        self, positions: list[tuple[str, int]], limit: int
    ) -> list[tuple[list[Event], dict | None]]:
        """``[(events, doc)]``, one per ``(match_id, after)`` of ``positions``, in
        one pipelined round trip: its events as ``read_events`` gives them, and
        its document (None when the match is gone)."""
        pipe = self.redis.pipeline(transaction=False)
        for match_id, after in positions:
            pipe.xrange(*_events_after(match_id, after, limit))
            pipe.hget(match_key(match_id), "doc")
        replies = pipe.execute()
        return [
            (parse_events(entries), orjson.loads(raw_doc) if raw_doc else self.load_doc(match_id))
            for (match_id, _), entries, raw_doc in zip(positions, replies[::2], replies[1::2], strict=True)
        ]

    def put_ticket(self, match_id: str, ticket_hash: str, token_hash: str, ttl_s: int) -> None:
        self.redis.set(ticket_key(match_id, ticket_hash), token_hash, ex=ttl_s)

    def take_ticket(self, match_id: str, ticket_hash: str) -> str | None:
        """The token hash a ticket stands for, deleting it (single use); None
        when unknown, used or expired."""
        raw = self.redis.getdel(ticket_key(match_id, ticket_hash))
        return None if raw is None else raw.decode()

    def read_actions(self, match_id: str) -> list[dict]:
        """The replay log ``[{"seat", "action"}]`` (the record's when the hot keys are gone)."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.lrange(actions_key(match_id), 0, -1)
        pipe.exists(match_key(match_id))
        raws, hot = pipe.execute()
        if not raws and not hot:
            return self.archived_actions(match_id)
        return [orjson.loads(raw) for raw in raws]

    def read_idempotency(self, key: str) -> dict | None:
        """The record stored under ``key`` (None: none). With ``wait`` set, the
        same round trip WAITs on the record's node, so a record whose commit
        was answered 503 (too few replicas confirmed it) is answered 503 again
        until they do: a retry is told "accepted" only under the guarantee
        the first attempt was refused for lacking. A primary short of
        in-sync replicas (replicas.py) is refused before that WAIT: it could
        confirm no record, nor store a new one."""
        if self.wait is None or self.replicas is None:
            raw = self.redis.get(key)
        else:
            self.replicas.check(key)
            raw, replicas = self._scripted_round_trip(("GET", key), ("WAIT", *self.wait))
            if raw is not None and replicas < self.wait[0]:
                self.replicas.suspect(key)
                CommitResult("DUP", replicas=replicas, wanted=self.wait[0]).raise_if_unreplicated()
        return None if raw is None else orjson.loads(raw)

    # --- writing ---------------------------------------------------------

    def commit(
        self,
        match_id: str,
        expected_rev: str | None,
        change: Change,
        deadline: Deadline | None = None,
        seat_count: SeatCount | None = None,
    ) -> CommitResult:
        """Write ``change`` if the match is still at ``expected_rev``.

        ``expected_rev`` None creates the match (fails if it exists). One
        round trip; either everything is written or nothing. ``deadline``
        (``(version, due ms)``) goes to the deadline index with the commit,
        in its script (deadline_index.py; on a cluster node serving no shard
        of the index, in a round trip before it). ``seat_count``: the
        request's rate-limit count, taken by the script first (a seat token's
        window: it is in the match's slot); its CONFLICT then brings the
        fresh match (``CommitResult.fresh``), and NOSEAT and LIMIT are
        possible (lua/commit.lua).
        """
        if self._publish is None:
            self._publish = publish_command(self.redis)
        fields = _hash_fields(change)
        args = [
            *_change_args(expected_rev, change, fields),
            change.idem_value or "",
            self.idempotency_ttl_s,
            self._publish,
            self.finished_ttl_s if change.doc["status"] == "finished" else 0,
            change.record or "",
            self.archive_ttl_s,
        ]
        keys = _commit_keys(match_id, change)
        if seat_count is not None:
            keys.append(seat_count.key)
            args += [f"tok:{seat_count.token_hash}", seat_count.ttl_s, seat_count.limit]
        if self.replicas is not None:
            self.replicas.check(keys[0])  # before anything is sent
        reply, replicas = self._send_commit(match_id, keys, args, deadline)
        if self.replicas is not None and replicas is not None and replicas < self.replicas.wanted:
            self.replicas.suspect(keys[0])
        result = self._commit_result(match_id, reply, replicas, seat_count)
        if "state" in fields:
            result.written = (fields["doc"], fields["state"])
        return result

    def _commit_result(
        self, match_id: str, reply: list[Any], replicas: int | None, seat_count: SeatCount | None
    ) -> CommitResult:
        outcome = reply[0].decode()
        payload: Any = reply[1] if len(reply) > 1 else None
        if outcome == "DUP":
            payload = orjson.loads(payload)
        elif outcome == "OK":
            payload = payload.decode()  # the new revision
        if outcome == "SEQ":
            raise RuntimeError(f"event seq out of order in match {match_id}: stream ends at {payload!r}")
        result = CommitResult(outcome, payload, replicas, self.wait[0] if self.wait else 0)
        if seat_count is not None and len(reply) > 2:
            seat_count.count = int(reply[2])
            if outcome == "CONFLICT" and payload:
                fresh = [payload, *reply[3:6]]
                result.fresh = self._stored(match_id, seat_count.token_hash, fresh)
        return result


def _events_after(match_id: str, after: int, limit: int) -> tuple[str, str, str, int]:
    """XRANGE's arguments: the events of ``match_id`` with seq > ``after``, at most ``limit``."""
    return events_key(match_id), f"0-{after + 1}", "+", limit


def _commit_keys(match_id: str, change: Change) -> list[str]:
    """commit.lua's KEYS[1..7] (its header comment says what each is)."""
    return [
        match_key(match_id),
        events_key(match_id),
        actions_key(match_id),
        change.idem_key or idem_key(match_id, "-", "-"),
        live_channel(match_id),
        record_key(match_id),
        idems_key(match_id),
    ]


def _hash_fields(change: Change) -> dict[str, Any]:
    """The match hash's fields ``change`` sets (besides ``rev``), as written."""
    fields: dict[str, bytes | str] = {"doc": orjson.dumps(change.doc)}
    if change.state is not None:
        fields["state"] = orjson.dumps(change.state)
    for token_hash, seat in (change.set_tokens or {}).items():
        fields[f"tok:{token_hash}"] = str(seat)
    return fields


def _change_args(expected_rev: str | None, change: Change, fields: dict[str, Any]) -> list[Any]:
    """commit.lua's ARGV up to the action (its header comment has the layout);
    ``fields``: ``_hash_fields(change)``."""
    args: list[Any] = [expected_rev or ""]
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
    return args
