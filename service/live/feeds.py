"""What the hub holds: one open stream's queue (``Subscriber``), the local
streams of one match (``Feed``), one pub/sub connection (``Link``), and the
hand-out of a match's new events to its streams."""

import threading
from collections import deque
from typing import Any

from service.live.render import render_event

# --- one stream -------------------------------------------------------------

# Events one catch-up or fan-out read takes from a stream at most.
CATCH_UP_PAGE = 500


class Subscriber:
    """One open stream's queue, filled by the hub's listener."""

    __slots__ = ("cursor", "limit", "overflow", "queue", "sse", "viewer", "wake")

    def __init__(self, viewer: int | None, sse: bool, cursor: int, limit: int) -> None:
        self.viewer = viewer
        self.sse = sse
        self.cursor = cursor  # last seq handed to the client
        self.queue: deque = deque()
        self.wake = threading.Event()
        self.overflow = False
        self.limit = limit

    def push(self, item: tuple) -> None:
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

    def __init__(self, channel: bytes) -> None:
        self.channel = channel
        self.subscribers: set[Subscriber] = set()
        self.ready = threading.Event()
        self.last_seq: int | None = None  # last seq the listener read (None: not yet known)
        self.link: Link | None = None  # the Link its subscription was sent on; None: none holds it now
        self.dropped_by: str | None = None  # name of the server that last ended its subscription
        self.dropped_at = 0.0


class Link:
    """One pub/sub connection to one server, read by its own listener thread."""

    __slots__ = ("alive", "conn", "name", "send_lock")

    def __init__(self, name: str, conn: Any) -> None:
        self.name = name
        self.conn = conn
        self.alive = True
        self.send_lock = threading.Lock()

    def send(self, *args: Any) -> None:
        with self.send_lock:
            self.conn.send_command(*args)


def hand_out(subscribers: list[Subscriber], events: list[tuple[int, int, dict]], doc: dict | None) -> None:
    """Render each event once per (viewer, format) present and push it to
    every subscriber not past it; the end of a finished match after."""
    rendered: dict = {}
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
