"""The one match a started challenge or a paired table becomes.

Its id is decided before it exists (the challenge's id; the table's, claimed
with its seekers in one script), and creating it is idempotent: the commit
script refuses an id that exists (CONFLICT), so a second caller, a retry or
a recovery path finds it made and only repeats the after-commit path, which
sends each account event once (service/play/follow.py). At-least-once
creation of one id is exactly one match.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import engine
from service.model.dice import Dice
from service.play.commits import Committed, update_indexes
from service.play.deadlines import commit_deadline
from service.play.follow import after_commit
from service.play.matches import new_match
from service.storage import meet as stored_meet

if TYPE_CHECKING:
    from service.runtime.services import Services


def _request(seat: dict[str, Any]) -> dict[str, Any]:
    """A seat of a table or challenge as a create request's seat."""
    if seat["kind"] == "account":
        return {"kind": "human", "name": seat["name"]}
    if seat["kind"] == "ai":
        return {"kind": "ai", "level": seat["level"]}
    return {"kind": "open"}


def start_claimed(services: Services, pool: str, match_id: str, table: dict[str, Any]) -> int:
    """Create the match of a table a wave claimed (unless it exists), then
    drop the claim; 1 if this call created it."""
    made = ensure_match(
        services,
        match_id,
        table["game"],
        table["options"],
        table["seats"],
        table["turn_timeout_s"],
        table["rated"],
    )
    stored_meet.drop_table(services.redis, pool, match_id)
    return int(made)


def ensure_match(
    services: Services,
    match_id: str,
    game_id: str,
    options: dict[str, Any],
    seats: list[dict[str, Any]],
    turn_timeout_s: int,
    rated: bool,
) -> bool:
    """Create match ``match_id`` unless it exists; True if this call did.

    ``seats``: ``{"kind": "account", "aid", "name", "account_kind"}``,
    ``{"kind": "ai", "level"}`` or ``{"kind": "open"}``, in seat order."""
    existing = services.store.load_doc(match_id)
    if existing is not None:
        after_commit(services, Committed(None, existing), schedule_ai=False)
        return False
    game = engine.get_game(game_id)
    options = game.resolve_options(len(seats), options)
    new = new_match(
        game,
        options,
        [_request(s) for s in seats],
        Dice.fair(),
        turn_timeout_s,
        match_id=match_id,
        tokens=False,
        rated=rated,
    )
    for doc_seat, seat in zip(new.doc["seats"], seats, strict=True):
        if seat["kind"] == "account":
            doc_seat["account_id"] = seat["aid"]
            doc_seat["account"] = {"name": seat["name"], "kind": seat.get("account_kind", "human")}
    result = services.store.commit(
        match_id, None, new.change(game), commit_deadline(None, new.doc, services.config)
    )
    if result.outcome != "OK":  # made a moment ago by another caller
        existing = services.store.load_doc(match_id)
        if existing is not None:
            after_commit(services, Committed(None, existing), schedule_ai=False)
        return False
    update_indexes(services, new.doc)
    after_commit(services, Committed(None, new.doc))
    return True
