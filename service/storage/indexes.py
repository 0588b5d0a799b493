"""The indexes that span matches, outside any match's slot: the lobby's
sorted sets, the token index and the retention index (the key layout is in
keys.py). On a cluster they are plain keys written after a match's commit,
best effort, on each status change; the lobby listing repairs an entry whose
status is stale, and the workers' sweep drops expired matches
(``prune_expired``). ``Store`` carries these methods."""

import time
from collections.abc import Iterable
from typing import Any

from service.storage.keys import (
    RETENTION_SHARDS,
    STATUSES,
    lobby_key,
    match_key,
    record_key,
    retention_key,
    retention_shard_key,
    token_index_key,
)


class MatchIndexes:
    """The cross-slot index methods of ``Store`` (a mixin over its client)."""

    redis: Any
    finished_ttl_s: int
    archive_ttl_s: int

    def after_commit(
        self, doc: dict, new_token_hashes: Iterable[str] = (), revoked_token_hashes: Iterable[str] = ()
    ) -> None:
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
        if doc["status"] == "finished":
            self._expire_with_match(pipe, doc)
        pipe.execute()

    def _expire_with_match(self, pipe: Any, doc: dict) -> None:
        """Queue on ``pipe`` what makes a finished match's cross-slot entries
        follow its keys out: its live tokens' index entries expire with its
        hot keys (``finished_ttl_s``), and the retention index tells
        ``prune_expired`` when to drop it from the lobby, once its archive
        record expires too (``archive_ttl_s``; an upper bound: the TTL only
        runs from the last commit). Nothing expires at 0."""
        if self.finished_ttl_s > 0:
            for name in self.redis.hkeys(match_key(doc["id"])):
                if name.startswith(b"tok:"):
                    pipe.expire(token_index_key(name[4:].decode()), self.finished_ttl_s)
        if self.archive_ttl_s > 0:
            expires_ms = int(time.time() * 1000) + self.archive_ttl_s * 1000
            pipe.zadd(retention_key(doc["id"]), {f"{doc['game']}:{doc['id']}": expires_ms})

    def prune_expired(self, now_ms: int, limit: int = 100) -> int:
        """Drop from the lobby indexes the finished matches whose archive
        records have expired by ``now_ms``, at most ``limit`` per retention
        shard; returns how many. An entry whose record is still there (a
        later change renewed its TTL) moves to its new expiry; one kept for
        ever leaves the index."""
        pipe = self.redis.pipeline(transaction=False)
        for shard in range(RETENTION_SHARDS):
            pipe.zrangebyscore(retention_shard_key(shard), "-inf", now_ms, start=0, num=limit)
        due = [(shard, member.decode()) for shard, members in enumerate(pipe.execute()) for member in members]
        if not due:
            return 0
        pipe = self.redis.pipeline(transaction=False)
        for _, member in due:
            pipe.pttl(record_key(member.split(":", 1)[1]))
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

    def lobby_page(
        self, status: str | None, game: str | None, offset: int, limit: int
    ) -> tuple[list[str], int]:
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

    def active_match_ids(self, start: int = 0, count: int = 1000) -> list[str]:
        """Active matches, newest first, from ``start``."""
        ids = self.redis.zrevrange(lobby_key("active", None), start, start + count - 1)
        return [i.decode() for i in ids]
