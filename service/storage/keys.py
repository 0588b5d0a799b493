"""The key layout of a match in Redis, and of the indexes that span matches.

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
- ``match:{<id>}:record``     the archive record (service/storage/archive.py):
  written by the commit that finishes the match (and rewritten by any later
  one), in the same script; kept ``ARCHIVE_TTL_S`` (0: for ever) after the
  hot keys above are gone
- ``match:{<id>}:idems``      set of the match's idempotency record keys, so
  the finishing commit can make them expire with the other hot keys
- ``match:{<id>}:ticket:<sha256>`` a stream ticket (TTL ``STREAM_TICKET_TTL_S``):
  the hash of the bearer token it stands for, deleted on use (GETDEL)

Retention: the commit that stores a finished match (and any later one, such
as a rematch claim) sets ``FINISHED_MATCH_TTL_S`` on the hash, the events,
the actions and the idempotency records in its script (0: kept for ever);
the record stays ``ARCHIVE_TTL_S`` (0: for ever) and every read of the match
falls back to it (docs/archive.md); tickets expire on their own TTL.

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
- ``finishing:{<shard>}`` sorted sets, match id -> when its finishing move was
  about to be committed (epoch ms): the finish steps' outbox
  (service/play/finishing.py), written before that commit, cleared once the
  steps ran; the workers' sweep completes what a dead process left
- ``retention:{<shard>}`` sorted sets, ``<game>:<match id>`` -> when its keys
  expire (epoch ms), written when a match finishes: the workers' sweep
  (``prune_expired``) drops expired matches from the lobby indexes with it,
  so no index keeps finished matches for ever
"""

import zlib

STATUSES = ("waiting", "active", "finished")


def match_key(match_id: str) -> str:
    return f"match:{{{match_id}}}"


def events_key(match_id: str) -> str:
    return f"match:{{{match_id}}}:events"


def actions_key(match_id: str) -> str:
    return f"match:{{{match_id}}}:actions"


def record_key(match_id: str) -> str:
    return f"match:{{{match_id}}}:record"


def idems_key(match_id: str) -> str:
    return f"match:{{{match_id}}}:idems"


def live_channel(match_id: str) -> str:
    return f"match:{{{match_id}}}:live"


def ticket_key(match_id: str, ticket_hash: str) -> str:
    return f"match:{{{match_id}}}:ticket:{ticket_hash}"


def idem_key(match_id: str, token_hash: str, key_hash: str) -> str:
    return f"match:{{{match_id}}}:idem:{token_hash}:{key_hash}"


def lobby_key(status: str | None, game: str | None) -> str:
    return f"lobby:{status or '*'}:{game or '*'}"


def token_index_key(token_hash: str) -> str:
    return f"token:{{{token_hash}}}"


DEADLINE_SHARDS = 16


def deadline_shard_keys(shard: int) -> tuple[str, str]:
    """The sorted set and version hash of one shard of the index (one slot)."""
    return f"deadlines:{{{shard}}}", f"deadlines:{{{shard}}}:v"


def deadline_keys(match_id: str) -> tuple[str, str]:
    """The keys of ``match_id``'s shard."""
    return deadline_shard_keys(zlib.crc32(match_id.encode("utf-8")) % DEADLINE_SHARDS)


RETENTION_SHARDS = 16


def retention_shard_key(shard: int) -> str:
    return f"retention:{{{shard}}}"


def retention_key(match_id: str) -> str:
    """The retention index shard of ``match_id`` (one slot, like the deadlines')."""
    return retention_shard_key(zlib.crc32(match_id.encode("utf-8")) % RETENTION_SHARDS)


FINISHING_SHARDS = 16


def finishing_shard_key(shard: int) -> str:
    return f"finishing:{{{shard}}}"


def finishing_key(match_id: str) -> str:
    """The finish outbox shard of ``match_id`` (one slot, like the deadlines')."""
    return finishing_shard_key(zlib.crc32(match_id.encode("utf-8")) % FINISHING_SHARDS)
