"""The API's JSON bodies as ``TypedDict``s, mirroring openapi.yaml's schemas.

They are plain dicts at run time (what ``json`` gives); the types only tell
an editor and a type checker which keys to expect. Game-specific parts
(``view``, an action's parameters, an event's ``data``) stay ``dict``.
"""

from typing import Any, Literal, NotRequired, TypedDict

JSON = dict[str, Any]
# An action as ``list_actions`` gives it; post it back unchanged.
Action = JSON


class GameOption(TypedDict):
    type: str
    default: NotRequired[Any]
    choices: NotRequired[list[Any]]
    description: NotRequired[str]
    min: NotRequired[Any]
    max: NotRequired[Any]


class Game(TypedDict):
    id: str
    title: str
    min_players: int
    max_players: int
    options: dict[str, GameOption]
    ai_levels: list[str]
    action_schema: NotRequired[str]
    version: NotRequired[int]


class Seat(TypedDict):
    seat: int
    kind: Literal["human", "ai", "open"]
    name: str | None
    level: Literal["random", "easy", "medium", "hard"] | None
    resigned: bool


class Result(TypedDict):
    winners: list[int]
    reason: str
    scores: NotRequired[dict[str, Any]]
    engine_winners: NotRequired[list[int]]
    resigned: NotRequired[list[int]]


class MatchSummary(TypedDict):
    """A lobby entry: a ``Match`` without ``view`` and ``you``."""

    id: str
    game: str
    options: JSON
    status: Literal["waiting", "active", "finished"]
    version: int
    seats: list[Seat]
    to_act: list[int]
    deadlines: dict[str, str]
    result: Result | None
    rematch: str | None
    dice: str
    seed_commitment: str
    turn_timeout_s: int
    created_at: str
    updated_at: str


class Match(MatchSummary):
    view: JSON
    you: int | None


class CreatedMatch(TypedDict):
    match: Match
    tokens: dict[str, str]  # seat number (as a string) -> bearer token


class Joined(TypedDict):
    seat: int
    token: str


class Rematch(TypedDict):
    match: Match
    seat: int
    token: str


class ActionList(TypedDict):
    game: str
    status: Literal["waiting", "active", "finished"]
    version: int
    seat: int
    actions: list[Action]


class Event(TypedDict):
    seq: int
    version: int
    type: str
    seat: int | None
    data: JSON


class ActionResult(TypedDict):
    version: int
    events: list[Event]
    match: Match


class EventList(TypedDict):
    events: list[Event]
    last_seq: int
    more: bool


class ReplayAction(TypedDict):
    seat: int
    action: Action


class Replay(TypedDict):
    seed: int
    game: str
    options: JSON
    seats: list[Seat]
    actions: list[ReplayAction]
    dice: str
    seed_commitment: str
    proof: JSON | None
    result: NotRequired[Result | None]


class StreamTicket(TypedDict):
    ticket: str
    expires_at: str


class Health(TypedDict):
    status: str
    checks: NotRequired[JSON]
    workers_alive: NotRequired[int]


class Board(TypedDict):
    """``get_board``'s answer: the SVG text (None on a 304) and its ETag."""

    svg: str | None
    etag: str | None


class EventItem(TypedDict):
    """A ``StreamItem`` whose body is an ``Event``."""

    kind: Literal["event"]
    body: Event


class MatchItem(TypedDict):
    """A ``StreamItem`` whose body is a ``Match`` snapshot."""

    kind: Literal["match"]
    body: Match


# What ``Client.events(..., matches=True)`` yields; testing ``item["kind"]``
# tells a type checker which body it holds.
StreamItem = EventItem | MatchItem


# -- accounts (docs/accounts.md) --

Scope = Literal["match:read", "match:play", "match:create", "account:read", "account:write"]
ALL_SCOPES: tuple[Scope, ...] = ("match:read", "match:play", "match:create", "account:read", "account:write")


class Account(TypedDict):
    """``GET /v1/account``: yourself."""

    id: str
    name: str  # ``closed-<id suffix>`` once closed
    kind: Literal["human", "bot"]
    status: Literal["active", "closed"]
    created_at: str
    app: str | None
    external_id: str | None


class SignedUp(TypedDict):
    """``sign_up``'s answer: the account and its first token (shown once)."""

    account: Account
    token: str
    token_id: str


class Profile(TypedDict):
    """``GET /v1/accounts/{name}``: the public profile."""

    name: str
    kind: Literal["human", "bot"]
    since: str
    status: Literal["active", "closed"]
    games: JSON  # game id -> matches played and won
    recent: list[JSON]  # recent results, newest first
    ratings: dict[str, "Rating"]  # pool -> the rating there (pools rated in only)


class Rating(TypedDict):
    """An account's rating in one pool (docs/ratings.md)."""

    mu: float
    sigma: float
    rating: float  # mu - 3 sigma: what the leaderboards order by
    matches: int
    provisional: bool


class LeaderboardEntry(Rating):
    """One line of ``GET /v1/leaderboards/{pool}``."""

    rank: int
    name: str
    kind: Literal["human", "bot"]
    ai: bool  # a built-in AI level's account


class RatingHistory(TypedDict):
    """``GET /v1/accounts/{name}/ratings/{pool}``: the rating now and its last changes."""

    name: str
    kind: Literal["human", "bot"]
    pool: str
    rating: Rating
    total: int
    history: list[JSON]  # {match_id, at, mu, sigma, rating, delta, place, players}, oldest first


class TokenInfo(TypedDict):
    """A personal access token as listed: never the token itself."""

    id: str
    label: str
    scopes: list[Scope]
    created_at: str
    expires_at: str | None
    last_used_at: str | None


class NewToken(TokenInfo):
    """``create_token``'s answer: the listing and the token, shown this once."""

    token: str
    token_id: str


class AccountEvent(TypedDict):
    """One message of the account stream (``Client.account_stream``).

    ``id``: the entry id to resume after (``Last-Event-ID``), None for the
    snapshot ``your_turn`` messages a connection starts with; ``type``:
    ``match_started``, ``your_turn`` (``data``: game, seat, version,
    deadline), ``match_finished`` (game, seat, version, result),
    ``seat_handed_to_ai``, ``webhook_disabled``, ``challenge`` (``data``: the
    Challenge, as ``Client.challenge`` reads it)... (a newer server may add
    types: ignore the ones you do not know)."""

    id: str | None
    type: str
    match_id: str | None
    data: JSON
