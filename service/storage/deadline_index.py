"""The deadline index's keys and writes (the policy is service/play/deadlines.py).

The index is ``DEADLINE_SHARDS`` sorted sets (keys.py: match id -> due
time, epoch ms) with a version hash each, so that the newest version of a
match wins a race for its entry (deadline.lua). The sweep reads every shard.

Where a match's entry goes. A commit that gives its match an earlier due
time writes the entry *in the commit script itself* (commit.lua), so it
costs no round trip of its own and is written exactly when the commit is:

- standalone or Sentinel: shard ``deadline_shard_of(match id)``; a script
  on one server may touch any key;
- Redis Cluster: a shard on the match's own node, chosen among the shards
  whose slots that node serves (``keys.DEADLINE_TAGS`` spreads them evenly
  over the slots, so every node serving 512 slots or more has one), by the
  same hash of the id. The script carries Redis 7's
  ``allow-cross-slot-keys`` flag, which lets it touch keys of the other
  slots of its node (never another node's). It reads the shard's version
  hash before it writes anything: a shard that is not on that node (a slot
  map out of date: a failover or a resharding moved it) fails the script
  there, with nothing written, and the commit is sent again after the map
  is read again (``Store.commit``).

A node that serves no shard (more than about 32 nodes, or an uneven slot
split) gets the earlier way: the entry's own script, to its shard's node,
in a round trip *before* the commit (an early entry only costs the sweep
a look; a late one would lose a turn timer).

Entries may therefore sit in more than one shard for a while (the slot map
moved, or the earlier layout's shards ``deadlines:{0..15}``): the sweep
visits each one it finds due and moves it to the match's current shard
(``set_deadline(..., found=...)``), so every one of them stays early, never
late.
"""

from typing import Any

from service.storage import redis_modes
from service.storage.keys import (
    DEADLINE_TAGS,
    LEGACY_DEADLINE_TAGS,
    deadline_shard_keys,
    deadline_shard_of,
    match_key,
)
from service.storage.transport import Command

# A deadline index write: ``(version, due ms)`` (due None: clear the entry).
Deadline = tuple[int, int | None]
# The flag that lets the commit script write a shard in another slot of its node.
CROSS_SLOT_SHEBANG = "#!lua flags=allow-cross-slot-keys\n"
# Redis's refusal of a script that touched a key of another node.
NON_LOCAL_KEY = "non local key"


class DeadlineIndex:
    """The deadline index methods of ``Store`` (a mixin over its client)."""

    redis: Any
    _deadline: Any  # deadline.lua, registered
    _local_shards: dict[str, tuple[int, ...]] | None

    def _scripted_round_trip(self, *commands: Command, retry: bool = True) -> list[Any]:
        raise NotImplementedError  # Store's

    def forget_slot_map(self) -> None:
        """The slot map changed: which shards each node serves is worked out again."""
        self._local_shards = None

    def deadline_shard(self, match_id: str) -> tuple[str, bool]:
        """``(tag, in the commit script)`` of the shard ``match_id``'s entry goes
        to: on a cluster one on its node when there is one (else any, written
        before the commit: ``in the commit script`` False)."""
        if not redis_modes.is_cluster_client(self.redis):
            return DEADLINE_TAGS[deadline_shard_of(match_id)], True
        if self._local_shards is None:
            by_node: dict[str, list[int]] = {}
            for shard, tag in enumerate(DEADLINE_TAGS):
                node = redis_modes.node_name(self.redis, deadline_shard_keys(tag)[0])
                by_node.setdefault(node, []).append(shard)
            self._local_shards = {node: tuple(shards) for node, shards in by_node.items()}
        local = self._local_shards.get(redis_modes.node_name(self.redis, match_key(match_id)))
        if not local:
            return DEADLINE_TAGS[deadline_shard_of(match_id)], False
        return DEADLINE_TAGS[deadline_shard_of(match_id, local)], True

    @staticmethod
    def commit_deadline_args(tag: str | None, match_id: str, deadline: Deadline | None) -> list[Any]:
        """commit.lua's first ARGV: the shard's sorted set and version hash, the
        match id, the version and the due time ('' = clear); '' x 5 for none."""
        if tag is None or deadline is None:
            return ["", "", "", "", ""]
        version, due = deadline
        return [*deadline_shard_keys(tag), match_id, version, "" if due is None else int(due)]

    def _deadline_command(self, tag: str, match_id: str, version: int, due_ms: int | None) -> Command:
        return (
            "EVALSHA",
            self._deadline.sha,
            2,
            *deadline_shard_keys(tag),
            match_id,
            version,
            "" if due_ms is None else int(due_ms),
        )

    def set_deadline(self, match_id: str, version: int, due_ms: int | None, found: str | None = None) -> bool:
        """Write (``due_ms`` None: clear) a match's entry in its shard unless a
        newer version wrote it; True when written. ``found``: the tag of the
        shard the sweep found the entry in; when it is another, that entry
        goes (unless a newer version wrote it there)."""
        tag = self.deadline_shard(match_id)[0]
        written = self._scripted_round_trip(self._deadline_command(tag, match_id, version, due_ms))[0] == 1
        if found is not None and found != tag:
            self._scripted_round_trip(self._deadline_command(found, match_id, version, None))
        return written

    def due_entries(self, now_ms: int, limit: int) -> list[tuple[str, str]]:
        """``(match id, shard tag)`` of the entries due by ``now_ms``, earliest
        first per shard, at most ``limit`` per shard (one round trip per node)."""
        tags = DEADLINE_TAGS + LEGACY_DEADLINE_TAGS
        pipe = self.redis.pipeline(transaction=False)
        for tag in tags:
            pipe.zrangebyscore(deadline_shard_keys(tag)[0], "-inf", now_ms, start=0, num=limit)
        return [(raw.decode(), tag) for tag, ids in zip(tags, pipe.execute(), strict=True) for raw in ids]

    def due_matches(self, now_ms: int, limit: int) -> list[str]:
        """Ids of the matches with an entry due by ``now_ms`` (``due_entries``), each once."""
        return list(dict.fromkeys(match_id for match_id, _ in self.due_entries(now_ms, limit)))
