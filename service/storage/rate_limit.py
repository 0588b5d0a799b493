"""Rate limits: fixed-window counters in Redis, one per identity and window.

An identity is a *known* bearer token (by its hash) or else the client's
address. A token is known while the token index holds it (service/storage/store.py),
or, for an account token, while its ``pat:{<sha256>}`` lookup exists
(service/storage/accounts.py):
a request with a made-up or revoked token counts against its address like a
request without one, so inventing tokens never buys a fresh allowance (and
answering it 401 does not exempt it: unlimited 401s are unlimited guesses).
Creating a match also counts against a tighter window of its address
(``CREATE_RATE_LIMIT``), whatever token it carries.

The token's window is counted by a script only if the token is known
(lua/count_known.lua), in the same round trip as the request's first read on
the hot path; only an unknown token costs a second round trip, for its
address.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from service.model.errors import ApiError

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
    known, else its address's."""

    def __init__(
        self, window: Window, address: str, token_hash: str | None = None, now: float | None = None
    ) -> None:
        self.window = window
        self.address = address
        self.token_hash = token_hash
        self.now = time.time() if now is None else now
        self.ttl = window.seconds + 1
        # The window's count with this request, once counted (the response's
        # RateLimit fields: service/http/rate_headers.py).
        self.count: int | None = None

    @classmethod
    def configured(cls, window: Window, address: str, token_hash: str | None = None) -> RateCharge | None:
        """The charge of one request, or None when ``window`` is off."""
        return cls(window, address, token_hash) if window.limit > 0 else None

    @property
    def key(self) -> str:
        """The counter this charge tries first (the token's, if it has one).

        The token's counter carries the token's hash tag, so the script that
        checks the token and counts runs on one cluster slot."""
        if self.token_hash is not None:
            return self.window.key(f"t:{{{self.token_hash}}}", self.now)
        return self._address_key()

    def _address_key(self) -> str:
        return self.window.key(f"a:{self.address}", self.now)

    def count_with(self, store: Store) -> int:
        """Count this request (its address's window if its token is unknown)."""
        count = store.count(self.key, self.ttl, self.token_hash)
        return self.settle(store, count)

    def settle(self, store: Store, count: int | None) -> int:
        """The count, after ``count`` came back None for an unknown token:
        then the request is counted against the address instead."""
        if count is None:
            # Without a known_token the window is always counted: an int.
            count = cast(int, store.count(self._address_key(), self.ttl))
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
    round trip (two for an unknown token).

    The 429 comes before anything the read tells (404, 401...), as when the
    count is taken before the route.
    """
    if charge is None:
        return store.load(match_id, token_hash)
    stored, count = store.load_counted(match_id, token_hash, charge.key, charge.ttl, charge.token_hash)
    charge.enforce(charge.settle(store, count))
    return stored
