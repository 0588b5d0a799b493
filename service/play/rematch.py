"""Rematch: the seats of a finished match play again, in one new match.

``POST /v1/matches/{id}/rematch`` with the token of a seat of the finished
match. The first call claims the rematch on the old match (its ``rematch``
field and a ``rematch_created`` event, in one compare-and-set commit, so
racing calls agree on one id) and creates the new match under that id:
same game, options, seat kinds, AI levels, timer and ``rated``, with fresh fair dice
(a seat that resigned or was handed to the AI stays the AI's: its person
left, and a seat nobody can take would wait for its turn timer). A person's
seat waits for that person's call, or plays by the turn timer. Every
call, the first included, then gets a token for its own seat in the new
match. Creating is idempotent (a match is only created where none exists),
so a call that finds the id claimed but the match not there yet (the
claimer died, or is still on its way) creates it itself.
"""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING, Any

import engine
from service.accounts.seats import require_seat
from service.model.dice import Dice
from service.model.documents import match_body, new_event, touch
from service.model.errors import ApiError
from service.model.tokens import new_token
from service.play.commits import Committed, Plan, change_match, update_indexes
from service.play.follow import after_commit
from service.play.matches import new_match
from service.ratings.pools import rateable_seat
from service.runtime.state_cache import engine_state
from service.storage.records import Change

if TYPE_CHECKING:
    from service.runtime.services import Services
    from service.storage.records import StoredMatch


def _claim(services: Services, match_id: str) -> tuple[str, dict]:
    """The rematch's id, claimed on the old match if no call did yet."""

    def plan(stored: StoredMatch) -> Plan:
        doc = stored.doc
        if doc["status"] != "finished":
            raise ApiError(
                409, "illegal_action", "a rematch is for a finished match", reason="match_not_finished"
            )
        if doc.get("rematch"):
            return Plan((doc["rematch"], doc))
        doc["rematch"] = secrets.token_hex(8)
        doc["version"] += 1
        doc["seq"] += 1
        event = new_event(doc["seq"], doc["version"], "rematch_created", None, {"match_id": doc["rematch"]})
        touch(doc)
        return Plan((doc["rematch"], doc), Change(doc=doc, events=[event]))

    committed = change_match(services, match_id, plan)
    after_commit(services, committed)
    return committed.answer()


def _seat_requests(old: dict) -> list[dict]:
    """The old match's seats as they are now, as a create request."""
    requests = []
    for seat in old["seats"]:
        requests.append(
            {"kind": "human", "name": seat["name"]}
            if seat["kind"] == "human"
            else {"kind": "ai", "name": seat["name"], "level": seat["level"]}
        )
    return requests


def _ensure_created(services: Services, old: dict, new_id: str) -> bool:
    """Create the rematch ``new_id`` of ``old`` unless it exists; True if created now."""
    if services.store.load_doc(new_id) is not None:
        return False
    game = engine.get_game(old["game"])
    new = new_match(
        game,
        old["options"],
        _seat_requests(old),
        Dice.fair(),
        old["turn_timeout_s"],
        match_id=new_id,
        tokens=False,
    )
    new.doc["rematch_of"] = old["id"]
    for seat, before in zip(new.doc["seats"], old["seats"], strict=True):
        if before.get("account_id") and seat["kind"] == "human":  # the account plays again
            seat.update(account_id=before["account_id"], account=before["account"])
    # Rated again when the old match was and every seat still may be.
    new.doc["rated"] = bool(old.get("rated")) and all(rateable_seat(s) for s in new.doc["seats"])
    result = services.store.commit(new_id, None, new.change(game))
    if result.outcome != "OK":
        return False  # another call created it a moment ago
    update_indexes(services, new.doc)
    after_commit(services, Committed(None, new.doc))
    return True


def _issue_token(services: Services, match_id: str, seat: int) -> tuple[str, dict]:
    """A fresh token for ``seat`` of ``match_id``; returns ``(token, Match for it)``."""
    token, token_hash = new_token()

    def plan(stored: StoredMatch) -> Plan:
        game = engine.get_game(stored.doc["game"])
        state = engine_state(services, game, stored)
        change = Change(doc=stored.doc, set_tokens={token_hash: seat})
        return Plan(match_body(game, stored.doc, state, seat), change, [token_hash])

    return token, change_match(services, match_id, plan).answer()


def rematch(services: Services, match_id: str, token: str | None) -> tuple[dict[str, Any], bool]:
    """POST /v1/matches/{id}/rematch -> ``({"match", "seat", "token"}, created now)``."""
    seat = require_seat(services, match_id, token)
    new_id, old = _claim(services, match_id)
    created = _ensure_created(services, old, new_id)
    new_token_value, match = _issue_token(services, new_id, seat)
    return {"match": match, "seat": seat, "token": new_token_value}, created
