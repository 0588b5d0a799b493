"""Listing a seat's legal actions (GET /v1/matches/{id}/actions), and the
first read of a match on the routes of its seats: the bearer's view of it,
counted for the rate limit in the same round trip."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import engine
from service.accounts.seats import READ, seat_in
from service.model.errors import not_found
from service.model.tokens import hash_token
from service.runtime.state_cache import engine_state
from service.storage.rate_limit import load_charged
from service.storage.records import StoredMatch

if TYPE_CHECKING:
    from service.runtime.services import Services
    from service.storage.rate_limit import RateCharge


def legal_actions(
    services: Services, match_id: str, seat: int, stored: StoredMatch | None = None
) -> dict[str, Any]:
    """GET /v1/matches/{id}/actions -> ``{"game", "status", "version", "seat", "actions"}``.

    ``stored``: the match as the route already read it (saves a round trip).
    """
    if stored is None:
        stored = services.store.load(match_id)
    if stored is None:
        raise not_found("match", match_id=match_id)
    doc = stored.doc
    actions = []
    if doc["status"] == "active" and seat in doc["to_act"]:
        game = engine.get_game(doc["game"])
        actions = game.legal_actions(engine_state(services, game, stored), seat)
    return {
        "game": doc["game"],
        "status": doc["status"],
        "version": doc["version"],
        "seat": seat,
        "actions": actions,
    }


def load_as_bearer(
    services: Services, bearer: str | None, charge: RateCharge | None, match_id: str
) -> StoredMatch | None:
    """The match as the bearer's token sees it: one Redis round trip, which
    also counts the request for the rate limit (``charge``: the route's
    deferred count, storage.rate_limit.RateCharge, or None)."""
    return load_charged(services.store, match_id, hash_token(bearer) if bearer else None, charge)


def list_moves(
    services: Services, bearer: str | None, charge: RateCharge | None, match_id: str
) -> dict[str, Any]:
    """GET /v1/matches/{id}/actions for the bearer's seat (404, 401, 403 first);
    ``charge`` as in ``play_move``."""
    stored = load_as_bearer(services, bearer, charge, match_id)
    seat = seat_in(services, stored, match_id, bearer, READ)
    return legal_actions(services, match_id, seat, stored)
