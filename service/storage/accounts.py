"""Accounts in Redis: the key layout, and every read and write of it.

The keys of one account carry its id as a hash tag, so a Redis Cluster keeps
them in one slot (a pipeline over them is one round trip to one node):

- ``account:{<aid>}``            hash: id, name, name_key, kind, created_at,
  status (active|closed), app, external_id (both "" unless an app made it)
- ``account:{<aid>}:tokens``     hash: token id -> JSON {label, scopes,
  created_at, expires_at|null, hash} (``hash``: the token's SHA-256, so
  closing the account can delete its ``pat:`` key; never the token)
- ``account:{<aid>}:used``       hash: token id -> last use (ISO 8601),
  written at most once a minute per token (gate ``account:{<aid>}:used:<tid>``,
  TTL 60 s)
- ``account:{<aid>}:events``     stream of account events, fields ``type`` and
  ``data`` (JSON), trimmed to about ``EVENTS_MAXLEN`` entries
- ``account:{<aid>}:live``       shard channel: ``append_account_event``
  publishes the new entry id there (SPUBLISH on Redis >= 7), as commit.lua
  does on ``match:{<id>}:live``

Keys outside the account's slot, each a single key claimed or read alone:

- ``accountname:<name_key>``     -> aid, claimed with ``SET NX`` (one sign-up
  of a name wins); never deleted, so a closed account's name stays taken
- ``pat:{<sha256 of token>}``    -> JSON {aid, tid, scopes, exp} (exp: epoch
  seconds or null; the key also expires then), read on every request; its
  hash tag is the token's, as the rate-limit counter's
  (``ratelimit:requests:t:{<sha256>}:<window>``), so lua/count_known.lua
  counts a live account token against its own window in one slot
- ``app:<app>:user:<external_id>`` -> aid, claimed with ``SET NX``
"""

from __future__ import annotations

import json
from typing import Any

from service.storage.transport import publish_command

EVENTS_MAXLEN = 1000
USED_GATE_S = 60


def account_key(aid: str, *parts: str) -> str:
    """``account:{<aid>}``, or one of its keys (``account:{<aid>}:tokens``...):
    the braces keep every key of an account in one cluster slot."""
    return ":".join((f"account:{{{aid}}}", *parts))


def tokens_key(aid: str) -> str:
    return account_key(aid, "tokens")


def used_key(aid: str) -> str:
    return account_key(aid, "used")


def used_gate_key(aid: str, tid: str) -> str:
    return account_key(aid, "used", tid)


def account_events_key(aid: str) -> str:
    return account_key(aid, "events")


def account_live_channel(aid: str) -> str:
    return account_key(aid, "live")


def name_claim_key(name_key: str) -> str:
    return f"accountname:{name_key}"


def pat_key(token_hash: str) -> str:
    return f"pat:{{{token_hash}}}"


def app_user_key(app: str, external_id: str) -> str:
    return f"app:{app}:user:{external_id}"


def text(value: Any) -> str:
    """A Redis reply's bytes (or a number) as text."""
    return value.decode() if isinstance(value, bytes) else str(value)


# --- claims ------------------------------------------------------------------


def claim(client: Any, key: str, aid: str) -> str | None:
    """``SET key aid NX``: None when this call claimed it, else the aid that holds it."""
    if client.set(key, aid, nx=True):
        return None
    holder = client.get(key)
    return None if holder is None else text(holder)


def holder(client: Any, key: str) -> str | None:
    """The aid a claim key (name or app user) points at, or None."""
    value = client.get(key)
    return None if value is None else text(value)


def release(client: Any, key: str) -> None:
    """Drop a claim this process made and could not complete."""
    client.delete(key)


def set_claim(client: Any, key: str, aid: str) -> None:
    client.set(key, aid)


# --- the account ---------------------------------------------------------------


def write_account(client: Any, account: dict[str, str]) -> None:
    client.hset(account_key(account["id"]), mapping=account)


def read_account(client: Any, aid: str) -> dict[str, str] | None:
    """The account's hash as text, or None when there is none."""
    raw = client.hgetall(account_key(aid))
    return {text(k): text(v) for k, v in raw.items()} if raw else None


# --- personal access tokens ------------------------------------------------------


def store_token(client: Any, aid: str, tid: str, record: dict[str, Any], grant: dict[str, Any]) -> None:
    """Write a token's listing entry (``record``, with its ``hash``) and its
    ``pat:`` lookup (``grant``), expiring at ``grant["exp"]`` when set.

    The listing entry is written first: a token is never usable without
    being listed (and so revocable)."""
    client.hset(tokens_key(aid), tid, json.dumps(record))
    client.set(pat_key(record["hash"]), json.dumps(grant), exat=grant["exp"])


def read_grant(client: Any, token_hash: str) -> dict[str, Any] | None:
    raw = client.get(pat_key(token_hash))
    return None if raw is None else json.loads(raw)


def read_tokens(client: Any, aid: str) -> tuple[dict[str, dict[str, Any]], dict[str, str]]:
    """``({tid: record}, {tid: last use})`` of an account, one round trip."""
    pipe = client.pipeline(transaction=False)
    pipe.hgetall(tokens_key(aid))
    pipe.hgetall(used_key(aid))
    records, used = pipe.execute()
    return (
        {text(k): json.loads(v) for k, v in records.items()},
        {text(k): text(v) for k, v in used.items()},
    )


def delete_tokens(client: Any, aid: str, records: dict[str, dict[str, Any]]) -> None:
    """Revoke: the ``pat:`` lookups first (revoked at once), then the listing."""
    if not records:
        return
    pipe = client.pipeline(transaction=False)
    for record in records.values():
        pipe.delete(pat_key(record["hash"]))
    pipe.execute()
    pipe = client.pipeline(transaction=False)
    pipe.hdel(tokens_key(aid), *records)
    pipe.hdel(used_key(aid), *records)
    pipe.execute()


def note_use(client: Any, aid: str, tid: str, when: str) -> None:
    """Record a token's use, at most once per ``USED_GATE_S`` per token."""
    if client.set(used_gate_key(aid, tid), 1, nx=True, ex=USED_GATE_S):
        client.hset(used_key(aid), tid, when)


# --- the account's event log ------------------------------------------------------


def append_account_event(client: Any, aid: str, event_type: str, data: dict[str, Any]) -> str:
    """XADD one event (trimmed to about ``EVENTS_MAXLEN``) and publish its id
    on the account's live channel; returns the entry id."""
    entry = client.xadd(
        account_events_key(aid),
        {"type": event_type, "data": json.dumps(data)},
        maxlen=EVENTS_MAXLEN,
        approximate=True,
    )
    entry_id = text(entry)
    client.execute_command(publish_command(client), account_live_channel(aid), entry_id)
    return entry_id


def read_account_events(client: Any, aid: str, after_id: str, count: int) -> list[dict[str, Any]]:
    """``[{id, type, data}]`` after entry ``after_id`` ("0": from the start),
    oldest first, at most ``count``."""
    entries = client.xrange(account_events_key(aid), f"({after_id}", "+", count=count)
    return [
        {"id": text(entry_id), "type": text(fields[b"type"]), "data": json.loads(fields[b"data"])}
        for entry_id, fields in entries
    ]


# --- seats, history and the profile's figures ---------------------------------------

# How long "this event was sent" is remembered (an after-commit path retried
# later than this may send it again).
SENT_TTL_S = 7 * 24 * 3600

_COUNT_FINISHED = """
if redis.call('SADD', KEYS[1], ARGV[1]) == 0 then return 0 end
redis.call('HINCRBY', KEYS[2], ARGV[2] .. ':played', 1)
if ARGV[3] == '1' then redis.call('HINCRBY', KEYS[2], ARGV[2] .. ':won', 1) end
redis.call('ZADD', KEYS[3], ARGV[4], ARGV[1])
return 1
"""


def matches_key(aid: str) -> str:
    """zset: every match the account holds a seat of, by creation (ms)."""
    return account_key(aid, "matches")


def finished_key(aid: str) -> str:
    """zset: the account's finished matches, by the time they were counted (ms)."""
    return account_key(aid, "finished")


def counted_key(aid: str) -> str:
    """set: the match ids already counted in the profile's figures."""
    return account_key(aid, "counted")


def games_key(aid: str) -> str:
    """hash: ``<game>:played`` and ``<game>:won`` -> count."""
    return account_key(aid, "games")


def sent_key(aid: str, match_id: str, name: str) -> str:
    return account_key(aid, "sent", match_id, name)


def note_commit(
    client: Any, indexed: list[tuple[str, str, int]], claims: list[tuple[str, str, str]]
) -> list[bool]:
    """One pipeline after a commit: ``indexed`` ``(aid, match_id, created_ms)``
    into each account's match index (ZADD NX), and ``claims`` ``(aid,
    match_id, name)`` of events to send, each ``SET NX`` with ``SENT_TTL_S``;
    returns, per claim, whether this call won it (send it) or it was sent."""
    pipe = client.pipeline(transaction=False)
    for aid, match_id, created_ms in indexed:
        pipe.zadd(matches_key(aid), {match_id: created_ms}, nx=True)
    for aid, match_id, name in claims:
        pipe.set(sent_key(aid, match_id, name), 1, nx=True, ex=SENT_TTL_S)
    results = pipe.execute()
    return [bool(ok) for ok in results[len(indexed) :]]


def count_finished(client: Any, aid: str, match_id: str, game: str, won: bool, when_ms: int) -> bool:
    """Count a finished match in the account's figures, once per match (a Lua
    script on the account's slot: SADD, then HINCRBY and ZADD only if new)."""
    keys = (counted_key(aid), games_key(aid), finished_key(aid))
    return bool(client.eval(_COUNT_FINISHED, 3, *keys, match_id, game, "1" if won else "0", when_ms))


def read_games(client: Any, aid: str) -> dict[str, dict[str, int]]:
    """``{game: {"played", "won"}}`` of the account."""
    games: dict[str, dict[str, int]] = {}
    for field, value in client.hgetall(games_key(aid)).items():
        game, _, what = text(field).rpartition(":")
        games.setdefault(game, {"played": 0, "won": 0})[what] = int(value)
    return games


def page_ids(client: Any, key: str, offset: int, count: int) -> tuple[list[str], int]:
    """``(ids newest first, total)`` of one page of a zset index (``count`` -1: all).

    Both ends are capped (Redis takes signed 64-bit indexes), as the lobby's are."""
    last = 1 << 62
    pipe = client.pipeline(transaction=False)
    pipe.zrevrange(key, min(offset, last), -1 if count < 0 else min(offset + count - 1, last))
    pipe.zcard(key)
    ids, total = pipe.execute()
    return [text(i) for i in ids], int(total)


def last_account_event_id(client: Any, aid: str) -> str:
    """The id of the account's last logged event ("0" when none)."""
    last = client.xrevrange(account_events_key(aid), "+", "-", count=1)
    return text(last[0][0]) if last else "0"


def stream_ticket_key(ticket_hash: str) -> str:
    return f"accountticket:{{{ticket_hash}}}"


def put_stream_ticket(client: Any, ticket_hash: str, token_hash: str, ttl_s: int) -> None:
    """An account stream ticket: the hash of the token it stands for, for ``ttl_s``."""
    client.set(stream_ticket_key(ticket_hash), token_hash, ex=ttl_s)


def take_stream_ticket(client: Any, ticket_hash: str) -> str | None:
    """The token hash a ticket stands for, deleting it (single use); None when
    unknown, used or expired."""
    raw = client.getdel(stream_ticket_key(ticket_hash))
    return None if raw is None else text(raw)
