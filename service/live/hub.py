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
import secrets
import threading
import time
from collections import deque

import orjson
import redis

import engine
from service.model.documents import iso_utc, match_body, public_event
from service.model.errors import not_found, unauthorized
from service.model.tokens import hash_token, load_for_viewer, require_seat
from service.runtime.state_cache import engine_state
from service.storage.store import (
    events_key,
    live_channel,
    match_key,
    parse_events,
    publish_command,
    redis_modes,
)

log = logging.getLogger(__name__)

CATCH_UP_PAGE = 500
SUBSCRIBE_TIMEOUT_S = 5.0
RETRY_MS = 2000  # SSE `retry:` sent with the first message
# The keeper (Hub): on a cluster, how often it reads the slot map again to
# move subscriptions whose slot changed primary with no word to this process;
# how long a dropped channel waits for a slot map that no longer names the
# node that dropped it (then it is subscribed there anyway: a replica of the
# slot's primary still passes shard messages on); its retry pauses.
TOPOLOGY_CHECK_S = 2.0
STALE_MAP_S = 5.0
RETRY_FIRST_S = 0.05
RETRY_MAX_S = 2.0


# --- rendering --------------------------------------------------------------


def render_event(seq, version, event, viewer, sse):
    body = public_event(seq, version, event, viewer)
    data = orjson.dumps(body)
    if sse:
        return b"id: %d\nevent: %s\ndata: %s\n\n" % (seq, body["type"].encode(), data)
    return data + b"\n"


def render_match(match, sse, first=False):
    data = orjson.dumps(match)
    if sse:
        return (b"retry: %d\n" % RETRY_MS if first else b"") + b"event: match\ndata: " + data + b"\n\n"
    return data + b"\n"


def render_error(document, sse):
    data = orjson.dumps(document)
    return b"event: error\ndata: " + data + b"\n\n" if sse else data + b"\n"


def keep_alive(sse):
    return b": keep-alive\n\n" if sse else b"\n"


# --- one stream -------------------------------------------------------------


class Subscriber:
    """One open stream's queue, filled by the hub's listener."""

    __slots__ = ("cursor", "limit", "overflow", "queue", "sse", "viewer", "wake")

    def __init__(self, viewer, sse, cursor, limit):
        self.viewer = viewer
        self.sse = sse
        self.cursor = cursor  # last seq handed to the client
        self.queue = deque()
        self.wake = threading.Event()
        self.overflow = False
        self.limit = limit

    def push(self, item):
        if self.overflow:
            return
        if len(self.queue) >= self.limit:
            self.overflow = True
        else:
            self.queue.append(item)
        self.wake.set()


class Feed:
    """The local streams of one match."""

    __slots__ = ("channel", "dropped_at", "dropped_by", "last_seq", "link", "ready", "subscribers")

    def __init__(self, channel):
        self.channel = channel
        self.subscribers = set()
        self.ready = threading.Event()
        self.last_seq = None  # last seq the listener read (None: not yet known)
        self.link = None  # the Link its subscription was sent on; None: none holds it now
        self.dropped_by = None  # name of the server that last ended its subscription
        self.dropped_at = 0.0


class Link:
    """One pub/sub connection to one server, read by its own listener thread."""

    __slots__ = ("alive", "conn", "name", "send_lock")

    def __init__(self, name, conn):
        self.name = name
        self.conn = conn
        self.alive = True
        self.send_lock = threading.Lock()

    def send(self, *args):
        with self.send_lock:
            self.conn.send_command(*args)


class Hub:
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

    def __init__(self, services):
        self.services = services
        self._lock = threading.RLock()
        self._dispatch_lock = threading.Lock()
        self._feeds = {}  # channel -> Feed
        self._pending = {}  # (Link, channel) -> subscribe commands sent there not acknowledged yet
        self._links = {}  # server name -> Link
        self._pid = None
        self._sharded = None
        self._closed = False
        self._wake = threading.Event()
        self._refresh = False  # the keeper reads the slot map again first
        self._cluster = False
        self._keeper = None

    def close(self):
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

    def _start(self):
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
            self._keeper = threading.Thread(target=self._keep, name="tabula-live-keeper", daemon=True)
            redis_modes.watch_slot_map(self.services.redis, self._slot_map_changed)
            self._keeper.start()

    def _slot_map_changed(self):
        # The keeper's own refreshes wake nobody (it looks right after them).
        if threading.current_thread() is not self._keeper:
            self._wake.set()

    def _owner(self, channel):
        """The name of the server ``channel`` lives on now, as far as the
        client knows (no I/O)."""
        if self._cluster:
            return self.services.redis.get_node_from_key(channel).name
        return "primary"

    def _link_for(self, channel):
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
    def _connect(kwargs):
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
    def _sub_command(self):
        return ("SSUBSCRIBE", "SUNSUBSCRIBE") if self._sharded else ("SUBSCRIBE", "UNSUBSCRIBE")

    def _subscribe(self, feed):
        """Send ``feed``'s subscription on its server's Link; ``_lock`` held."""
        link = self._link_for(feed.channel)
        key = (link, feed.channel)
        self._pending[key] = self._pending.get(key, 0) + 1
        feed.link = link
        link.send(self._sub_command[0], feed.channel)

    def _drop(self, feed, link):
        """``link`` holds ``feed``'s subscription no more; the keeper moves it
        (``_lock`` held)."""
        if feed.link is link:
            feed.link, feed.dropped_by, feed.dropped_at = None, link.name, time.monotonic()
            self._refresh = True
            self._wake.set()

    # --- streams come and go -------------------------------------------

    def register(self, match_id, subscriber):
        """Add a stream; returns once the channel's subscription is
        acknowledged (so a catch-up read after it misses nothing)."""
        self._start()
        channel = live_channel(match_id).encode()
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
            self.unregister(match_id, subscriber)
            raise redis.TimeoutError("the live channel subscription was not acknowledged")
        return feed

    def unregister(self, match_id, subscriber):
        channel = live_channel(match_id).encode()
        with self._lock:
            feed = self._feeds.get(channel)
            if feed is None or subscriber not in feed.subscribers:
                return
            feed.subscribers.discard(subscriber)
            if not feed.subscribers:
                del self._feeds[channel]
                if feed.link is not None:
                    self._unsubscribe(feed.link, channel)

    def _unsubscribe(self, link, channel):
        try:
            link.send(self._sub_command[1], channel)
        except (redis.RedisError, OSError):
            pass  # a broken link: its listener ends and the keeper moves what is left

    def note_seq(self, feed, seq):
        """A stream's catch-up reached ``seq``: the listener starts there."""
        with self._lock:
            if feed.last_seq is None:
                feed.last_seq = seq

    # --- the keeper ----------------------------------------------------

    def _keep(self):
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

    def _repair(self, refresh):
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

    def _in_place(self, feed):
        link = feed.link
        return (
            link is not None and link.alive and (not self._cluster or self._owner(feed.channel) == link.name)
        )

    def _move(self, feed):
        """Subscribe ``feed`` on its channel's server now (``_lock`` held)."""
        old = feed.link
        if old is not None and old.alive:
            self._unsubscribe(old, feed.channel)  # its reply comes on ``old``: ignored there
        feed.link, feed.dropped_by = None, None
        self._subscribe(feed)

    # --- the listeners -------------------------------------------------

    def _listen(self, link):
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

    def _read_loop(self, link):
        conn = link.conn
        while link.alive:
            notified = {}
            self._read_one(link, notified)
            # Drain what is already here, then read all of it in one round trip.
            while conn.can_read(timeout=0):
                self._read_one(link, notified)
            if notified:
                self._fetch(notified)

    def _read_one(self, link, notified):
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

    def _handle(self, link, message, notified):
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

    def _fetch(self, notified):
        """Read the new events of every notified match once; hand them out."""
        with self._lock:
            work = []
            for channel, seq in notified.items():
                feed = self._feeds.get(channel)
                if feed is None or not feed.subscribers:
                    continue
                start = feed.last_seq
                if start is None:
                    start = min(s.cursor for s in feed.subscribers)
                if seq is not None and seq <= start:
                    continue
                work.append((feed, start))
        if not work:
            return
        pipe = self.services.redis.pipeline(transaction=False)
        for feed, start in work:
            match_id = _match_id(feed.channel)
            pipe.xrange(events_key(match_id), min=f"0-{start + 1}", max="+", count=CATCH_UP_PAGE)
            pipe.hget(match_key(match_id), "doc")
        replies = pipe.execute()
        for index, (feed, _start) in enumerate(work):
            entries, raw_doc = replies[2 * index], replies[2 * index + 1]
            doc = orjson.loads(raw_doc) if raw_doc else None
            self._dispatch(feed, parse_events(entries), doc)

    def _dispatch(self, feed, events, doc):
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
            self._hand_out(subscribers, events, doc)

    @staticmethod
    def _hand_out(subscribers, events, doc):
        rendered = {}
        for seq, version, event in events:
            rendered.clear()
            for sub in subscribers:
                if seq <= sub.cursor:
                    continue
                key = (sub.viewer, sub.sse)
                data = rendered.get(key)
                if data is None:
                    data = rendered[key] = render_event(seq, version, event, sub.viewer, sub.sse)
                sub.push((seq, data, event["type"], event.get("seat")))
        if doc is not None and doc.get("status") == "finished":
            for sub in subscribers:
                sub.push(("end", doc.get("seq", 0)))


def _match_id(channel):
    # b"match:{<id>}:live"
    text = channel.decode()
    return text[text.index("{") + 1 : text.rindex("}")]


def hub_of(services):
    hub = getattr(services, "live_hub", None)
    if hub is None:
        hub = services.live_hub = Hub(services)
    return hub


# --- the response body ------------------------------------------------------


class StreamBody:
    """The WSGI iterable of one stream: first Match, catch-up, live events,
    keep-alives, the end. ``close()`` (the server calls it when the client
    goes away or the stream ends) leaves the hub."""

    def __init__(self, services, match_id, viewer, sse, after, first_match, finished):
        config = services.config
        self.services = services
        self.hub = hub_of(services)
        self.match_id = match_id
        self.viewer = viewer
        self.sse = sse
        self.first_match = first_match
        self.finished = finished
        self.keepalive_s = float(config["STREAM_KEEPALIVE_S"])
        self.rematch_wait_s = float(config["STREAM_REMATCH_WAIT_S"])
        self.sub = Subscriber(viewer, sse, after, int(config["STREAM_QUEUE_MAX"]))
        self.feed = self.hub.register(match_id, self.sub)
        self._closed = False

    def close(self):
        if not self._closed:
            self._closed = True
            self.hub.unregister(self.match_id, self.sub)

    def __iter__(self):
        try:
            yield from self._messages()
        finally:
            self.close()

    # -- pieces --

    def _read(self, after, upto=None):
        """Stored events after ``after`` (up to ``upto``), rendered for this
        viewer: ``[(seq, bytes, type, seat)]``, in pages."""
        store = self.services.store
        while True:
            count = CATCH_UP_PAGE if upto is None else min(CATCH_UP_PAGE, upto - after)
            if count <= 0:
                return
            entries = store.read_events(self.match_id, after, count)
            for seq, version, event in entries:
                yield (
                    seq,
                    render_event(seq, version, event, self.viewer, self.sse),
                    event["type"],
                    event.get("seat"),
                )
                after = seq
            if len(entries) < count:
                return

    def _resigned(self, etype, seat):
        return etype == "player_resigned" and self.viewer is not None and seat == self.viewer

    def _final(self, resigned=False):
        """Events committed up to now (none after the viewer's resignation),
        then the final Match (for a resigned viewer: the spectator's, as the
        resign answer)."""
        store = self.services.store
        if not resigned:
            for seq, data, etype, seat in self._read(self.sub.cursor):
                self.sub.cursor = seq
                yield data
                if self._resigned(etype, seat):
                    break
        stored = store.load(self.match_id)
        if stored is None:
            return
        doc = stored.doc
        game = engine.get_game(doc["game"])
        viewer = self.viewer
        if viewer is not None and doc["seats"][viewer].get("resigned"):
            viewer = None
        state = engine_state(self.services, game, stored)
        yield render_match(match_body(game, doc, state, viewer), self.sse)

    def _messages(self):
        sub = self.sub
        yield render_match(self.first_match, self.sse, first=True)
        # Catch-up: everything after the client's position.
        for seq, data, etype, seat in self._read(sub.cursor):
            sub.cursor = seq
            yield data
            if self._resigned(etype, seat):
                yield from self._final(resigned=True)
                return
        self.hub.note_seq(self.feed, sub.cursor)
        if self.finished:
            yield from self._final()
            return
        # Live. Once the match ends, wait up to STREAM_REMATCH_WAIT_S for a
        # rematch to announce (``end_by``), then end.
        end_by = None
        while True:
            if sub.overflow:
                yield render_error(self._behind(), self.sse)
                return
            if not sub.queue:
                sub.wake.clear()
                if not sub.queue and not sub.overflow:
                    wait = self.keepalive_s
                    if end_by is not None:
                        wait = min(wait, end_by - time.monotonic())
                        if wait <= 0:
                            yield from self._final()
                            return
                    if not sub.wake.wait(wait) and wait == self.keepalive_s:
                        yield keep_alive(self.sse)
                    continue
            item = sub.queue.popleft()
            if item[0] == "end":
                if self.rematch_wait_s <= 0:
                    yield from self._final()
                    return
                end_by = end_by or time.monotonic() + self.rematch_wait_s
                continue
            seq, data, etype, seat = item
            if seq <= sub.cursor:
                continue  # the catch-up already sent it
            if seq > sub.cursor + 1:  # a gap: read it
                for gseq, gdata, gtype, gseat in self._read(sub.cursor, seq - 1):
                    sub.cursor = gseq
                    yield gdata
                    if self._resigned(gtype, gseat):
                        yield from self._final(resigned=True)
                        return
            sub.cursor = seq
            yield data
            if self._resigned(etype, seat):
                yield from self._final(resigned=True)
                return
            if etype == "rematch_created":
                yield from self._final()
                return

    def _behind(self):
        return {
            "error": "too_far_behind",
            "message": (
                f"this stream fell more than {self.sub.limit} events behind; "
                f"reconnect with Last-Event-ID: {self.sub.cursor} (or ?after=) "
                "to resume without losing any"
            ),
            "details": {"last_seq": self.sub.cursor, "max_queue": self.sub.limit},
        }


# --- operations -------------------------------------------------------------


def new_ticket(services, match_id, token):
    """POST /v1/matches/{id}/stream-ticket -> ``{"ticket", "expires_at"}``."""
    require_seat(services.store, match_id, token)
    ttl_s = int(services.config["STREAM_TICKET_TTL_S"])
    ticket = secrets.token_urlsafe(32)
    services.store.put_ticket(match_id, hash_token(ticket), hash_token(token), ttl_s)
    return {"ticket": ticket, "expires_at": iso_utc(int((time.time() + ttl_s) * 1000))}


def open_stream(services, match_id, token, ticket, after, sse):
    """GET /v1/matches/{id}/stream -> a StreamBody (errors raised before any byte)."""
    store = services.store
    if ticket is not None:
        token_hash = store.take_ticket(match_id, hash_token(ticket))
        if token_hash is None:
            raise unauthorized("unknown, used or expired stream ticket")
        stored = store.load(match_id, token_hash)
        if stored is None:
            raise not_found("match", match_id=match_id)
        if stored.token_seat is None:
            raise unauthorized("the ticket's token was revoked")
        viewer = stored.token_seat
    else:
        stored, viewer = load_for_viewer(store, match_id, token)
    doc = stored.doc
    game = engine.get_game(doc["game"])
    first = match_body(game, doc, engine_state(services, game, stored), viewer)
    if after is None:
        after = doc.get("seq", 0)
    return StreamBody(services, match_id, viewer, sse, after, first, doc["status"] == "finished")
