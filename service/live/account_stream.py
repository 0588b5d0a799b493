"""``GET /v1/account/stream``: one stream of every event of an account.

First one ``your_turn`` per active match where the account is to act now
(``"id": null``; in SSE no ``id:`` line), then every logged event after
``Last-Event-ID`` (a Redis stream entry id of ``account:{<aid>}:events``;
without one: none, the stream starts now), then each new one as it is
appended, with the match stream's keep-alives. A message is
``{"id", "type", "match_id", "data"}``; SSE: ``id: <entry id>``,
``event: <type>``, ``data: <the same JSON>``.

Served as match streams are: the process's hub subscribes once to the
account's shard channel ``account:{<aid>}:live`` (service/live/hub.py) and
wakes the account's local streams; each reads the log after its cursor
(XRANGE on a pooled connection). The stream subscribes before its first
read, so nothing appended meanwhile is missed; it reads after its cursor,
so nothing is sent twice.

An open stream keeps its account's seeks alive: it renews them when it
opens and once per keep-alive interval after that, busy or idle
(docs/matchmaking.md).

An open stream outlives no token: at each keep-alive it checks that the
token it was opened with (directly or through a ticket) is still live, and
ends once it is revoked or expired (within ``STREAM_KEEPALIVE_S``).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import orjson

from service.accounts.auth import live_principal
from service.accounts.history import all_docs, is_to_act
from service.accounts.match_events import your_turn_data
from service.accounts.seats import account_seat
from service.live.feeds import CATCH_UP_PAGE, Subscriber
from service.live.hub import hub_of
from service.live.render import keep_alive
from service.storage.accounts import account_live_channel, last_account_event_id, read_account_events
from service.storage.meet import renew_seeks

if TYPE_CHECKING:
    from service.accounts.auth import Principal
    from service.runtime.services import Services


def render_account_message(message: dict[str, Any], sse: bool) -> bytes:
    """One message as an NDJSON line or an SSE event."""
    data = orjson.dumps(message)
    if not sse:
        return data + b"\n"
    head = b"" if message["id"] is None else b"id: %s\n" % message["id"].encode()
    return head + b"event: %s\ndata: %s\n\n" % (message["type"].encode(), data)


def logged_message(entry: dict[str, Any]) -> dict[str, Any]:
    """A logged event as a message: its ``match_id`` taken out of ``data``."""
    data = dict(entry["data"])
    match_id = data.pop("match_id", None)
    return {"id": entry["id"], "type": entry["type"], "match_id": match_id, "data": data}


def to_act_messages(services: Services, aid: str) -> list[dict[str, Any]]:
    """One ``your_turn`` (``"id": null``) per active match where the account is to act now."""
    messages = []
    for doc in all_docs(services, aid):
        seat = account_seat(doc, aid)
        if seat is not None and is_to_act(doc, aid):
            messages.append(
                {"id": None, "type": "your_turn", "match_id": doc["id"], "data": your_turn_data(doc, seat)}
            )
    return messages


class AccountStreamBody:
    """The WSGI iterable of one account stream; ``close()`` leaves the hub."""

    def __init__(self, services: Services, principal: Principal, sse: bool, after: str | None) -> None:
        self.services = services
        self.aid = aid = principal.aid
        self.token_hash = principal.token_hash
        self.sse = sse
        self.keepalive_s = float(services.config["STREAM_KEEPALIVE_S"])
        self.hub = hub_of(services)
        self.channel = account_live_channel(aid).encode()
        self.sub = Subscriber(None, sse, 0, int(services.config["STREAM_QUEUE_MAX"]))
        self.hub.register_channel(self.channel, self.sub)
        try:
            self.cursor = after if after is not None else last_account_event_id(services.redis, aid)
            self.first = to_act_messages(services, aid)
            self._renew()
        except Exception:
            self.close()
            raise
        self._closed = False

    def _renew(self) -> None:
        """Keep the account's seeks alive (at most once per keep-alive interval)."""
        renew_seeks(self.services.redis, self.aid, int(time.time() * 1000))
        self.renewed = time.monotonic()

    def close(self) -> None:
        if not getattr(self, "_closed", False):
            self._closed = True
            self.hub.unregister_channel(self.channel, self.sub)

    def __iter__(self) -> Iterator[bytes]:
        try:
            for message in self.first:
                yield render_account_message(message, self.sse)
            while True:
                self.sub.wake.clear()
                yield from self._read_new()
                if not self.sub.wake.wait(self.keepalive_s):
                    if live_principal(self.services, self.token_hash) is None:
                        return  # the token was revoked or expired: the stream ends
                    yield keep_alive(self.sse)
                if time.monotonic() - self.renewed >= self.keepalive_s:
                    self._renew()
        finally:
            self.close()

    def _read_new(self) -> Iterator[bytes]:
        """Every logged event after the cursor, in pages."""
        while True:
            entries = read_account_events(self.services.redis, self.aid, self.cursor, CATCH_UP_PAGE)
            for entry in entries:
                self.cursor = entry["id"]
                yield render_account_message(logged_message(entry), self.sse)
            if len(entries) < CATCH_UP_PAGE:
                return
