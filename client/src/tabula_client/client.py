"""``Client``: one method per operation of the API (openapi.yaml's
``operationId`` in snake_case; ``OPERATIONS`` maps them)."""

import json
import uuid
from collections.abc import Iterator, Sequence
from typing import Any, Literal, cast, overload

import httpx

from ._http import Transport
from .accounts import ACCOUNT_OPERATIONS, AccountsMixin
from .meet import MEET_OPERATIONS, MeetMixin
from .models import (
    JSON,
    Action,
    ActionList,
    ActionResult,
    Board,
    CreatedMatch,
    Event,
    EventList,
    Game,
    Health,
    Joined,
    Match,
    MatchSummary,
    Rematch,
    Replay,
    StreamItem,
    StreamTicket,
)
from .rate_limits import RateLimit
from .ratings import RATING_OPERATIONS, RatingsMixin
from .stream import EventFollower

# operationId (openapi.yaml) -> Client method. A test checks that every
# operation of the committed spec is here and is a method.
OPERATIONS: dict[str, str] = {
    "healthz": "healthz",
    "readyz": "readyz",
    "listGames": "list_games",
    "getGame": "get_game",
    "listMatches": "list_matches",
    "createMatch": "create_match",
    "getMatch": "get_match",
    "getBoard": "get_board",
    "joinMatch": "join_match",
    "rematch": "rematch",
    "resign": "resign",
    "listActions": "list_actions",
    "postAction": "post_action",
    "listEvents": "list_events",
    "getReplay": "get_replay",
    "streamMatch": "stream_match",
    "createStreamTicket": "create_stream_ticket",
    **ACCOUNT_OPERATIONS,
    **MEET_OPERATIONS,
    **RATING_OPERATIONS,
}


def _match_path(match_id: str, tail: str = "") -> str:
    return f"/v1/matches/{match_id}{tail}"


class Client(AccountsMixin, MeetMixin, RatingsMixin):
    """A synchronous client for one Tabula server.

    ``token`` is the bearer token of one seat (None: a spectator, or calls
    that need none). ``timeout`` (seconds) bounds every request; ``retries``
    bounds the repeats of a request answered 429 (after ``Retry-After``) or
    503 (backoff from ``backoff_s``, doubling), and of a replay-safe request
    whose connection failed. Errors raise a ``TabulaError`` subclass of their
    code (``tabula_client.errors``); a network failure after the retries
    raises httpx's ``TransportError``.

    Use it as a context manager, or call ``close()``.
    """

    def __init__(
        self,
        base_url: str,
        token: str | None = None,
        timeout: float = 10.0,
        retries: int = 3,
        backoff_s: float = 0.5,
        *,
        _transport: Transport | None = None,
    ):
        self.base_url = base_url
        self.token = token
        self.timeout = timeout
        self.retries = retries
        self._transport = _transport or Transport(base_url, timeout, retries, backoff_s)

    def with_token(self, token: str | None) -> "Client":
        """A client for another seat (or a spectator: None) sharing this one's
        connections and settings."""
        return Client(self.base_url, token, self.timeout, self.retries, _transport=self._transport)

    @property
    def rate_limits(self) -> dict[str, RateLimit]:
        """This token's rate-limit windows as the server last reported them
        (``RateLimit`` fields): ``{"requests": RateLimit(remaining=..., reset_s=...)}``;
        requests wait for an exhausted window's refill before they are sent."""
        return self._transport.budgets.of(self.token)

    def close(self) -> None:
        self._transport.close()

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _call(self, method: str, path: str, **kwargs: Any) -> httpx.Response:
        return self._transport.request(method, path, token=self.token, **kwargs)

    def _json(self, method: str, path: str, **kwargs: Any) -> Any:
        return self._call(method, path, **kwargs).json()

    # -- operations --

    def healthz(self) -> Health:
        """Liveness: the process answers."""
        return cast(Health, self._json("GET", "/healthz"))

    def readyz(self) -> Health:
        """Readiness (storage reachable, a worker seen): the ``Health`` body,
        whose ``status`` says it; a 503 here is an answer, not an error."""
        return cast(Health, self._transport.request("GET", "/readyz", accept=(503,)).json())

    def metrics(self) -> str:
        """Prometheus text, from a client of the server's internal metrics
        address (``METRICS_PORT``; its public port answers 404 there):
        ``Client("http://127.0.0.1:9400").metrics()``."""
        return self._call("GET", "/metrics").text

    def list_games(self) -> list[Game]:
        return cast(list[Game], self._json("GET", "/v1/games"))

    def get_game(self, game_id: str) -> Game:
        return cast(Game, self._json("GET", f"/v1/games/{game_id}"))

    def list_matches(
        self,
        status: str | None = None,
        game: str | None = None,
        page: int | None = None,
        page_size: int | None = None,
    ) -> list[MatchSummary]:
        """The lobby, one page (``page`` from 1)."""
        params = {"status": status, "game": game, "page": page, "page_size": page_size}
        return cast(list[MatchSummary], self._json("GET", "/v1/matches", params=params))

    def create_match(
        self,
        game: str,
        seats: Sequence[JSON],
        options: JSON | None = None,
        seed: int | None = None,
        dice: str | None = None,
        turn_timeout_s: int | None = None,
        **extra: Any,
    ) -> CreatedMatch:
        """A new match; the answer holds one bearer token per ``human`` seat
        (``tokens["0"]``...). ``seats``: ``{"kind": "human", "name"}``,
        ``{"kind": "ai", "level"}`` or ``{"kind": "open"}``. ``rated=True``
        with a human seat needs an account token (``AccountTokenRequired``
        with a seat token)."""
        body = {
            "game": game,
            "seats": list(seats),
            "options": options,
            "seed": seed,
            "dice": dice,
            "turn_timeout_s": turn_timeout_s,
            **extra,
        }
        body = {k: v for k, v in body.items() if v is not None}
        return cast(CreatedMatch, self._json("POST", "/v1/matches", json=body))

    def get_match(self, match_id: str, if_none_match: int | None = None) -> Match | None:
        """The match as this token's seat (or a spectator) sees it; None when
        ``if_none_match`` is still the current version (304)."""
        headers = {} if if_none_match is None else {"If-None-Match": f'"{if_none_match}"'}
        response = self._call("GET", _match_path(match_id), headers=headers)
        return None if response.status_code == 304 else cast(Match, response.json())

    def get_board(self, match_id: str, step: int | None = None, if_none_match: str | None = None) -> Board:
        """The board as SVG text; ``svg`` None when ``if_none_match`` (an ETag
        as returned) is current. ``step``: a finished match after N actions."""
        headers = {} if if_none_match is None else {"If-None-Match": if_none_match}
        response = self._call(
            "GET", _match_path(match_id, "/board.svg"), params={"step": step}, headers=headers
        )
        svg = None if response.status_code == 304 else response.text
        return Board(svg=svg, etag=response.headers.get("ETag"))

    def join_match(self, match_id: str, name: str | None = None, seat: int | None = None) -> Joined:
        """Take an open seat (any, or ``seat``); the answer holds its token."""
        body = {k: v for k, v in {"name": name, "seat": seat}.items() if v is not None}
        return cast(Joined, self._json("POST", _match_path(match_id, "/join"), json=body))

    def rematch(self, match_id: str) -> Rematch:
        """The finished match's rematch (created by the first caller), with a
        token for this token's seat."""
        return cast(Rematch, self._json("POST", _match_path(match_id, "/rematch")))

    def resign(self, match_id: str) -> Match:
        """Hand this seat to the AI; the token is revoked."""
        return cast(Match, self._json("POST", _match_path(match_id, "/resign")))

    def list_actions(self, match_id: str) -> ActionList:
        """This seat's legal actions now (empty while others decide)."""
        return cast(ActionList, self._json("GET", _match_path(match_id, "/actions")))

    def post_action(
        self,
        match_id: str,
        action: Action,
        version: int | None = None,
        if_match: int | None = None,
        idempotency_key: str | None = None,
    ) -> ActionResult:
        """Play ``action`` (an element of ``list_actions``).

        Always sent with an ``Idempotency-Key`` (a fresh uuid4 unless given),
        the same one on every retry of this call: a retry after a lost answer
        returns the first answer and never plays the action twice. Pass the
        same ``idempotency_key`` yourself to make a later call a safe repeat.
        ``version``/``if_match``: refuse (409/412) unless the match is there.
        """
        headers = {"Idempotency-Key": idempotency_key or str(uuid.uuid4())}
        if if_match is not None:
            headers["If-Match"] = f'"{if_match}"'
        body: JSON = {"action": action}
        if version is not None:
            body["version"] = version
        return cast(
            ActionResult, self._json("POST", _match_path(match_id, "/actions"), json=body, headers=headers)
        )

    def list_events(self, match_id: str, after: int = 0, limit: int | None = None) -> EventList:
        """Events with ``seq`` > ``after``, one page (``more``: another follows)."""
        return cast(
            EventList,
            self._json("GET", _match_path(match_id, "/events"), params={"after": after, "limit": limit}),
        )

    def get_replay(self, match_id: str) -> Replay:
        """Everything to re-run a finished match with the engine (409 before)."""
        return cast(Replay, self._json("GET", _match_path(match_id, "/replay")))

    def create_stream_ticket(self, match_id: str) -> StreamTicket:
        """A single-use ``?ticket=`` for a stream opened without headers."""
        return cast(StreamTicket, self._json("POST", _match_path(match_id, "/stream-ticket")))

    def stream_match(
        self, match_id: str, after: int | None = None, ticket: str | None = None
    ) -> Iterator[Match | Event | JSON]:
        """One connection of the NDJSON stream, message by message, as sent
        (a ``Match``, ``Event``s, maybe an error); no reconnect. ``events()``
        is what most callers want."""
        response = self.stream_response(match_id, after=after, ticket=ticket)
        try:
            for line in response.iter_lines():
                if line.strip():
                    yield json.loads(line)
        finally:
            response.close()

    def stream_response(
        self,
        match_id: str,
        after: int | None = None,
        ticket: str | None = None,
        timeout: httpx.Timeout | float | None = None,
    ) -> httpx.Response:
        """The open NDJSON stream response (unread: close it)."""
        params = {"after": after, "ticket": ticket}
        return self._call(
            "GET",
            _match_path(match_id, "/stream"),
            params=params,
            headers={"Accept": "application/x-ndjson"},
            stream=True,
            timeout=timeout,
        )

    @overload
    def events(
        self,
        match_id: str,
        after: int = 0,
        matches: Literal[False] = False,
        read_timeout: float = 45.0,
        poll_interval: float = 1.0,
    ) -> EventFollower[Event]: ...

    @overload
    def events(
        self,
        match_id: str,
        after: int = 0,
        *,
        matches: Literal[True],
        read_timeout: float = 45.0,
        poll_interval: float = 1.0,
    ) -> EventFollower[StreamItem]: ...

    @overload
    def events(
        self,
        match_id: str,
        after: int = 0,
        matches: bool = False,
        read_timeout: float = 45.0,
        poll_interval: float = 1.0,
    ) -> EventFollower[Any]: ...

    def events(
        self,
        match_id: str,
        after: int = 0,
        matches: bool = False,
        read_timeout: float = 45.0,
        poll_interval: float = 1.0,
    ) -> EventFollower[Any]:
        """Follow the match live: an iterator of ``Event``s with ``seq`` >
        ``after``, each exactly once and in order, reconnecting after a
        dropped connection, until the match is finished. ``matches=True``
        yields ``{"kind": "event"|"match", "body": ...}`` instead, with a
        ``Match`` snapshot per connection and the final one. See
        ``tabula_client.stream``."""
        follower: EventFollower[Any] = EventFollower(
            self, match_id, after, matches, read_timeout, poll_interval
        )
        return follower
