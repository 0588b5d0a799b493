"""Following a match live: ``EventFollower``, what ``Client.events`` returns.

The stream (``GET /v1/matches/{id}/stream``, NDJSON) sends the current
``Match`` first (it has no ``seq``), then every ``Event`` after ``after`` in
``seq`` order, empty lines as keep-alives, and ends after a final ``Match``
once the match is over (or after the viewer's own resignation). Any other
end (a dropped connection, a read timeout, a ``too_far_behind`` line) is
answered by reconnecting with ``after=<last seq seen>``: the server resends
exactly what came after it, so nothing is skipped and nothing repeated.
Where the stream route is missing (404/405 while ``/events`` answers), the
follower polls ``GET /events?after=`` instead.
"""

import json
import time
from collections.abc import Generator, Iterator
from typing import Any, Literal, NamedTuple, Protocol, Self, TypeVar

import httpx

from .errors import MethodNotAllowed, NotFound
from .models import Event, EventList, Match

# Consecutive reconnects that bring nothing new before giving up.
MAX_FRUITLESS_RECONNECTS = 5

# What the follower yields: ``Event`` or, with ``matches=True``, ``StreamItem``.
ItemT = TypeVar("ItemT")


class Message(NamedTuple):
    """One message of a stream: its JSON ``data`` and, with SSE, the ``event``
    name and ``id`` fields (None in NDJSON, where the JSON says it all)."""

    data: Any
    event: str | None = None
    id: str | None = None


def read_messages(response: httpx.Response) -> Iterator[Message]:
    """The messages of one stream response, NDJSON (one JSON value a line) or
    SSE (``text/event-stream``: ``event:``, ``id:``, ``data:`` fields, a blank
    line ending each), told by its Content-Type; keep-alives (empty lines,
    SSE comments) skipped. The match stream and the account stream both read
    their connections through this one parser."""
    lines = response.iter_lines()
    if response.headers.get("Content-Type", "").startswith("text/event-stream"):
        yield from _sse_messages(lines)
        return
    for line in lines:
        if line.strip():
            yield Message(json.loads(line))


def _sse_messages(lines: Iterator[str]) -> Iterator[Message]:
    event: str | None = None
    event_id: str | None = None
    data: list[str] = []
    for line in lines:
        if not line:  # the blank line dispatching the message
            if data:
                yield Message(json.loads("\n".join(data)), event, event_id)
            event, event_id, data = None, None, []
            continue
        if line.startswith(":"):
            continue  # a comment: ": keep-alive"
        field, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        if field == "data":
            data.append(value)
        elif field == "event":
            event = value
        elif field == "id":
            event_id = value
    # A message not ended by its blank line was cut off: dropped, as SSE says.


class Reconnecting(Iterator[ItemT]):
    """What the match and account stream iterators share: items come from
    the generator ``_run`` (started by ``_start``), ``drop()`` closes the
    current connection as a network failure would (the iterator
    reconnects), ``close()`` stops; a context manager closes on exit."""

    _response: httpx.Response | None = None

    def _start(self) -> None:
        self._response = None
        self._items = self._run()

    def _run(self) -> Generator[ItemT, None, None]:
        raise NotImplementedError

    def __next__(self) -> ItemT:
        return next(self._items)

    def drop(self) -> None:
        """Close the current connection; the next item comes from a new one."""
        if self._response is not None:
            self._response.close()

    def close(self) -> None:
        """Stop following (also closes the connection)."""
        self._items.close()
        self.drop()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class EventSource(Protocol):
    """What the follower calls: the three requests of ``Client`` it needs
    (so this module does not import the client, which imports it)."""

    @property
    def timeout(self) -> float: ...

    def stream_response(self, match_id: str, *, after: int, timeout: httpx.Timeout) -> httpx.Response: ...

    def list_events(self, match_id: str, *, after: int, limit: int | None = None) -> EventList: ...

    def get_match(self, match_id: str) -> Match | None: ...


class EventFollower(Reconnecting[ItemT]):
    """Iterator over a match's events (``Event`` dicts), or, with
    ``matches=True``, over ``StreamItem``s tagging events and ``Match``
    snapshots (one per connection, and the final one).

    ``last_seq`` is the seq of the last event yielded; ``match`` the latest
    ``Match`` seen. ``drop()`` closes the current connection as a network
    failure would (the follower reconnects); ``close()`` stops following.
    """

    def __init__(
        self,
        client: EventSource,
        match_id: str,
        after: int = 0,
        matches: bool = False,
        read_timeout: float = 45.0,
        poll_interval: float = 1.0,
    ):
        self.client = client
        self.match_id = match_id
        self.last_seq = after
        self.match: Match | None = None
        self.matches = matches
        self.reconnects = 0
        self.polling = False
        # A read timeout well above the server's 15 s keep-alive: silence longer
        # than this means the connection is dead, so reconnect.
        self.timeout = httpx.Timeout(client.timeout, read=read_timeout)
        self.poll_interval = poll_interval
        self._start()

    # -- the two ways of following --

    def _run(self) -> Generator[Any, None, None]:
        fruitless = 0
        while True:
            seq_before = self.last_seq
            try:
                over = yield from self._follow_one_connection()
            except (NotFound, MethodNotAllowed):
                if not self._events_route_exists():
                    raise  # an unknown match, not a missing stream route
                self.polling = True
                yield from self._poll()
                return
            except (httpx.TransportError, httpx.StreamError):
                over = False  # dropped before or while reading: reconnect
            finally:
                self._response = None
            if over:
                return
            self.reconnects += 1
            fruitless = 0 if self.last_seq > seq_before else fruitless + 1
            if fruitless > MAX_FRUITLESS_RECONNECTS:
                raise ConnectionError(f"the event stream of {self.match_id} keeps failing")
            if fruitless > 1:  # a first reconnect is immediate; repeated ones back off
                time.sleep(min(0.25 * 2**fruitless, 10.0))

    def _follow_one_connection(self) -> Generator[Any, None, bool]:
        """Yield from one connection; return True if the server ended the
        stream on purpose (a final ``Match``), False if it broke off."""
        response = self.client.stream_response(self.match_id, after=self.last_seq, timeout=self.timeout)
        self._response = response
        try:
            last_kind = None
            for number, message in enumerate(read_messages(response)):
                item = message.data
                if "seq" in item:
                    if item["seq"] <= self.last_seq:
                        continue  # already yielded (never expected; cheap to guard)
                    if item["seq"] != self.last_seq + 1:
                        return False  # a gap: reconnect, the server fills it from last_seq
                    self.last_seq = item["seq"]
                    last_kind = "event"
                    yield self._tag("event", item)
                elif "error" in item:
                    return False  # too_far_behind: reconnect with last_seq
                else:
                    self.match = item
                    # The first line of every connection is a Match; only a
                    # later one is the server's "this stream is over".
                    last_kind = "final" if number > 0 else "first"
                    if self.matches:
                        yield self._tag("match", item)
            return last_kind == "final" or (last_kind == "first" and self._finished_and_caught_up())
        finally:
            response.close()

    def _finished_and_caught_up(self) -> bool:
        return (
            self.match is not None
            and self.match.get("status") == "finished"
            and not self.client.list_events(self.match_id, after=self.last_seq)["events"]
        )

    def _events_route_exists(self) -> bool:
        try:
            self.client.list_events(self.match_id, after=self.last_seq, limit=1)
        except (NotFound, MethodNotAllowed):
            return False
        return True

    def _poll(self) -> Iterator[Any]:
        """``GET /events?after=`` every ``poll_interval`` until the match is
        finished and every event up to its end is yielded."""
        while True:
            yield from self._drain_events()
            match = self.client.get_match(self.match_id)
            assert match is not None  # no If-None-Match sent, so never a 304
            if self.matches and (self.match is None or match["version"] != self.match["version"]):
                yield self._tag("match", match)
            self.match = match
            if match["status"] == "finished":
                yield from self._drain_events()  # what was committed before the end
                return
            time.sleep(self.poll_interval)

    def _drain_events(self) -> Iterator[Any]:
        while True:
            page = self.client.list_events(self.match_id, after=self.last_seq)
            for event in page["events"]:
                if event["seq"] > self.last_seq:
                    self.last_seq = event["seq"]
                    yield self._tag("event", event)
            if not page.get("more") or not page["events"]:
                return

    def _tag(self, kind: Literal["event", "match"], body: Event | Match) -> Any:
        if not self.matches:
            return body
        return {"kind": kind, "body": body}
