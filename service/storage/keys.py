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
- ``deadlines:{<tag>}`` (+ ``:v``) the deadline index (service/play/deadlines.py,
  service/storage/deadline_index.py): match id -> due time, in
  ``DEADLINE_SHARDS`` sorted sets whose tags spread them evenly over the hash
  slots (``DEADLINE_TAGS``), so every node of a cluster holds some; a commit
  writes its match's entry in its own script, in a shard on its own node.
  ``deadlines:{0}`` to ``deadlines:{15}`` are the earlier layout's shards:
  read by the sweep, which moves each entry it visits to the new ones
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

from redis.crc import key_slot

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


DEADLINE_SHARDS = 64
SLOTS = 16384  # a Redis Cluster's hash slots


def _spread_tag(shard: int, shards: int) -> str:
    """The first tag ``"<shard>.<n>"`` whose slot lies in the ``shard``-th of
    ``shards`` equal ranges of the slots: a node serving a range of at least
    2 x SLOTS / shards slots serves one shard at least."""
    low, high = shard * SLOTS // shards, (shard + 1) * SLOTS // shards
    n = 0
    while not low <= key_slot(f"{shard}.{n}".encode()) < high:
        n += 1
    return f"{shard}.{n}"


# Shard i's hash tag (computed once: about 64 tries each).
DEADLINE_TAGS = tuple(_spread_tag(shard, DEADLINE_SHARDS) for shard in range(DEADLINE_SHARDS))
# The earlier layout's shards ``deadlines:{0}`` .. ``{15}`` (crc32 of the id).
LEGACY_DEADLINE_TAGS = tuple(str(shard) for shard in range(16))


def deadline_shard_keys(tag: str) -> tuple[str, str]:
    """The sorted set and version hash of the shard tagged ``tag`` (one slot)."""
    return f"deadlines:{{{tag}}}", f"deadlines:{{{tag}}}:v"


def deadline_shard_of(match_id: str, shards: tuple[int, ...] = tuple(range(DEADLINE_SHARDS))) -> int:
    """The shard of ``match_id`` among ``shards`` (by default all of them):
    the same one as long as ``shards`` is the same."""
    return shards[zlib.crc32(match_id.encode("utf-8")) % len(shards)]


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
