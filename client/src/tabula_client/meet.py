"""Meeting opponents, as a mixin of ``Client`` (docs/matchmaking.md):
challenges (invite accounts by name; accept or decline one) and seeks
("Play now": wait in a rating pool until a wave pairs you).

A challenge or seek is a plain dict as the server sends it (``Challenge``,
``Seek`` in openapi.yaml). Once a challenge is ``started`` (``match_id``)
or a seek ``matched`` (``match_id``, ``seat``), the account token plays the
account's seat of that match."""

from typing import Any

import httpx

from .models import JSON

# operationId (openapi.yaml) -> method, merged into ``OPERATIONS``.
MEET_OPERATIONS: dict[str, str] = {
    "createChallenge": "create_challenge",
    "listChallenges": "challenges",
    "getChallenge": "challenge",
    "cancelChallenge": "cancel_challenge",
    "acceptChallenge": "accept_challenge",
    "declineChallenge": "decline_challenge",
    "createSeek": "create_seek",
    "listSeeks": "seeks",
    "cancelSeek": "cancel_seek",
}


def account_seat(name: str) -> JSON:
    """A challenge's seat for the account ``name``."""
    return {"kind": "account", "name": name}


def ai_seat(level: str = "medium") -> JSON:
    return {"kind": "ai", "level": level}


OPEN_SEAT: JSON = {"kind": "open"}


class MeetMixin:
    """Needs ``_json`` (``Client`` has it)."""

    def _json(self, method: str, path: str, **kwargs: Any) -> Any:
        raise NotImplementedError

    def _call(self, method: str, path: str, **kwargs: Any) -> httpx.Response:
        raise NotImplementedError

    # -- challenges --

    def create_challenge(
        self,
        game: str,
        seats: list[JSON],
        options: JSON | None = None,
        rated: bool = False,
        turn_timeout_s: int | None = None,
        expires_in_s: int | None = None,
    ) -> JSON:
        """Challenge accounts (``seats`` after yours, seat 0: ``account_seat(name)``,
        ``ai_seat(level)``, ``OPEN_SEAT``); scope ``match:create``. ``NotFound``
        (404, ``details["name"]``) for a name no account has; 429 past the
        account's challenge window."""
        body: JSON = {"game": game, "seats": seats, "options": options or {}, "rated": rated}
        if turn_timeout_s is not None:
            body["turn_timeout_s"] = turn_timeout_s
        if expires_in_s is not None:
            body["expires_in_s"] = expires_in_s
        return dict(self._json("POST", "/v1/challenges", json=body))

    def challenges(self) -> list[JSON]:
        """The account's challenges, sent and received, newest first (``match:read``)."""
        return list(self._json("GET", "/v1/challenges"))

    def challenge(self, challenge_id: str) -> JSON:
        return dict(self._json("GET", f"/v1/challenges/{challenge_id}"))

    def cancel_challenge(self, challenge_id: str) -> JSON:
        """The challenger cancels (409 ``Conflict`` once it started, was declined or expired)."""
        return dict(self._json("DELETE", f"/v1/challenges/{challenge_id}"))

    def accept_challenge(self, challenge_id: str) -> JSON:
        """Accept (``match:play``); the last acceptance starts the match (``match_id``)."""
        return dict(self._json("POST", f"/v1/challenges/{challenge_id}/accept"))

    def decline_challenge(self, challenge_id: str) -> JSON:
        return dict(self._json("POST", f"/v1/challenges/{challenge_id}/decline"))

    # -- seeks --

    def create_seek(
        self,
        pool: str,
        counts: list[int] | None = None,
        rated: bool = True,
        rating_min: float | None = None,
        rating_max: float | None = None,
        ai_fill: JSON | None = None,
    ) -> JSON:
        """Play now in ``pool`` (``match:play``): ``counts`` the player counts you
        accept (default ``[2]``); ``ai_fill`` ``{"level", "after_s"}``. Keep it
        alive with an open ``account_stream()`` or by calling ``seeks()``."""
        body: JSON = {"pool": pool, "counts": counts or [2], "rated": rated}
        for name, value in (("rating_min", rating_min), ("rating_max", rating_max), ("ai_fill", ai_fill)):
            if value is not None:
                body[name] = value
        return dict(self._json("POST", "/v1/seeks", json=body))

    def seeks(self) -> list[JSON]:
        """The account's seeks (waiting, and recently paired or ended); renews the waiting ones."""
        return list(self._json("GET", "/v1/seeks"))

    def cancel_seek(self, seek_id: str) -> JSON:
        """Cancel a waiting seek (409 ``Conflict`` once it was paired)."""
        return dict(self._json("DELETE", f"/v1/seeks/{seek_id}"))
