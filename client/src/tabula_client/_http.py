"""HTTP plumbing: one httpx client, the retry policy, errors to exceptions.

Retried, a bounded number of times (``retries``):

- 429 ``rate_limited``, after its ``Retry-After``;
- 503 ``unavailable``, with exponential backoff (the server changed nothing);
- a network failure (connect/read error, timeout), but only for a request
  that is safe to send again: a GET, or a POST carrying an
  ``Idempotency-Key`` (the server applies a key's body at most once).

Before a 429 rather than after: the ``RateLimit`` fields of every answer are
kept (``rate_limits.Budgets``), and a request that counts against a window
with nothing left waits for its refill before it is sent.
"""

import time
from collections.abc import Mapping
from typing import Any

import httpx

from .errors import error_from_response, retry_after_seconds
from .rate_limits import Budgets

# Waits are bounded so a misbehaving server cannot park a caller for hours.
MAX_WAIT_S = 60.0
# Methods whose repetition cannot change anything on the server.
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})

Params = Mapping[str, Any] | None


class Transport:
    """Sends requests to one Tabula server; shared by every ``Client`` made
    from the same one (``Client.with_token``)."""

    def __init__(
        self, base_url: str, timeout: float, retries: int, backoff_s: float, http: httpx.Client | None = None
    ):
        self.timeout = timeout
        self.retries = max(0, retries)
        self.backoff_s = backoff_s
        self.budgets = Budgets()
        self.http = http or httpx.Client(
            base_url=base_url.rstrip("/"), timeout=timeout, headers={"User-Agent": "tabula-client"}
        )

    def close(self) -> None:
        self.http.close()

    def request(
        self,
        method: str,
        path: str,
        *,
        token: str | None = None,
        params: Params = None,
        json: Any = None,
        headers: Mapping[str, str] | None = None,
        accept: tuple[int, ...] = (),
        stream: bool = False,
        timeout: httpx.Timeout | float | None = None,
    ) -> httpx.Response:
        """Send with retries; return the response of status < 400 (or in
        ``accept``), else raise the ``TabulaError`` of its code. With
        ``stream`` the body is left unread: the caller must close it."""
        all_headers = dict(headers or {})
        if token is not None:
            all_headers["Authorization"] = f"Bearer {token}"
        clean_params = {k: v for k, v in (params or {}).items() if v is not None}
        request = self.http.build_request(
            method,
            path,
            params=clean_params,
            json=json,
            headers=all_headers,
            timeout=self.timeout if timeout is None else timeout,
        )
        replay_safe = method in SAFE_METHODS or "Idempotency-Key" in all_headers
        return self._send(request, replay_safe, accept, stream, token)

    def _send(
        self,
        request: httpx.Request,
        replay_safe: bool,
        accept: tuple[int, ...],
        stream: bool,
        token: str | None,
    ) -> httpx.Response:
        """The retry loop of ``request``."""
        attempt = 0
        method, path = request.method, request.url.path
        while True:
            self._sleep(self.budgets.wait_s(token, method, path))
            try:
                response = self.http.send(request, stream=stream)
            except httpx.TransportError:
                if not replay_safe or attempt >= self.retries:
                    raise
                self._sleep(self._backoff(attempt))
                attempt += 1
                continue
            self.budgets.note(token, method, path, response.headers)
            status = response.status_code
            if status < 400 or status in accept:
                return response
            if stream:
                response.read()  # the error body, then let the connection go
                response.close()
            if status in (429, 503) and attempt < self.retries:
                wait = retry_after_seconds(response)
                self._sleep(self._backoff(attempt) if wait is None else wait)
                attempt += 1
                continue
            raise error_from_response(response)

    def _backoff(self, attempt: int) -> float:
        return self.backoff_s * (2**attempt)

    @staticmethod
    def _sleep(seconds: float) -> None:
        if seconds > 0:
            time.sleep(min(seconds, MAX_WAIT_S))
