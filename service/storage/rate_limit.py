"""Rate limits: fixed-window counters in Redis, one per identity and window.

An identity is a *known* bearer token (by its hash) or else the client's
address. A seat token is known while it holds a live seat of its match (its
``tok:`` field in the match hash; the token index, service/storage/indexes.py,
names the match), an account token while its ``pat:{<sha256>}`` lookup
exists (service/storage/accounts.py):
a request with a made-up or revoked token counts against its address like a
request without one, so inventing tokens never buys a fresh allowance (and
answering it 401 does not exempt it: unlimited 401s are unlimited guesses).
Creating a match also counts against a tighter window of its address
(``CREATE_RATE_LIMIT``), whatever token it carries.

A token's window is counted by a script only if the token is known, in the
same round trip as the request's first read on the hot path. A seat token's
window is kept with its match (lua/count_seat.lua, service/storage/counters.py),
so on its own match's routes the check, the count and the read are one
script on the match's node; an account token's in its own slot
(lua/count_known.lua). An unknown token costs a round trip more, for its
address.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from service.model.errors import ApiError
from service.storage.keys import match_key
from service.storage.records import SeatCount

if TYPE_CHECKING:
    from service.storage.records import StoredMatch
    from service.storage.store import Store


@dataclass(frozen=True)
class Window:
    """One fixed window: ``limit`` requests per ``seconds`` (limit 0: off)."""

    limit: int
    seconds: int
    what: str = "requests"

    def key(self, identity: str, now: float) -> str:
        return f"ratelimit:{self.what}:{identity}:{int(now // self.seconds)}"

    def seconds_left(self, now: float) -> int:
        """Whole seconds until the window of ``now`` ends (at least 1)."""
        window_end = (int(now // self.seconds) + 1) * self.seconds
        return max(1, int(window_end - now + 0.999))

    def error_if_over(self, count: int, now: float) -> ApiError | None:
        """The 429 for ``count`` requests in the window of ``now``, or None."""
        if count <= self.limit:
            return None
        retry_after = self.seconds_left(now)
        return ApiError(
            429,
            "rate_limited",
            f"more than {self.limit} {self.what} in {self.seconds} s",
            headers={"Retry-After": str(retry_after)},
            retry_after_s=retry_after,
        )


def request_window(config: dict[str, Any]) -> Window:
    return Window(config["RATE_LIMIT"], config["RATE_LIMIT_WINDOW_S"])


def create_window(config: dict[str, Any]) -> Window:
    return Window(config["CREATE_RATE_LIMIT"], config["RATE_LIMIT_WINDOW_S"], "creations")


class RateCharge:
    """One request to count against its window: its token's when the token is
    known, else its address's.

    A seat token's window is kept with its match (service/storage/counters.py):
    ``seat_match`` is the match of the request's route, where a token that is
    not an account token is looked for first (one round trip when it holds a
    seat there, as it does on its own match's routes)."""

    def __init__(
        self,
        window: Window,
        address: str,
        token_hash: str | None = None,
        now: float | None = None,
        seat_match: str | None = None,
    ) -> None:
        self.window = window
        self.address = address
        self.token_hash = token_hash
        self.seat_match = seat_match if token_hash is not None else None
        self.now = time.time() if now is None else now
        self.ttl = window.seconds + 1
        # The window's count with this request, once counted (the response's
        # RateLimit fields: service/http/rate_headers.py).
        self.count: int | None = None

    @classmethod
    def configured(
        cls, window: Window, address: str, token_hash: str | None = None, seat_match: str | None = None
    ) -> RateCharge | None:
        """The charge of one request, or None when ``window`` is off."""
        return cls(window, address, token_hash, seat_match=seat_match) if window.limit > 0 else None

    @property
    def key(self) -> str:
        """The counter of an account token (or, without a token, the address).

        The token's counter carries the token's hash tag, so the script that
        checks the token and counts runs on one cluster slot."""
        if self.token_hash is not None:
            return self.window.key(f"t:{{{self.token_hash}}}", self.now)
        return self._address_key()

    def seat_key(self, match_id: str) -> str:
        """The counter of a seat token of ``match_id``: the match's hash tag."""
        return self.window.key(f"s:{{{match_id}}}:{self.token_hash}", self.now)

    def _address_key(self) -> str:
        return self.window.key(f"a:{self.address}", self.now)

    def count_with(self, store: Store) -> int:
        """Count this request: in its seat's window when its token holds a
        seat of ``seat_match``, else as ``settle`` goes on."""
        if self.seat_match is None or self.token_hash is None:
            return self.settle(store, self.count_in_own_slot(store))
        seat_key = self.seat_key(self.seat_match)
        return self.settle_after_seat(
            store, store.count_seat(self.seat_match, self.token_hash, seat_key, self.ttl)
        )

    def settle_after_seat(self, store: Store, count: int | None) -> int:
        """``settle`` after the seat script on ``seat_match``: its count, or
        (the token holds no seat there) on in the token's own slot."""
        return self.settle(store, self.count_in_own_slot(store) if count is None else count)

    def count_in_own_slot(self, store: Store) -> int | str | None:
        """An account token's count (its window is in its own slot), a seat
        token's match id (its window is there), None for an unknown token;
        without a token, the address's count."""
        if self.token_hash is None:
            return store.count(self.key, self.ttl)
        return store.count_token(self.key, self.ttl, self.token_hash)

    def settle(self, store: Store, count: int | str | None) -> int:
        """The count, from ``count``: ``count_in_own_slot``'s reply (or the
        seat script's). A seat token's match id: its window there; None (an
        unknown token, or no seat there any more): the address's."""
        if isinstance(count, str):
            # Counted nowhere yet: a seat token used on another match's route
            # (its own match was tried first where the route has one).
            match_id, count = count, None
            if match_id != self.seat_match and self.token_hash is not None:
                count = store.count_seat(match_id, self.token_hash, self.seat_key(match_id), self.ttl)
        if count is None:
            count = store.count(self._address_key(), self.ttl)
        self.count = count
        return count

    def error_if_over(self, count: int) -> ApiError | None:
        return self.window.error_if_over(count, self.now)

    def enforce(self, count: int) -> None:
        error = self.error_if_over(count)
        if error is not None:
            raise error


def load_charged(
    store: Store, match_id: str, token_hash: str | None, charge: RateCharge | None
) -> StoredMatch | None:
    """``store.load`` plus the rate-limit count ``charge`` (None: none), one
    round trip (more for an unknown token, or one that holds no seat here).

    The 429 comes before anything the read tells (404, 401...), as when the
    count is taken before the route.
    """
    if charge is None:
        return store.load(match_id, token_hash)
    if charge.token_hash is not None and charge.seat_match == match_id:
        seat_key = charge.seat_key(match_id)
        stored, seat_count = store.load_seat_counted(match_id, charge.token_hash, seat_key, charge.ttl)
        charge.enforce(charge.settle_after_seat(store, seat_count))
        return stored
    stored, count = store.load_counted(match_id, token_hash, charge.key, charge.ttl, charge.token_hash)
    charge.enforce(charge.settle(store, count))
    return stored


def seat_check(charge: RateCharge | None, match_id: str, token_hash: str) -> SeatCount | None:
    """What a move's commit script on ``match_id`` checks first (lua/commit.lua):
    that ``token_hash`` holds a live seat there, and ``charge``'s count in
    the seat's window; with the rate limit off (``charge`` None), the seat
    alone. None when ``charge`` counts elsewhere (not a seat token of this
    match's route)."""
    if charge is None:
        return SeatCount(match_key(match_id), token_hash, 0, 0)
    if charge.token_hash != token_hash or charge.seat_match != match_id:
        return None
    return SeatCount(charge.seat_key(match_id), token_hash, charge.ttl, charge.window.limit)
