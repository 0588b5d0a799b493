"""What the server's ``RateLimit`` fields say is left, and the wait it implies.

Every response that counted against a window carries (IETF
draft-ietf-httpapi-ratelimit-headers, structured fields parsed by ``http-sf``)::

    RateLimit-Policy: "requests";q=1200;w=60
    RateLimit: "requests";r=1133;t=42

``Budgets`` keeps the latest of each window per bearer token (windows are
counted per token, or per address without one), and which requests each
window applies to (``"requests"``: every counted request; ``"creations"``:
only ``POST /v1/matches``). Before a request, ``wait_s`` says how long to
wait for a window it counts against that has nothing left: the client waits
then, instead of sending a request certain to be answered 429.
"""

import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, cast

import http_sf

# The window every counted request passes; others apply where they were seen.
EVERY_REQUEST = "requests"


@dataclass(frozen=True)
class RateLimit:
    """One window as last seen: ``remaining`` of ``limit`` per ``window_s``
    seconds, refilled at ``resets_at`` (``time.monotonic()``)."""

    policy: str
    limit: int | None
    window_s: int | None
    remaining: int
    resets_at: float

    @property
    def reset_s(self) -> float:
        """Seconds until the window refills (0 once it has)."""
        return max(0.0, self.resets_at - time.monotonic())


def parse(headers: Mapping[str, str]) -> dict[str, RateLimit]:
    """The windows of a response's fields (``headers``: httpx's, or a dict
    with the fields' canonical names); {} when it carries none, or fields
    that do not parse."""
    state_field, policy_field = headers.get("RateLimit"), headers.get("RateLimit-Policy")
    if not state_field:
        return {}
    try:
        states = _items(state_field)
        quotas = dict(_items(policy_field)) if policy_field else {}
    except ValueError:
        return {}
    now = time.monotonic()
    windows = {}
    for name, params in states:
        if not isinstance(name, str) or not isinstance(params.get("r"), int):
            continue
        quota = quotas.get(name, {})
        windows[name] = RateLimit(name, quota.get("q"), quota.get("w"), params["r"], now + params.get("t", 0))
    return windows


def _items(field: str) -> list[tuple[Any, dict[str, Any]]]:
    """A structured-field list of items with their parameters."""
    return cast(list[tuple[Any, dict[str, Any]]], http_sf.parse(field.encode(), tltype="list"))


class Budgets:
    """The windows seen per token, shared by the clients of one transport."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._seen: dict[str | None, dict[str, RateLimit]] = {}
        self._applies: dict[str, set[tuple[str, str]]] = {}

    def note(self, token: str | None, method: str, path: str, headers: Mapping[str, str]) -> None:
        windows = parse(headers)
        with self._lock:
            self._seen.setdefault(token, {}).update(windows)
            for name in windows:
                self._applies.setdefault(name, set()).add((method, path))

    def of(self, token: str | None) -> dict[str, RateLimit]:
        with self._lock:
            return dict(self._seen.get(token, {}))

    def wait_s(self, token: str | None, method: str, path: str) -> float:
        """How long to wait before sending: until the latest refill of an
        exhausted window this request counts against (0: send now)."""
        with self._lock:
            windows = self._seen.get(token, {}).values()
            relevant = [
                w
                for w in windows
                if w.policy == EVERY_REQUEST or (method, path) in self._applies.get(w.policy, ())
            ]
        return max((w.reset_s for w in relevant if w.remaining <= 0), default=0.0)
