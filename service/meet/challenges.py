"""Challenges: an account invites accounts by name to one match.

``POST /v1/challenges`` stores the challenge (its challenger sits in seat 0,
``seats`` are the others: accounts by name, built-in AI levels, open seats)
and sends each invited account a ``challenge`` event (account stream and
webhook). Each invitee accepts or declines; the challenger may cancel; it
expires ``CHALLENGE_TTL_S`` after it was made (or sooner, ``expires_in_s``).

Every change of state is one Lua script on the challenge's own key
(service/storage/meet.py), so racing accepts, declines and cancels are
ordered: the accept that completes the set moves it to ``started`` exactly
once, and a cancel or decline after it finds it started (409). The match's
id is the challenge's id: creating it is idempotent (starting.py), so the
accept that started it creates it, and any later read of the challenge
creates it if that accept died on the way. At most one match per challenge.
"""

from __future__ import annotations

import json
import secrets
import time
from typing import TYPE_CHECKING, Any

import engine
from service.accounts.events import publish_account_event
from service.accounts.profiles import public_account
from service.meet.starting import ensure_match
from service.model.clock import iso_utc
from service.model.errors import ApiError, forbidden, not_found, validation
from service.play.matches import _resolved_options
from service.storage import accounts as stored_accounts
from service.storage import meet as stored
from service.storage.rate_limit import Window

if TYPE_CHECKING:
    from service.accounts.auth import Principal
    from service.runtime.services import Services

CREATE, RESPOND, READ = "match:create", "match:play", "match:read"
LIST_LIMIT = 100


def _now_ms() -> int:
    return int(time.time() * 1000)


def _charge(services: Services, aid: str) -> None:
    """Count one challenge against the account's window (429 past it)."""
    config = services.config
    window = Window(config["CHALLENGE_RATE_LIMIT"], config["CHALLENGE_RATE_WINDOW_S"], "challenges")
    if window.limit <= 0:
        return
    now = time.time()
    count = services.store.count(window.key(f"a:{{{aid}}}", now), window.seconds + 1)
    error = window.error_if_over(count, now)
    if error is not None:
        raise error


def _seat_of(services: Services, request: dict[str, Any], challenger: str) -> dict[str, Any]:
    if request["kind"] != "account":
        return {"kind": request["kind"], **({"level": request["level"]} if request["kind"] == "ai" else {})}
    try:
        account = public_account(services, request["name"])
    except ApiError:
        # As GET /v1/accounts/{name}: nobody holds the name (now).
        raise ApiError(
            404, "not_found", f"no account is named {request['name']!r}", name=request["name"]
        ) from None
    if account["status"] != "active" or account["id"] == challenger:
        raise validation(
            "not an account to invite", fields={"seats": [f"{request['name']!r} cannot be invited"]}
        )
    return {"kind": "account", "aid": account["id"], "name": account["name"], "account_kind": account["kind"]}


def _checked_seats(services: Services, body: dict[str, Any], challenger: dict[str, str]) -> list[dict]:
    me = {"kind": "account", "aid": challenger["id"], "name": challenger["name"]}
    seats = [dict(me, account_kind=challenger["kind"])]
    seats += [_seat_of(services, request, challenger["id"]) for request in body["seats"]]
    invited = [seat["aid"] for seat in seats[1:] if seat["kind"] == "account"]
    if len(set(invited)) != len(invited):
        raise validation("an account is invited twice", fields={"seats": ["each account holds one seat"]})
    return seats


def create_challenge(services: Services, principal: Principal, body: dict[str, Any]) -> dict[str, Any]:
    """POST /v1/challenges -> the Challenge (201)."""
    challenger = stored_accounts.read_account(services.redis, principal.aid)
    if challenger is None or challenger["status"] != "active":
        raise ApiError(401, "unauthorized", "unknown or revoked token")
    game = engine.get_game(body["game"])
    seats = _checked_seats(services, body, challenger)
    if not game.min_players <= len(seats) <= game.max_players:
        raise validation(
            "wrong number of seats",
            fields={"seats": [f"{game.id} takes {game.min_players - 1} to {game.max_players - 1} more"]},
        )
    options = _resolved_options(game, len(seats), body["options"])
    _charge(services, principal.aid)
    now = _now_ms()
    ttl_s = min(
        body.get("expires_in_s") or services.config["CHALLENGE_TTL_S"], services.config["CHALLENGE_TTL_S"]
    )
    doc = {
        "id": secrets.token_hex(8),
        "challenger": {"id": challenger["id"], "name": challenger["name"], "kind": challenger["kind"]},
        "game": game.id,
        "options": options,
        "seats": seats,
        "rated": body["rated"],
        "turn_timeout_s": body["turn_timeout_s"],
        "created_ms": now,
        "expires_ms": now + ttl_s * 1000,
    }
    invitees = [seat["aid"] for seat in seats[1:] if seat["kind"] == "account"]
    stored.write_challenge(services.redis, doc, invitees, services.config["CHALLENGE_KEEP_S"])
    if not invitees:  # every other seat is an AI or open: nothing to wait for
        _start(services, doc)
    fields = {"status": "pending" if invitees else "started", **{f"inv:{aid}": "0" for aid in invitees}}
    body_out = public(doc, fields, now)
    for aid in invitees:
        publish_account_event(services, aid, "challenge", body_out)
    return body_out


def _status(fields: dict[str, str], doc: dict[str, Any], now_ms: int) -> str:
    status = fields["status"]
    expires_ms = int(fields.get("expires_ms", doc["expires_ms"]))
    return "expired" if status == "pending" and now_ms >= expires_ms else status


def public(doc: dict[str, Any], fields: dict[str, str], now_ms: int) -> dict[str, Any]:
    """The Challenge as its challenger and invitees see it."""
    seats = []
    for index, seat in enumerate(doc["seats"]):
        shown: dict[str, Any] = {"seat": index, "kind": seat["kind"]}
        if seat["kind"] == "account":
            shown["name"] = seat["name"]
            shown["accepted"] = index == 0 or fields.get(f"inv:{seat['aid']}") == "1"
        if seat["kind"] == "ai":
            shown["level"] = seat["level"]
        seats.append(shown)
    status = _status(fields, doc, now_ms)
    return {
        "id": doc["id"],
        "challenger": {"name": doc["challenger"]["name"], "kind": doc["challenger"]["kind"]},
        "game": doc["game"],
        "options": doc["options"],
        "seats": seats,
        "rated": doc["rated"],
        "turn_timeout_s": doc["turn_timeout_s"],
        "status": status,
        "match_id": doc["id"] if status == "started" else None,
        "created_at": iso_utc(doc["created_ms"]),
        "expires_at": iso_utc(doc["expires_ms"]),
    }


def _load(services: Services, cid: str) -> tuple[dict[str, Any], dict[str, str]]:
    fields = stored.read_challenge(services.redis, cid)
    if fields is None or "doc" not in fields:
        raise not_found("challenge", challenge_id=cid)
    return json.loads(fields["doc"]), fields


def _party(doc: dict[str, Any], aid: str) -> bool:
    return any(seat.get("aid") == aid for seat in doc["seats"])


def _start(services: Services, doc: dict[str, Any]) -> None:
    ensure_match(
        services, doc["id"], doc["game"], doc["options"], doc["seats"], doc["turn_timeout_s"], doc["rated"]
    )


def get_challenge(services: Services, principal: Principal, cid: str) -> dict[str, Any]:
    """GET /v1/challenges/{id}: the challenger's or an invitee's (404 to anyone else).
    A started challenge whose match is missing (its accept died) is started here."""
    doc, fields = _load(services, cid)
    if not _party(doc, principal.aid):
        raise not_found("challenge", challenge_id=cid)
    if fields["status"] == "started":
        _start(services, doc)
    return public(doc, fields, _now_ms())


def respond(services: Services, principal: Principal, cid: str, action: str) -> dict[str, Any]:
    """accept | decline | cancel -> the Challenge after it."""
    doc, _ = _load(services, cid)
    if not _party(doc, principal.aid):
        raise not_found("challenge", challenge_id=cid)
    outcome, status = stored.challenge_step(services.redis, cid, action, principal.aid, _now_ms())
    if outcome == "MISSING":
        raise not_found("challenge", challenge_id=cid)
    if outcome == "FORBIDDEN":
        who = "its challenger" if action == "cancel" else "an invited account"
        raise forbidden(f"only {who} may {action} this challenge")
    if outcome == "STATE" and not (status == "started" and action == "accept"):
        raise ApiError(409, "conflict", f"the challenge is {status}", state=status)
    if status == "started":
        _start(services, doc)
    doc_now, fields = _load(services, cid)
    return public(doc_now, fields, _now_ms())


def my_challenges(services: Services, principal: Principal) -> list[dict[str, Any]]:
    """GET /v1/challenges: sent and received, newest first (finished ones kept
    ``CHALLENGE_KEEP_S`` after they expire)."""
    now = _now_ms()
    since = now - services.config["CHALLENGE_KEEP_S"] * 1000
    items = []
    for cid in stored.account_challenge_ids(services.redis, principal.aid, since, LIST_LIMIT):
        fields = stored.read_challenge(services.redis, cid)
        if fields is not None and "doc" in fields:
            items.append(public(json.loads(fields["doc"]), fields, now))
    return items
