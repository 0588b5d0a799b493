"""Ratings in Redis: one pool's keys, and every read and write of them.

Every key of a pool carries the pool as its hash tag, so a Redis Cluster
keeps a pool in one slot and lua/apply_ratings.lua updates a whole match
(its accounts' ratings, the boards, the histories, the applied mark) in
one atomic script:

- ``ratings:{<pool>}:ratings``        hash: aid -> JSON {mu, sigma, matches,
  kind, updated_ms}
- ``ratings:{<pool>}:applied``        set: the match ids applied to the pool
- ``ratings:{<pool>}:board:<filter>`` zset: aid -> conservative rating
  (mu - 3 sigma); filter ``all``, ``human`` or ``bot``, each also
  ``<kind>:established`` (the accounts past the provisional rule)
- ``ratings:{<pool>}:history:<aid>``  list: the account's rating changes,
  oldest first, JSON {match_id, at, mu, sigma, rating, delta, place, players}
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from typing import Any

from service.storage.accounts import text

BOARD_FILTERS = ("all", "all:established", "human", "human:established", "bot", "bot:established")


def pool_key(pool: str, *parts: str) -> str:
    """``ratings:{<pool>}`` and one of its keys: the braces keep a pool in one slot."""
    return ":".join((f"ratings:{{{pool}}}", *parts))


def board_key(pool: str, kind: str | None, established: bool) -> str:
    return pool_key(pool, "board", kind or "all", *(("established",) if established else ()))


def history_key(pool: str, aid: str) -> str:
    return pool_key(pool, "history", aid)


@dataclass
class NewRating:
    """One account's write of a match: what was read, what replaces it."""

    aid: str
    read: str  # the rating JSON read before computing ("" for none)
    rating: dict[str, Any]
    score: float  # the conservative rating the boards order by
    kind: str  # human | bot
    established: bool
    history: dict[str, Any]


_SOURCE = resources.files("service.storage").joinpath("lua/apply_ratings.lua").read_text()


def is_applied(client: Any, pool: str, match_id: str) -> bool:
    return bool(client.sismember(pool_key(pool, "applied"), match_id))


def read_raw(client: Any, pool: str, aids: list[str]) -> dict[str, str]:
    """``{aid: rating JSON}`` ("" for an account not rated in the pool yet)."""
    values = client.hmget(pool_key(pool, "ratings"), aids) if aids else []
    return {aid: "" if value is None else text(value) for aid, value in zip(aids, values)}


def read_ratings(client: Any, pool: str, aids: list[str]) -> dict[str, dict[str, Any] | None]:
    return {aid: json.loads(raw) if raw else None for aid, raw in read_raw(client, pool, aids).items()}


def read_in_pools(client: Any, pools: tuple[str, ...], aid: str) -> dict[str, dict[str, Any] | None]:
    """``{pool: rating or None}`` of one account (one pipeline over the pools' slots)."""
    pipe = client.pipeline(transaction=False)
    for pool in pools:
        pipe.hget(pool_key(pool, "ratings"), aid)
    return {pool: json.loads(raw) if raw else None for pool, raw in zip(pools, pipe.execute())}


def apply(client: Any, pool: str, match_id: str, writes: list[NewRating]) -> int:
    """Run lua/apply_ratings.lua: 1 applied now, 0 applied before, -1 a read value changed."""
    keys = [pool_key(pool, "ratings"), pool_key(pool, "applied")]
    keys += [pool_key(pool, "board", name) for name in BOARD_FILTERS]
    keys += [history_key(pool, write.aid) for write in writes]
    args: list[Any] = [match_id, len(writes)]
    for write in writes:
        args += [
            write.aid,
            write.read,
            json.dumps(write.rating, sort_keys=True),
            repr(write.score),
            write.kind,
            "1" if write.established else "0",
            json.dumps(write.history, sort_keys=True),
        ]
    # EVALSHA, loading the script on a NOSCRIPT reply (redis-py's Script).
    return int(client.register_script(_SOURCE)(keys=keys, args=args))


def board_page(
    client: Any, pool: str, kind: str | None, established: bool, offset: int, count: int
) -> tuple[list[tuple[str, float]], int]:
    """``([(aid, conservative rating)] best first, total)`` of one board page."""
    key = board_key(pool, kind, established)
    pipe = client.pipeline(transaction=False)
    pipe.zrevrange(key, offset, offset + count - 1, withscores=True)
    pipe.zcard(key)
    entries, total = pipe.execute()
    return [(text(aid), float(score)) for aid, score in entries], int(total)


def read_history(client: Any, pool: str, aid: str, limit: int) -> tuple[list[dict[str, Any]], int]:
    """``(the last ``limit`` changes oldest first, how many there are)``."""
    pipe = client.pipeline(transaction=False)
    pipe.lrange(history_key(pool, aid), -limit, -1)
    pipe.llen(history_key(pool, aid))
    entries, total = pipe.execute()
    return [json.loads(entry) for entry in entries], int(total)
