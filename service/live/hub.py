"""Live event streams: ``GET /v1/matches/{id}/stream`` (SSE or NDJSON).

One ``Hub`` per process (per gunicorn worker) fans events out to the streams
open in it:

- ONE Redis pub/sub connection per process and server, subscribed
  (SSUBSCRIBE on Redis >= 7, else SUBSCRIBE) to ``match:{<id>}:live`` of
  each match with at least one local stream; the commit script
  (lua/commit.lua) publishes the new last seq there whenever it adds events.
  One server: standalone, or the current primary of a Sentinel service; on a
  Redis Cluster, one connection per primary that holds a watched match's
  slot (sharded pub/sub: a channel lives on its slot's shard). A keeper
  thread moves a channel whose subscription ended (a lost connection, the
  server's ``sunsubscribe``) or whose slot has another primary now to
  wherever it lives (the slot map read again, or Sentinel asked again), and
  reads at once the events it may have missed meanwhile (``Hub``).
- On notifications the listener reads the new events once per match
  (XRANGE, and the match's ``doc`` for its status, all notified matches in
  one pipelined round trip), renders each event once per (viewer, format)
  present, and appends the bytes to each local stream's queue. Streams hold
  no Redis connection; a catch-up read borrows one from the pool.
- A stream subscribes (and waits for the server's acknowledgement) before
  its catch-up read, so no event falls between the two; it drops what it
  already sent (a seq at or below its cursor) and fills a gap (a seq past
  cursor + 1, e.g. notifications lost while the pub/sub connection was
  down) with its own XRANGE: never a gap, never a duplicate.
- A stream whose queue passes ``STREAM_QUEUE_MAX`` (a client that does not
  read) is told ``too_far_behind`` and ended; it reconnects with the last id
  it saw and loses nothing.

Under gevent the listener is a greenlet and each stream a greenlet waiting on
its queue; under gthread they are threads (one per open stream).
"""

import contextlib
import logging
import os
import threading
import time
from typing import Any

import redis

from service.live.feeds import Feed, Link, Subscriber
from service.live.listener import Listening
from service.storage import redis_modes
from service.storage.keys import live_channel
from service.storage.transport import publish_command

log = logging.getLogger(__name__)

SUBSCRIBE_TIMEOUT_S = 5.0
# The keeper (Hub): on a cluster, how often it reads the slot map again to
# move subscriptions whose slot changed primary with no word to this process;
# how long a dropped channel waits for a slot map that no longer names the
# node that dropped it (then it is subscribed there anyway: a replica of the
# slot's primary still passes shard messages on); its retry pauses.
TOPOLOGY_CHECK_S = 2.0
STALE_MAP_S = 5.0
RETRY_FIRST_S = 0.05
RETRY_MAX_S = 2.0


class Hub(Listening):
    """The process's pub/sub connections and their fan-out to local streams.

    Where a channel is subscribed is kept right by one keeper thread per
    process: a feed whose subscription ended (the server's ``sunsubscribe``,
    a lost connection, a refused SSUBSCRIBE) or whose Link is no longer the
    server of its channel (on a cluster: not the primary of its slot in the
    slot map) is subscribed again where the channel lives now, and its
    events since the last one read are read at once (nothing published while
    it moved is missed). The keeper runs when a subscription ends, when the
    cluster client's slot map changes (a MOVED another request met), and
    every TOPOLOGY_CHECK_S on a cluster (it reads the slot map again): a
    graceful ``CLUSTER FAILOVER`` ends shard subscriptions on the old primary
    with a ``sunsubscribe`` that may come before any node tells the new slot
    map, or (seen on 7.0) not at all while the demoted node stops passing the
    channel's messages on.
    """

    def __init__(self, services: Any) -> None:
        self.services = services
        self._lock = threading.RLock()
        self._dispatch_lock = threading.Lock()
        self._feeds: dict[bytes, Feed] = {}  # channel -> Feed
        # (Link, channel) -> subscribe commands sent there not acknowledged yet
        self._pending: dict[tuple[Link, bytes], int] = {}
        self._links: dict[str, Link] = {}  # server name -> Link
        self._pid: int | None = None
        self._sharded: bool | None = None
        self._closed = False
        self._wake = threading.Event()
        self._refresh = False  # the keeper reads the slot map again first
        self._cluster = False
        self._keeper: threading.Thread | None = None

    def close(self) -> None:
        """Drop every pub/sub connection; the listeners end (Services.close)."""
        with self._lock:
            self._closed = True
            links, self._links = list(self._links.values()), {}
        self._wake.set()
        for link in links:
            link.alive = False
            with contextlib.suppress(Exception):
                link.conn.disconnect()

    # --- the connections -----------------------------------------------

    def _start(self) -> None:
        """Forget the parent's connections in a forked child (its own)."""
        if self._pid == os.getpid():
            return
        with self._lock:
            if self._pid == os.getpid():
                return
            self._feeds, self._pending, self._links = {}, {}, {}
            self._wake = threading.Event()
            self._sharded = publish_command(self.services.redis) == "SPUBLISH"
            self._cluster = redis_modes.is_cluster_client(self.services.redis)
            self._pid = os.getpid()
            keeper = self._keeper = threading.Thread(
                target=self._keep, name="tabula-live-keeper", daemon=True
            )
            redis_modes.watch_slot_map(self.services.redis, self._slot_map_changed)
            keeper.start()

    def _slot_map_changed(self) -> None:
        # The keeper's own refreshes wake nobody (it looks right after them).
        if threading.current_thread() is not self._keeper:
            self._wake.set()

    def _owner(self, channel: bytes) -> str:
        """The name of the server ``channel`` lives on now, as far as the
        client knows (no I/O)."""
        if self._cluster:
            return self.services.redis.get_node_from_key(channel).name
        return "primary"

    def _link_for(self, channel: bytes) -> Link:
        """The Link of the server that carries ``channel`` (opened and its
        listener started on first use); call with ``_lock`` held."""
        client = self.services.redis
        if not self._cluster and "primary" in self._links:
            return self._links["primary"]  # one server: no look-up (Sentinel would ask)
        name, kwargs = redis_modes.pubsub_address(client, channel)
        link = self._links.get(name)
        if link is None:
            link = self._links[name] = Link(name, self._connect(kwargs))
            threading.Thread(
                target=self._listen, args=(link,), name=f"tabula-live-{name}", daemon=True
            ).start()
        return link

    @staticmethod
    def _connect(kwargs: dict[str, Any]) -> redis.Connection:
        conn = redis.Connection(
            **{k: v for k, v in kwargs.items() if k in ("host", "port", "db", "username", "password")},
            socket_timeout=None,
            socket_connect_timeout=2.0,
            socket_keepalive=True,
            health_check_interval=0,
            protocol=2,
        )
        conn.connect()
        return conn

    @property
    def _sub_command(self) -> tuple[str, str]:
        return ("SSUBSCRIBE", "SUNSUBSCRIBE") if self._sharded else ("SUBSCRIBE", "UNSUBSCRIBE")

    def _subscribe(self, feed: Feed) -> None:
        """Send ``feed``'s subscription on its server's Link; ``_lock`` held."""
        link = self._link_for(feed.channel)
        key = (link, feed.channel)
        self._pending[key] = self._pending.get(key, 0) + 1
        feed.link = link
        link.send(self._sub_command[0], feed.channel)

    def _drop(self, feed: Feed, link: Link) -> None:
        """``link`` holds ``feed``'s subscription no more; the keeper moves it
        (``_lock`` held)."""
        if feed.link is link:
            feed.link, feed.dropped_by, feed.dropped_at = None, link.name, time.monotonic()
            self._refresh = True
            self._wake.set()

    # --- streams come and go -------------------------------------------

    def register(self, match_id: str, subscriber: Subscriber) -> Feed:
        """Add a stream; returns once the channel's subscription is
        acknowledged (so a catch-up read after it misses nothing)."""
        return self.register_channel(live_channel(match_id).encode(), subscriber)

    def register_channel(self, channel: bytes, subscriber: Subscriber) -> Feed:
        """``register`` on any live channel: a match's, or an account's
        (``account:{<aid>}:live``, whose notifications only wake its streams)."""
        self._start()
        with self._lock:
            feed = self._feeds.get(channel)
            if feed is None:
                feed = self._feeds[channel] = Feed(channel)
                try:
                    self._subscribe(feed)
                except Exception:
                    del self._feeds[channel]
                    raise
            feed.subscribers.add(subscriber)
        if not feed.ready.wait(SUBSCRIBE_TIMEOUT_S):
            self.unregister_channel(channel, subscriber)
            raise redis.TimeoutError("the live channel subscription was not acknowledged")
        return feed

    def unregister(self, match_id: str, subscriber: Subscriber) -> None:
        self.unregister_channel(live_channel(match_id).encode(), subscriber)

    def unregister_channel(self, channel: bytes, subscriber: Subscriber) -> None:
        with self._lock:
            feed = self._feeds.get(channel)
            if feed is None or subscriber not in feed.subscribers:
                return
            feed.subscribers.discard(subscriber)
            if not feed.subscribers:
                del self._feeds[channel]
                if feed.link is not None:
                    self._unsubscribe(feed.link, channel)

    def _unsubscribe(self, link: Link, channel: bytes) -> None:
        try:
            link.send(self._sub_command[1], channel)
        except (redis.RedisError, OSError):
            pass  # a broken link: its listener ends and the keeper moves what is left

    def note_seq(self, feed: Feed, seq: int) -> None:
        """A stream's catch-up reached ``seq``: the listener starts there."""
        with self._lock:
            if feed.last_seq is None:
                feed.last_seq = seq

    # --- the keeper ----------------------------------------------------

    def _keep(self) -> None:
        """Keep every feed subscribed where its channel lives (the class
        docstring says when this runs)."""
        retry_s = None  # set while some feed waits to be subscribed again
        last_check = time.monotonic()
        while not self._closed:
            self._wake.wait(retry_s or (TOPOLOGY_CHECK_S if self._cluster else None))
            self._wake.clear()
            if self._closed:
                return
            check = self._cluster and time.monotonic() - last_check >= TOPOLOGY_CHECK_S
            try:
                waiting = self._repair(refresh=self._refresh or check or retry_s is not None)
            except Exception:
                log.warning("live subscriptions not repaired; retrying", exc_info=True)
                waiting = True
            if check:
                last_check = time.monotonic()
            retry_s = min((retry_s or RETRY_FIRST_S) * 2, RETRY_MAX_S) if waiting else None

    def _repair(self, refresh: bool) -> bool:
        """Subscribe again where it lives now each feed whose Link is gone or
        is not its channel's server; read what they missed. True when some
        feed still waits (the slot map still names the server that dropped
        it, or its server did not answer)."""
        with self._lock:
            if refresh:
                self._refresh = False
            if not self._feeds:
                return False
        if refresh:
            redis_modes.refresh_topology(self.services.redis, reconnect=False)
        moved, waiting = [], False
        with self._lock:
            for feed in list(self._feeds.values()):
                if self._in_place(feed):
                    continue
                if (
                    feed.link is None
                    and feed.dropped_by == self._owner(feed.channel)
                    and time.monotonic() - feed.dropped_at < STALE_MAP_S
                ):
                    waiting = True  # the slot map is older than the node's word: read it again
                    continue
                try:
                    self._move(feed)
                except (redis.RedisError, OSError):
                    log.warning("live channel %s not subscribed again yet", feed.channel, exc_info=True)
                    waiting = True
                    continue
                moved.append(feed)
        if moved:
            self._fetch({feed.channel: None for feed in moved})
        return waiting

    def _in_place(self, feed: Feed) -> bool:
        link = feed.link
        return (
            link is not None and link.alive and (not self._cluster or self._owner(feed.channel) == link.name)
        )

    def _move(self, feed: Feed) -> None:
        """Subscribe ``feed`` on its channel's server now (``_lock`` held)."""
        old = feed.link
        if old is not None and old.alive:
            self._unsubscribe(old, feed.channel)  # its reply comes on ``old``: ignored there
        feed.link, feed.dropped_by = None, None
        self._subscribe(feed)


def hub_of(services: Any) -> Hub:
    hub = getattr(services, "live_hub", None)
    if hub is None:
        hub = services.live_hub = Hub(services)
    return hub
