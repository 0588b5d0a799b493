"""One stream per account: ``AccountStream``, what ``Client.account_stream``
returns.

``GET /v1/account/stream`` (NDJSON, or SSE with ``Accept:
text/event-stream``) sends ``AccountEvent`` messages ``{"id", "type",
"match_id", "data"}``: first a ``your_turn`` snapshot (``id`` null) for each
match where the account is to act, then the logged events after
``Last-Event-ID``, then live ones; empty lines (SSE: comments) keep it
alive. Any end of a connection (dropped, silent past ``read_timeout``, a
``too_far_behind`` line) is answered by reconnecting with ``Last-Event-ID``
set to the last logged id seen, so a logged event is yielded once. The
snapshot messages come again on each connection: a turn may be announced
twice (compare its ``version`` with what was played).
"""

import time
from collections.abc import Generator, Iterator
from typing import Any, Protocol

import httpx

from .models import AccountEvent
from .stream import Message, Reconnecting, read_messages


class AccountSource(Protocol):
    """What the stream calls (``Client`` has it)."""

    @property
    def timeout(self) -> float: ...

    def account_stream_response(
        self, *, last_event_id: str | None, sse: bool, timeout: httpx.Timeout
    ) -> httpx.Response: ...


def account_event(message: Message) -> AccountEvent | None:
    """The ``AccountEvent`` of one message (None: an error line, reconnect).

    NDJSON lines and SSE ``data`` hold the whole message; an SSE message
    whose ``data`` is only the payload takes its type and id from the
    ``event:`` and ``id:`` fields."""
    body: Any = message.data
    if isinstance(body, dict) and "error" in body and "type" not in body:
        return None
    if not (isinstance(body, dict) and "type" in body and "data" in body):
        payload = body if isinstance(body, dict) else {"value": body}
        body = {"type": message.event or "message", "match_id": payload.get("match_id"), "data": payload}
    event: AccountEvent = {
        "id": body.get("id") if body.get("id") is not None else message.id,
        "type": str(body["type"]),
        "match_id": body.get("match_id"),
        "data": body.get("data") or {},
    }
    return event


class AccountStream(Reconnecting[AccountEvent]):
    """Iterator over the account's events, reconnecting for ever (a network
    failure waits up to ``max_backoff_s`` between tries); an error answer
    (401 for a revoked token, 403 for a missing ``match:read``) raises.

    ``last_event_id``: the id to resume after; ``connections``: how many
    were opened. ``drop()`` closes the current connection as a network
    failure would; ``close()`` stops."""

    def __init__(
        self,
        client: AccountSource,
        last_event_id: str | None = None,
        sse: bool = False,
        read_timeout: float = 45.0,
        max_backoff_s: float = 10.0,
    ):
        self.client = client
        self.last_event_id = last_event_id
        self.sse = sse
        self.connections = 0
        # Well above the server's 15 s keep-alive: longer silence is a dead connection.
        self.timeout = httpx.Timeout(client.timeout, read=read_timeout)
        self.max_backoff_s = max_backoff_s
        self._start()

    def _run(self) -> Generator[AccountEvent, None, None]:
        fruitless = 0  # connections in a row that brought no logged event
        while True:
            before = self.last_event_id
            try:
                yield from self._one_connection()
            except (httpx.TransportError, httpx.StreamError):
                pass  # dropped before or while reading: reconnect
            finally:
                self._response = None
            fruitless = 0 if self.last_event_id != before else fruitless + 1
            if fruitless > 1:  # the first reconnect is immediate; repeated ones back off
                time.sleep(min(0.25 * 2**fruitless, self.max_backoff_s))

    def _one_connection(self) -> Iterator[AccountEvent]:
        response = self.client.account_stream_response(
            last_event_id=self.last_event_id, sse=self.sse, timeout=self.timeout
        )
        self._response = response
        self.connections += 1
        try:
            for message in read_messages(response):
                event = account_event(message)
                if event is None:
                    return  # too_far_behind: reconnect from last_event_id
                if event["id"] is not None:
                    self.last_event_id = event["id"]
                yield event
        finally:
            response.close()
