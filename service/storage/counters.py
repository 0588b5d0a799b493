"""The rate-limit counters of ``Store`` (a mixin over its client and scripts).

Where a window is kept (service/storage/rate_limit.py decides which to count):
an address's and an account token's in their own slots; a seat token's with
its match (``ratelimit:requests:s:{<match id>}:<sha256>:<window>``), so that
a match route's first read and its count are one script on the match's node
(lua/count_seat.lua), on a cluster as on one Redis. Before, the token's
counter was in its own slot, and on a cluster that read reached two nodes.
"""

from typing import Any

from service.storage.accounts import pat_key
from service.storage.keys import match_key, token_index_key
from service.storage.records import StoredMatch
from service.storage.transport import Command


class RateCounters:
    _count_known: Any  # lua/count_known.lua, registered
    _count_seat: Any  # lua/count_seat.lua, registered

    def _scripted_round_trip(self, *commands: Command, retry: bool = True) -> list[Any]:
        raise NotImplementedError  # Store's

    def _load_fields(self, token_hash: str | None) -> list[str]:
        raise NotImplementedError  # Store's

    def _stored(self, match_id: str, token_hash: str | None, values: list[Any]) -> StoredMatch | None:
        raise NotImplementedError  # Store's

    def load_archived(self, match_id: str, token_hash: str | None = None) -> StoredMatch | None:
        raise NotImplementedError  # ArchivedReads'

    def _counter_commands(self, counter_key: str, ttl_s: int, known_token: str | None) -> list[Command]:
        if known_token is None:
            return [("INCR", counter_key), ("EXPIRE", counter_key, ttl_s, "NX")]
        index, pat = token_index_key(known_token), pat_key(known_token)
        return [("EVALSHA", self._count_known.sha, 3, index, counter_key, pat, ttl_s)]

    def count(self, counter_key: str, ttl_s: int) -> int:
        """INCR a rate-limit window (TTL set on first use); returns the count."""
        return int(self._scripted_round_trip(*self._counter_commands(counter_key, ttl_s, None))[0])

    def count_token(self, counter_key: str, ttl_s: int, token_hash: str) -> int | str | None:
        """Count in ``counter_key`` only if ``token_hash`` is a live account
        token's; returns the count, or the match id of a seat token (its
        window is kept with its match: ``count_seat``), None for an unknown one.
        """
        return _count(self._scripted_round_trip(*self._counter_commands(counter_key, ttl_s, token_hash)))

    def count_seat(self, match_id: str, token_hash: str, counter_key: str, ttl_s: int) -> int | None:
        """Count a seat token's request in ``counter_key`` (the match's hash
        tag) if the token holds a live seat of ``match_id``; else None."""
        count, _ = self._seat_script(match_id, token_hash, counter_key, ttl_s, [])
        return count

    def load_seat_counted(
        self, match_id: str, token_hash: str, counter_key: str, ttl_s: int
    ) -> tuple[StoredMatch | None, int | None]:
        """``(load(match_id, token_hash), count_seat(...))``: one script."""
        fields = self._load_fields(token_hash)
        count, values = self._seat_script(match_id, token_hash, counter_key, ttl_s, fields)
        stored = self._stored(match_id, token_hash, values) or self.load_archived(match_id, token_hash)
        return stored, count

    def _seat_script(
        self, match_id: str, token_hash: str, counter_key: str, ttl_s: int, fields: list[str]
    ) -> tuple[int | None, list[Any]]:
        command = ("EVALSHA", self._count_seat.sha, 2, match_key(match_id), counter_key)
        reply = self._scripted_round_trip((*command, f"tok:{token_hash}", ttl_s, *fields))[0]
        return (None if reply[0] == -1 else reply[0]), reply[1]

    def load_counted(
        self,
        match_id: str,
        token_hash: str | None,
        counter_key: str,
        counter_ttl_s: int,
        known_token: str | None = None,
    ) -> tuple[StoredMatch | None, int | str | None]:
        """``(load(match_id, token_hash), count(counter_key, ...))`` in one round trip.

        A pipeline, not one script, so the counter's slot and the match's may
        live on different cluster nodes (an address's or an account token's
        window; a seat token's is read with ``load_seat_counted``).
        """
        fields = self._load_fields(token_hash)
        replies = self._scripted_round_trip(
            *self._counter_commands(counter_key, counter_ttl_s, known_token),
            ("HMGET", match_key(match_id), *fields),
        )
        stored = self._stored(match_id, token_hash, replies[-1]) or self.load_archived(match_id, token_hash)
        return stored, _count(replies[:-1])


def _count(replies: list[Any]) -> int | str | None:
    """The count of ``_counter_commands``' replies (INCR's, or the script's:
    a seat token's match id as a string)."""
    reply = replies[0]
    if isinstance(reply, bytes):
        return reply.decode()
    return None if reply == -1 else reply
