"""Challenges and seeks in Redis: the key layout, and the scripts that change them.

A challenge's keys carry its id as a hash tag (one slot); every key of a
rating pool's seeks carries the pool's name (``{<pool>}``, the slot of that
pool's ratings too), so each script below runs on one cluster slot.

- ``challenge:{<cid>}``         hash: ``doc`` (JSON, never changed after
  creation), ``challenger`` (aid), ``status`` (pending|started|declined|
  cancelled), ``expires_ms``, ``n_inv``/``n_acc`` (invitees, accepted),
  ``inv:<aid>`` ("0"/"1": accepted), ``by`` (who declined or cancelled).
  It expires ``CHALLENGE_KEEP_S`` after its own expiry.
- ``account:{<aid>}:challenges`` zset: challenge ids sent or received, by
  expiry (ms); entries past their keeping are trimmed when listed.
- ``seeks:{<pool>}``             zset: waiting seek id -> created (ms)
- ``seeks:{<pool>}:doc``         hash: seek id -> JSON (account, rating, counts...)
- ``seeks:{<pool>}:alive``       hash: seek id -> last renewal (ms)
- ``seeks:{<pool>}:by``          hash: account id -> its waiting seek id (one per pool)
- ``seeks:{<pool>}:done:<sid>``  JSON ``{status, match_id, seat}`` of a seek that
  left the pool (matched, cancelled, expired), kept ``SEEK_DONE_KEEP_S``
- ``seeks:{<pool>}:tables``      hash: match id -> JSON of a table a wave
  claimed whose match is not created yet (created, then removed)
- ``seeks:{<pool>}:lock``        the wave's lock and pacing (SET NX PX)
- ``account:{<aid>}:seeks``      hash: seek id -> pool (the account's seeks)
"""

from __future__ import annotations

import json
from typing import Any

from service.storage.accounts import account_key, text

SEEK_DONE_KEEP_S = 3600


def challenge_key(cid: str) -> str:
    return f"challenge:{{{cid}}}"


def account_challenges_key(aid: str) -> str:
    return account_key(aid, "challenges")


def account_seeks_key(aid: str) -> str:
    return account_key(aid, "seeks")


def pool_keys(pool: str) -> list[str]:
    """``[waiting zset, docs, alive, by account, tables]`` of a pool (one slot)."""
    base = f"seeks:{{{pool}}}"
    return [base, f"{base}:doc", f"{base}:alive", f"{base}:by", f"{base}:tables"]


def done_key(pool: str, sid: str) -> str:
    return f"seeks:{{{pool}}}:done:{sid}"


def lock_key(pool: str) -> str:
    return f"seeks:{{{pool}}}:lock"


# --- challenges -----------------------------------------------------------------

_CHALLENGE_STEP = """
local status = redis.call('HGET', KEYS[1], 'status')
if not status then return {'MISSING', ''} end
if status ~= 'pending' then return {'STATE', status} end
if tonumber(ARGV[3]) >= tonumber(redis.call('HGET', KEYS[1], 'expires_ms')) then
  return {'STATE', 'expired'}
end
local action, aid = ARGV[1], ARGV[2]
if action == 'cancel' then
  if redis.call('HGET', KEYS[1], 'challenger') ~= aid then return {'FORBIDDEN', status} end
  redis.call('HSET', KEYS[1], 'status', 'cancelled', 'by', aid)
  return {'OK', 'cancelled'}
end
local field = 'inv:' .. aid
local seen = redis.call('HGET', KEYS[1], field)
if not seen then return {'FORBIDDEN', status} end
if action == 'decline' then
  redis.call('HSET', KEYS[1], 'status', 'declined', 'by', aid)
  return {'OK', 'declined'}
end
if seen == '1' then return {'OK', 'pending'} end
redis.call('HSET', KEYS[1], field, '1')
local n = redis.call('HINCRBY', KEYS[1], 'n_acc', 1)
if n >= tonumber(redis.call('HGET', KEYS[1], 'n_inv')) then
  redis.call('HSET', KEYS[1], 'status', 'started')
  return {'OK', 'started'}
end
return {'OK', 'pending'}
"""


def write_challenge(client: Any, doc: dict[str, Any], invitees: list[str], keep_s: int) -> None:
    """Store a new challenge (its id is new: nothing to race) and index it
    for the challenger and each invitee."""
    key = challenge_key(doc["id"])
    fields = {
        "doc": json.dumps(doc),
        "challenger": doc["challenger"]["id"],
        "status": "pending" if invitees else "started",
        "expires_ms": doc["expires_ms"],
        "n_inv": len(invitees),
        "n_acc": 0,
        **{f"inv:{aid}": "0" for aid in invitees},
    }
    pipe = client.pipeline(transaction=False)  # one key: one node, in order
    pipe.hset(key, mapping=fields)
    pipe.pexpireat(key, doc["expires_ms"] + keep_s * 1000)
    pipe.execute()
    pipe = client.pipeline(transaction=False)
    for aid in [doc["challenger"]["id"], *invitees]:
        pipe.zadd(account_challenges_key(aid), {doc["id"]: doc["expires_ms"]})
    pipe.execute()


def challenge_step(client: Any, cid: str, action: str, aid: str, now_ms: int) -> tuple[str, str]:
    """accept | decline | cancel, atomically on the challenge's slot:
    ``(outcome, status)``; outcome OK, MISSING, STATE (not pending: its
    status, ``expired`` included) or FORBIDDEN (not the account's to do)."""
    outcome, status = client.eval(_CHALLENGE_STEP, 1, challenge_key(cid), action, aid, now_ms)
    return text(outcome), text(status)


def read_challenge(client: Any, cid: str) -> dict[str, str] | None:
    raw = client.hgetall(challenge_key(cid))
    return {text(k): text(v) for k, v in raw.items()} if raw else None


def account_challenge_ids(client: Any, aid: str, since_ms: int, limit: int) -> list[str]:
    """The account's challenges expiring after ``since_ms`` (older entries trimmed), newest first."""
    key = account_challenges_key(aid)
    client.zremrangebyscore(key, "-inf", f"({since_ms}")
    return [text(i) for i in client.zrevrange(key, 0, limit - 1)]


# --- seeks ------------------------------------------------------------------------

# KEYS: waiting, doc, alive, by; ARGV: sid, aid, doc json, now ms, ttl ms
_ADD_SEEK = """
local old = redis.call('HGET', KEYS[4], ARGV[2])
if old then
  local alive = tonumber(redis.call('HGET', KEYS[3], old) or '0')
  if alive >= tonumber(ARGV[4]) - tonumber(ARGV[5]) then return {'DUP', old} end
  redis.call('ZREM', KEYS[1], old)
  redis.call('HDEL', KEYS[2], old)
  redis.call('HDEL', KEYS[3], old)
end
redis.call('ZADD', KEYS[1], ARGV[4], ARGV[1])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
redis.call('HSET', KEYS[3], ARGV[1], ARGV[4])
redis.call('HSET', KEYS[4], ARGV[2], ARGV[1])
return {'OK', ARGV[1]}
"""

# Take seeks out of the pool, all or none. KEYS: waiting, doc, alive, by,
# tables, then one done key per seek; ARGV: table id, table json, now ms,
# ttl ms (0: liveness not checked), done ttl s, status, then per seek: sid, aid, done json.
# Returns {'OK'} or {'GONE', sid} (that seek left the pool or went stale: nothing written).
_TAKE_SEEKS = """
local now, ttl = tonumber(ARGV[3]), tonumber(ARGV[4])
local n = (#ARGV - 6) / 3
for i = 0, n - 1 do
  local sid, aid = ARGV[7 + 3 * i], ARGV[8 + 3 * i]
  if not redis.call('ZSCORE', KEYS[1], sid) then return {'GONE', sid} end
  if redis.call('HGET', KEYS[4], aid) ~= sid then return {'GONE', sid} end
  if ttl > 0 and tonumber(redis.call('HGET', KEYS[3], sid) or '0') < now - ttl then
    return {'GONE', sid}
  end
end
for i = 0, n - 1 do
  local sid, aid, done = ARGV[7 + 3 * i], ARGV[8 + 3 * i], ARGV[9 + 3 * i]
  redis.call('ZREM', KEYS[1], sid)
  redis.call('HDEL', KEYS[2], sid)
  redis.call('HDEL', KEYS[3], sid)
  redis.call('HDEL', KEYS[4], aid)
  redis.call('SET', KEYS[6 + i], done, 'EX', ARGV[5])
end
if ARGV[1] ~= '' then redis.call('HSET', KEYS[5], ARGV[1], ARGV[2]) end
return {'OK', ''}
"""

# KEYS: waiting, alive; ARGV: now ms, sids...: renew those still waiting;
# returns the sids that are not.
_RENEW = """
local gone = {}
for i = 2, #ARGV do
  if redis.call('ZSCORE', KEYS[1], ARGV[i]) then
    redis.call('HSET', KEYS[2], ARGV[i], ARGV[1])
  else
    table.insert(gone, ARGV[i])
  end
end
return gone
"""


def add_seek(client: Any, pool: str, doc: dict[str, Any], now_ms: int, ttl_ms: int) -> tuple[str, str]:
    """Put a seek in its pool: ``("OK", sid)``, or ``("DUP", the account's live seek)``."""
    keys = pool_keys(pool)[:4]
    outcome, sid = client.eval(_ADD_SEEK, 4, *keys, doc["id"], doc["aid"], json.dumps(doc), now_ms, ttl_ms)
    if text(outcome) == "OK":
        client.hset(account_seeks_key(doc["aid"]), doc["id"], pool)
    return text(outcome), text(sid)


def take_seeks(
    client: Any,
    pool: str,
    taken: list[tuple[str, str, dict[str, Any]]],
    now_ms: int,
    ttl_ms: int,
    table: tuple[str, dict[str, Any]] | None = None,
) -> str | None:
    """Take ``taken`` ``[(sid, aid, done record)]`` out of the pool in one
    script, with ``table`` ``(match id, table)`` stored for creation; None if
    done, else the id of a seek that had left (then nothing changed)."""
    keys = pool_keys(pool) + [done_key(pool, sid) for sid, _, _ in taken]
    table_id, table_json = ("", "") if table is None else (table[0], json.dumps(table[1]))
    args: list[Any] = [table_id, table_json, now_ms, ttl_ms, SEEK_DONE_KEEP_S, ""]
    for sid, aid, done in taken:
        args += [sid, aid, json.dumps(done)]
    outcome, sid = client.eval(_TAKE_SEEKS, len(keys), *keys, *args)
    return None if text(outcome) == "OK" else text(sid)


def renew_seeks(client: Any, aid: str, now_ms: int) -> None:
    """Renew every waiting seek of account ``aid``; forget those that left
    (their done record stays readable until it expires)."""
    owned = client.hgetall(account_seeks_key(aid))
    by_pool: dict[str, list[str]] = {}
    for sid, pool in owned.items():
        by_pool.setdefault(text(pool), []).append(text(sid))
    for pool, sids in by_pool.items():
        waiting, _, alive = pool_keys(pool)[:3]
        client.eval(_RENEW, 2, waiting, alive, now_ms, *sids)


def account_seeks(client: Any, aid: str) -> dict[str, str]:
    """``{sid: pool}`` of the account's seeks (waiting or recently done)."""
    return {text(k): text(v) for k, v in client.hgetall(account_seeks_key(aid)).items()}


def forget_account_seeks(client: Any, aid: str, sids: list[str]) -> None:
    if sids:
        client.hdel(account_seeks_key(aid), *sids)


def read_seek(client: Any, pool: str, sid: str) -> tuple[dict[str, Any] | None, int, dict[str, Any] | None]:
    """``(doc while waiting, last renewal ms, done record)`` of one seek."""
    _, docs, alive, _, _ = pool_keys(pool)
    pipe = client.pipeline(transaction=False)
    pipe.hget(docs, sid)
    pipe.hget(alive, sid)
    pipe.get(done_key(pool, sid))
    doc, renewed, done = pipe.execute()
    return (
        None if doc is None else json.loads(doc),
        int(renewed or 0),
        None if done is None else json.loads(done),
    )


def waiting_seeks(client: Any, pool: str) -> tuple[dict[str, dict[str, Any]], dict[str, int]]:
    """``({sid: doc}, {sid: last renewal ms})`` of every waiting seek of a pool."""
    _, docs, alive, _, _ = pool_keys(pool)
    pipe = client.pipeline(transaction=False)
    pipe.hgetall(docs)
    pipe.hgetall(alive)
    raw_docs, raw_alive = pipe.execute()
    return (
        {text(k): json.loads(v) for k, v in raw_docs.items()},
        {text(k): int(v) for k, v in raw_alive.items()},
    )


def pending_tables(client: Any, pool: str) -> dict[str, dict[str, Any]]:
    """Tables claimed by a wave whose match may not exist yet: ``{match id: table}``."""
    return {text(k): json.loads(v) for k, v in client.hgetall(pool_keys(pool)[4]).items()}


def pending_table(client: Any, pool: str, match_id: str) -> dict[str, Any] | None:
    """The claimed table of ``match_id`` if its match may not exist yet."""
    raw = client.hget(pool_keys(pool)[4], match_id)
    return json.loads(raw) if raw is not None else None


def drop_table(client: Any, pool: str, match_id: str) -> None:
    client.hdel(pool_keys(pool)[4], match_id)


def lock_wave(client: Any, pool: str, token: str, hold_ms: int) -> bool:
    return bool(client.set(lock_key(pool), token, nx=True, px=hold_ms))


def pace_wave(client: Any, pool: str, token: str, next_in_ms: int) -> None:
    """Hold the pool's lock ``next_in_ms`` more: no wave before then (any worker's)."""
    client.set(lock_key(pool), token, px=max(1, next_in_ms))
