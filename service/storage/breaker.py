"""Fail fast while storage hangs: a per-process circuit breaker for redis-py.

A Redis that hangs (process stopped, socket open) answers nothing: each
command waits its full socket timeout. A request makes several calls (the
rate-limit count, the read, the commit...), and redis-py used to retry a
timed-out call, so one request hung for 30 s although the timeout was 5 s.
Here, once any call of this process times out, every later call fails at
once with ``StorageUnavailable`` (a ``redis.ConnectionError``: the app
answers 503 ``unavailable``) until ``cooldown_s`` has passed; then one call
at a time probes the server, and the first answer closes the breaker again.
So a request that needs storage answers 503 within one timeout.

Hand-written because it must sit inside redis-py's connection (where the
timeout happens, under both redis-py's command layer and the store's raw
round trips); the well-kept breaker libraries wrap function calls instead.

The same connection class answers the pool's "is anything pending on this
connection?" check (``can_read(0)``, before every hand-out) with one real
``poll`` of its socket: under gevent, redis-py's check goes through
gevent's cooperative ``select.poll``, a trip through the event loop that
cost a move two such trips, about 20 µs of CPU (issue 45).
"""

import select
import sys
import threading
import time
from typing import Any

import redis


class StorageUnavailable(redis.ConnectionError):
    """Refused without trying: storage timed out moments ago."""


class Breaker:
    """Closed (calls go through), open (calls fail fast), or probing."""

    def __init__(self, cooldown_s: float = 1.0) -> None:
        self.cooldown_s = cooldown_s
        self._lock = threading.Lock()
        self._open_until: float | None = None  # monotonic time; None while closed
        self._probe_thread: int | None = None

    @property
    def is_open(self) -> bool:
        return self._open_until is not None

    def before_call(self) -> None:
        """Raise ``StorageUnavailable`` unless this call may go to the server."""
        if self._open_until is None:
            return  # closed: no lock on the hot path
        with self._lock:
            if self._open_until is None or self._probe_thread == threading.get_ident():
                return
            if self._probe_thread is not None or time.monotonic() < self._open_until:
                raise StorageUnavailable("storage did not answer in time moments ago")
            self._probe_thread = threading.get_ident()  # this call is the probe

    def answered(self) -> None:
        if self._open_until is None:
            return
        with self._lock:
            self._open_until = None
            self._probe_thread = None

    def failed(self, timed_out: bool) -> None:
        """A call failed: a timeout opens the breaker; any failure of the
        probe keeps it open for another cooldown."""
        if not timed_out and self._open_until is None:
            return
        with self._lock:
            self._open_until = time.monotonic() + self.cooldown_s
            self._probe_thread = None


_poll: list[Any] = []  # the operating system's select.poll, once looked up


def _blocking_poll() -> Any:
    """The operating system's ``select.poll`` (gevent's patch replaces the
    module's; the process patches before it opens a connection)."""
    if not _poll:
        monkey = sys.modules.get("gevent.monkey")
        _poll.append(monkey.get_original("select", "poll") if monkey is not None else select.poll)
    return _poll[0]


def _nothing_pending(conn: redis.Connection) -> bool:
    """True when ``conn``'s socket has no byte to read (and so is not closed by
    the server either) and its reply parser holds none: one ``poll`` that
    never waits. False means "look closer" (redis-py's own check)."""
    sock = getattr(conn, "_sock", None)
    reader = getattr(getattr(conn, "_parser", None), "_reader", None)
    if sock is None or reader is None or reader.has_data():
        return False
    poller = _blocking_poll()()
    poller.register(sock.fileno(), select.POLLIN)
    return not poller.poll(0)


def connection_class(breaker: Breaker) -> type[redis.Connection]:
    """A ``redis.Connection`` subclass that reports to ``breaker`` (and checks
    for pending replies without the event loop)."""

    class BreakerConnection(redis.Connection):
        def can_read(self, timeout: float = 0) -> bool:
            if timeout == 0 and _nothing_pending(self):
                return False
            return bool(super().can_read(timeout))

        def send_packed_command(self, command: Any, check_health: bool = True) -> None:
            breaker.before_call()
            try:
                super().send_packed_command(command, check_health)
            except redis.TimeoutError:
                breaker.failed(timed_out=True)
                raise
            except redis.ConnectionError as error:
                if not isinstance(error, StorageUnavailable):
                    breaker.failed(timed_out=False)
                raise

        def read_response(self, *args: Any, **kwargs: Any) -> Any:
            try:
                response = super().read_response(*args, **kwargs)
            except redis.TimeoutError:
                breaker.failed(timed_out=True)
                raise
            except redis.ConnectionError:
                breaker.failed(timed_out=False)
                raise
            except redis.ResponseError:
                breaker.answered()  # an error reply is an answer
                raise
            breaker.answered()
            return response

    return BreakerConnection
