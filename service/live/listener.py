"""The listening half of the live hub: one thread per pub/sub ``Link`` reads
its messages (notifications, subscription acknowledgements, the server's
own ``sunsubscribe``), then reads every notified match's new events once
through the store and hands them out to that match's streams."""

import contextlib
import logging
import threading
from typing import Any

import redis

from service.live.feeds import CATCH_UP_PAGE, Feed, Link, hand_out

log = logging.getLogger(__name__)

# The prefix of an account's live channel (service/storage/accounts.account_live_channel).
ACCOUNT_CHANNEL = b"account:"


class Listening:
    """``Hub``'s listeners, a mixin over the hub's state: ``services``,
    ``_lock``, ``_dispatch_lock``, ``_feeds``, ``_pending``, ``_links``,
    ``_closed`` and ``_drop`` (the keeper's hand-over)."""

    services: Any
    _lock: threading.RLock
    _dispatch_lock: threading.Lock
    _feeds: dict[bytes, Feed]
    _pending: dict[tuple[Link, bytes], int]
    _links: dict[str, Link]
    _closed: bool

    def _drop(self, feed: Feed, link: Link) -> None:
        raise NotImplementedError  # the hub's

    def _listen(self, link: Link) -> None:
        """Read ``link`` until it fails; its feeds go to the keeper."""
        try:
            self._read_loop(link)
        except Exception:
            if not self._closed:
                log.warning("live pub/sub connection to %s lost", link.name, exc_info=True)
        link.alive = False
        with contextlib.suppress(Exception):  # the socket is gone anyway
            link.conn.disconnect()
        with self._lock:
            if self._links.get(link.name) is link:
                del self._links[link.name]
            for key in [key for key in self._pending if key[0] is link]:
                del self._pending[key]  # its acknowledgements never come
            for feed in self._feeds.values():
                self._drop(feed, link)

    def _read_loop(self, link: Link) -> None:
        conn = link.conn
        while link.alive:
            notified: dict = {}
            self._read_one(link, notified)
            # Drain what is already here, then read all of it in one round trip.
            while conn.can_read(timeout=0):
                self._read_one(link, notified)
            if notified:
                self._fetch(notified)

    def _read_one(self, link: Link, notified: dict[bytes, int | None]) -> None:
        try:
            message = link.conn.read_response(push_request=True)
        except redis.ResponseError:
            # A refused subscription (MOVED: the node serves the slot no
            # more). The reply names no channel: every one still waiting
            # for its acknowledgement here goes to the keeper.
            log.info("live subscription refused by %s", link.name, exc_info=True)
            with self._lock:
                for key in [key for key in self._pending if key[0] is link]:
                    del self._pending[key]
                    feed = self._feeds.get(key[1])
                    if feed is not None:
                        self._drop(feed, link)
            return
        self._handle(link, message, notified)

    def _handle(self, link: Link, message: Any, notified: dict[bytes, int | None]) -> None:
        if not isinstance(message, list) or len(message) < 3:
            return
        kind, channel = message[0], message[1]
        if kind == b"sunsubscribe":
            # Ours come only after the channel's feed is gone or moved (or
            # while a new subscription of it is pending here): one for a
            # feed held here with nothing pending is the server's own (the
            # slot left this node: a failover or a resharding).
            with self._lock:
                feed = self._feeds.get(channel)
                if feed is not None and not self._pending.get((link, channel)):
                    self._drop(feed, link)
            return
        if kind in (b"message", b"smessage"):
            if channel.startswith(ACCOUNT_CHANNEL):
                notified[channel] = None  # an entry id: the account's streams read it
                return
            try:
                seq = int(message[2])
            except ValueError:
                return
            notified[channel] = max(seq, notified.get(channel) or 0)
        elif kind in (b"subscribe", b"ssubscribe"):
            # Acknowledged once every SUBSCRIBE sent here for the channel is
            # (an older one may have been followed by an UNSUBSCRIBE).
            key = (link, channel)
            with self._lock:
                pending = self._pending.get(key, 1) - 1
                if pending > 0:
                    self._pending[key] = pending
                    return
                self._pending.pop(key, None)
                feed = self._feeds.get(channel)
                if feed is not None and feed.link is link:
                    feed.ready.set()

    def _fetch(self, notified: dict[bytes, int | None]) -> None:
        """Read the new events of every notified match once; hand them out.
        An account's streams are woken: each reads its account's log itself."""
        with self._lock:
            work = []
            for channel, seq in notified.items():
                feed = self._feeds.get(channel)
                if feed is None or not feed.subscribers:
                    continue
                if channel.startswith(ACCOUNT_CHANNEL):
                    for sub in feed.subscribers:
                        sub.wake.set()
                    continue
                start = feed.last_seq
                if start is None:
                    start = min(s.cursor for s in feed.subscribers)
                if seq is not None and seq <= start:
                    continue
                work.append((feed, start))
        if not work:
            return
        reads = self.services.store.read_new_events(
            [(_match_id(feed.channel), start) for feed, start in work], CATCH_UP_PAGE
        )
        for (feed, _start), (events, doc) in zip(work, reads, strict=True):
            self._dispatch(feed, events, doc)

    def _dispatch(self, feed: Feed, events: list[tuple[int, int, dict]], doc: dict | None) -> None:
        # Two reads of one match may overlap (a notification's, and the
        # keeper's after a move, both from the same last_seq): each event is
        # handed out once, in order, by whichever comes first.
        with self._dispatch_lock:
            with self._lock:
                done = feed.last_seq or 0
                events = [event for event in events if event[0] > done]
                if events:
                    feed.last_seq = events[-1][0]
                subscribers = list(feed.subscribers)
            hand_out(subscribers, events, doc)


def _match_id(channel: bytes) -> str:
    # b"match:{<id>}:live"
    text = channel.decode()
    return text[text.index("{") + 1 : text.rindex("}")]
