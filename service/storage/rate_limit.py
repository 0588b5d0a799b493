"""Rate limits: fixed-window counters in Redis, one per identity and window.

An identity is a *known* bearer token (by its hash) or else the client's
address. A token is known while the token index holds it (service/storage/store.py):
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

import time
from dataclasses import dataclass

from service.model.errors import ApiError


@dataclass(frozen=True)
class Window:
    """One fixed window: ``limit`` requests per ``seconds`` (limit 0: off)."""

    limit: int
    seconds: int
    what: str = "requests"

    def key(self, identity, now):
        return f"ratelimit:{self.what}:{identity}:{int(now // self.seconds)}"

    def error_if_over(self, count, now):
        """The 429 for ``count`` requests in the window of ``now``, or None."""
        if count <= self.limit:
            return None
        window_end = (int(now // self.seconds) + 1) * self.seconds
        retry_after = max(1, int(window_end - now + 0.999))
        return ApiError(
            429,
            "rate_limited",
            f"more than {self.limit} {self.what} in {self.seconds} s",
            headers={"Retry-After": str(retry_after)},
            retry_after_s=retry_after,
        )


def request_window(config):
    return Window(config["RATE_LIMIT"], config["RATE_LIMIT_WINDOW_S"])


def create_window(config):
    return Window(config["CREATE_RATE_LIMIT"], config["RATE_LIMIT_WINDOW_S"], "creations")


class RateCharge:
    """One request to count against its window: its token's when the token is
    known, else its address's."""

    def __init__(self, window, address, token_hash=None, now=None):
        self.window = window
        self.address = address
        self.token_hash = token_hash
        self.now = time.time() if now is None else now
        self.ttl = window.seconds + 1

    @classmethod
    def configured(cls, window, address, token_hash=None):
        """The charge of one request, or None when ``window`` is off."""
        return cls(window, address, token_hash) if window.limit > 0 else None

    @property
    def key(self):
        """The counter this charge tries first (the token's, if it has one).

        The token's counter carries the token's hash tag, so the script that
        checks the token and counts runs on one cluster slot."""
        if self.token_hash is not None:
            return self.window.key(f"t:{{{self.token_hash}}}", self.now)
        return self._address_key()

    def _address_key(self):
        return self.window.key(f"a:{self.address}", self.now)

    def count_with(self, store):
        """Count this request (its address's window if its token is unknown)."""
        count = store.count(self.key, self.ttl, self.token_hash)
        return self.settle(store, count)

    def settle(self, store, count):
        """The count, after ``count`` came back None for an unknown token:
        then the request is counted against the address instead."""
        if count is None:
            count = store.count(self._address_key(), self.ttl)
        return count

    def error_if_over(self, count):
        return self.window.error_if_over(count, self.now)

    def enforce(self, count):
        error = self.error_if_over(count)
        if error is not None:
            raise error


def load_charged(store, match_id, token_hash, charge):
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
