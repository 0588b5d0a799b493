"""One stream's response body (``StreamBody``: first Match, catch-up, live
events, keep-alives, the end) and the two operations of the streams' routes."""

import secrets
import time
from collections.abc import Generator, Iterator
from typing import Any, cast

import engine
from service.accounts import seats
from service.live.feeds import CATCH_UP_PAGE, Subscriber
from service.live.hub import hub_of
from service.live.render import keep_alive, render_error, render_event, render_match
from service.model.clock import iso_utc
from service.model.documents import match_body
from service.model.errors import not_found, unauthorized
from service.model.tokens import hash_token
from service.runtime.state_cache import engine_state

# --- the response body ------------------------------------------------------


class StreamBody:
    """The WSGI iterable of one stream: first Match, catch-up, live events,
    keep-alives, the end. ``close()`` (the server calls it when the client
    goes away or the stream ends) leaves the hub."""

    def __init__(
        self,
        services: Any,
        match_id: str,
        viewer: int | None,
        sse: bool,
        after: int,
        first_match: dict,
        finished: bool,
    ) -> None:
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

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self.hub.unregister(self.match_id, self.sub)

    def __iter__(self) -> Iterator[bytes]:
        try:
            yield from self._messages()
        finally:
            self.close()

    # -- pieces --

    def _read(self, after: int, upto: int | None = None) -> Iterator[tuple[int, bytes, str, int | None]]:
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

    def _resigned(self, etype: str, seat: int | None) -> bool:
        return etype == "player_resigned" and self.viewer is not None and seat == self.viewer

    def _final(self, resigned: bool = False) -> Iterator[bytes]:
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

    def _messages(self) -> Iterator[bytes]:
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
        yield from self._live()

    def _live(self) -> Iterator[bytes]:
        """Live events from the hub, keep-alives while none come. Once the
        match ends, wait up to STREAM_REMATCH_WAIT_S for a rematch to
        announce (``end_by``), then end."""
        sub = self.sub
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
            if (yield from self._deliver(*item)):
                return

    def _deliver(self, seq: int, data: bytes, etype: str, seat: int | None) -> Generator[bytes, None, bool]:
        """Send one live event, after any gap before it (read from the store);
        returns True when the stream ends with it."""
        sub = self.sub
        if seq <= sub.cursor:
            return False  # the catch-up already sent it
        if seq > sub.cursor + 1:  # a gap: read it
            for gseq, gdata, gtype, gseat in self._read(sub.cursor, seq - 1):
                sub.cursor = gseq
                yield gdata
                if self._resigned(gtype, gseat):
                    yield from self._final(resigned=True)
                    return True
        sub.cursor = seq
        yield data
        if self._resigned(etype, seat):
            yield from self._final(resigned=True)
            return True
        if etype == "rematch_created":
            yield from self._final()
            return True
        return False

    def _behind(self) -> dict[str, Any]:
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


def new_ticket(services: Any, match_id: str, token: str | None) -> dict[str, str]:
    """POST /v1/matches/{id}/stream-ticket -> ``{"ticket", "expires_at"}``."""
    seats.require_seat(services, match_id, token, seats.READ)
    token = cast(str, token)  # require_seat refused None
    ttl_s = int(services.config["STREAM_TICKET_TTL_S"])
    ticket = secrets.token_urlsafe(32)
    services.store.put_ticket(match_id, hash_token(ticket), hash_token(token), ttl_s)
    return {"ticket": ticket, "expires_at": iso_utc(int((time.time() + ttl_s) * 1000))}


def open_stream(
    services: Any, match_id: str, token: str | None, ticket: str | None, after: int | None, sse: bool
) -> StreamBody:
    """GET /v1/matches/{id}/stream -> a StreamBody (errors raised before any byte)."""
    store = services.store
    if ticket is not None:
        token_hash = store.take_ticket(match_id, hash_token(ticket))
        if token_hash is None:
            raise unauthorized("unknown, used or expired stream ticket")
        stored = store.load(match_id, token_hash)
        if stored is None:
            raise not_found("match", match_id=match_id)
        viewer = stored.token_seat
        if viewer is None:
            viewer = seats.seat_of_grant(services, stored.doc, token_hash)
        if viewer is None:
            raise unauthorized("the ticket's token was revoked")
    else:
        stored, viewer = seats.load_for_viewer(services, match_id, token)
    doc = stored.doc
    game = engine.get_game(doc["game"])
    first = match_body(game, doc, engine_state(services, game, stored), viewer)
    if after is None:
        after = doc.get("seq", 0)
    return StreamBody(services, match_id, viewer, sse, after, first, doc["status"] == "finished")
