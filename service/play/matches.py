"""Match operations: create, read, lobby, join, resign.

Each function is one operation called by one route; it raises ``ApiError``
(or an engine error, mapped in errors.py) and returns plain dicts.
"""

from __future__ import annotations

import logging
import secrets
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

import redis

import engine
from service.accounts import seats as account_seats
from service.accounts.auth import authenticate, require_scope
from service.model.dice import Dice
from service.model.documents import (
    engine_events,
    match_body,
    new_event,
    now,
    open_seats,
    refresh_play_status,
    summary,
    touch,
)
from service.model.errors import ApiError, account_token_required, unauthorized, validation
from service.model.tokens import hash_token, new_token
from service.play import ai, idempotency
from service.play.commits import Plan, change_match, create_match_record
from service.play.follow import after_commit
from service.ratings.pools import pool_of
from service.runtime.state_cache import engine_state
from service.storage.records import Change

if TYPE_CHECKING:
    from service.play.commits import Committed
    from service.runtime.services import Services
    from service.storage.records import StoredMatch

log = logging.getLogger(__name__)


def _resolved_options(game: Any, num_players: int, options: dict[str, Any]) -> dict[str, Any]:
    """The match's complete options. Names and choices are checked against
    the catalogue here (the contract's field errors); the defaults of those
    left out come from the game, since some depend on the player count
    (Anno 1452: 2 players play ``ottokar_a``, not the catalogue's ``standard``)."""
    unknown = sorted(set(options) - set(game.options))
    if unknown:
        raise validation("unknown option", fields={"options": [f"unknown option {n!r}" for n in unknown]})
    for name, value in options.items():
        spec = game.options[name]
        choices = spec.get("choices") if isinstance(spec, dict) else None
        if choices is not None and value not in choices:
            raise validation("invalid option", fields={"options": {name: [f"one of {choices}"]}})
    return game.resolve_options(num_players, options)


def _seat_docs(
    requested: list[dict], issue_tokens: bool = True
) -> tuple[list[dict], dict[str, str], dict[str, int]]:
    seats, tokens, hashes = [], {}, {}
    for index, seat in enumerate(requested):
        kind = seat["kind"]
        seats.append(
            {
                "seat": index,
                "kind": kind,
                "name": seat.get("name"),
                "level": seat.get("level", "medium") if kind == "ai" else None,
                "resigned": False,
                "account": None,
            }
        )
        if kind == "human" and issue_tokens:
            token, token_hash = new_token()
            tokens[str(index)] = token
            hashes[token_hash] = index
    return seats, tokens, hashes


def _dice(config: dict[str, Any], body: dict[str, Any]) -> Dice:
    """Fair dice unless the body asks for reproducible ones (which need a seed
    and a server that allows them)."""
    if body["dice"] == "fair":
        return Dice.fair(body.get("seed"))
    if not config["ALLOW_REPRODUCIBLE_DICE"]:
        raise validation(
            "this server deals fair dice only",
            fields={"dice": ["reproducible dice are not allowed on this server"]},
        )
    if "seed" not in body:
        raise validation(
            "reproducible dice need a seed", fields={"seed": ["required when dice is reproducible"]}
        )
    return Dice.reproducible(body["seed"])


def create_match(services: Services, body: dict[str, Any], bearer: str | None = None) -> dict[str, Any]:
    """POST /v1/matches -> ``{"match", "tokens"}`` (the match as a spectator sees it).

    With an account token (``match:create``) the first human seat is the
    account's (422 without a human seat); its seat token is issued as well."""
    game = engine.get_game(body["game"])
    _check_rated_creator(body, bearer)
    count = len(body["seats"])
    if not game.min_players <= count <= game.max_players:
        raise validation(
            "wrong number of seats",
            fields={"seats": [f"{game.id} takes {game.min_players} to {game.max_players} seats"]},
        )
    options = _resolved_options(game, count, body["options"])
    rated = bool(body.get("rated"))
    new = new_match(
        game, options, body["seats"], _dice(services.config, body), body["turn_timeout_s"], rated=rated
    )
    if account_seats.is_account_token(bearer):
        _seat_creator(services, new.doc, bearer)
    committed = create_match_record(
        services, new.doc, new.change(game, set_tokens=new.token_hashes), list(new.token_hashes)
    )
    after_commit(services, committed)
    committed.answer()
    return {"match": match_body(game, new.doc, new.state, None), "tokens": new.tokens}


def _seat_creator(services: Services, doc: dict, bearer: str | None) -> None:
    principal = require_scope(authenticate(services, bearer), account_seats.CREATE)
    humans = [seat for seat in doc["seats"] if seat["kind"] == "human"]
    if not humans:
        raise validation(
            "an account's match needs a human seat for it",
            fields={"seats": ["at least one human seat when created with an account token"]},
        )
    account_seats.bind_seat(services, humans[0], principal)


def _rated_seat_refusal(bearer: str | None, message: str) -> ApiError:
    """A rated match's seat taken without an account token: 401 without a
    token, 403 ``account_token_required`` with a seat token (a credential
    that may not hold a rated seat)."""
    if not bearer:
        return unauthorized(message)
    return account_token_required(f"{message}; this bearer is a seat token, not an account token")


def _check_rated_creator(body: dict[str, Any], bearer: str | None) -> None:
    """A rated match's human seat (the schema allows one) is its creator's account's."""
    humans = any(seat["kind"] == "human" for seat in body["seats"])
    if body.get("rated") and humans and not account_seats.is_account_token(bearer):
        raise _rated_seat_refusal(
            bearer, "a rated match's human seat is its creator's account's: create it with an account token"
        )


@dataclass
class NewMatch:
    """A match made but not stored yet."""

    doc: dict
    state: object
    tokens: dict  # seat (str) -> bearer token
    token_hashes: dict  # token hash -> seat
    events: list  # the set-up's events, numbered for storage: [(seq, version, event)]

    def change(self, game: Any, **fields: Any) -> Change:
        """The commit that stores the match: doc, state and set-up events."""
        return Change(doc=self.doc, state=game.dump(self.state), events=self.events, **fields)


def new_match(
    game: Any,
    options: dict[str, Any],
    seat_requests: list[dict],
    dice: Dice,
    turn_timeout_s: int,
    match_id: str | None = None,
    tokens: bool = True,
    rated: bool = False,
) -> NewMatch:
    """A new match of ``game`` (``tokens``: one per human seat).

    The set-up's events (its dice, draws and shuffles a player may learn
    of) open the match's event log at version 0, private parts kept.
    """
    state, setup_events = game.setup_with_events(len(seat_requests), options, dice.seed)
    seats, issued, hashes = _seat_docs(seat_requests, tokens)
    created_at, created_ms = now()
    doc = {
        "id": match_id or secrets.token_hex(8),
        "game": game.id,
        "options": options,
        **dice.doc_fields(),
        "seats": seats,
        "status": "waiting",
        "version": 0,
        "seq": 0,
        "to_act": [],
        "result": None,
        "turn_timeout_s": turn_timeout_s,
        "rated": rated,
        "pool": pool_of(game.id, options),
        "created_at": created_at,
        "created_ms": created_ms,
        "updated_at": created_at,
        "updated_ms": created_ms,
    }
    events = engine_events(doc, doc["version"], setup_events)
    refresh_play_status(game, doc, state)
    return NewMatch(doc, state, issued, hashes, events)


def get_match(
    services: Services, match_id: str, token: str | None, cached_versions: set[int] | str | None = None
) -> tuple[int, dict[str, Any] | None]:
    """GET /v1/matches/{id} -> ``(version, Match)`` for the bearer (or a spectator).

    The Match is None when ``cached_versions`` (If-None-Match: a set of
    versions, or "*") holds the current version.
    """
    stored, viewer = account_seats.load_for_viewer(services, match_id, token)
    doc = stored.doc
    try:
        ai.recover_if_stalled(services, doc)
    except redis.RedisError:
        log.warning("could not check the AI job of match %s", match_id, exc_info=True)
    if cached_versions == "*" or doc["version"] in (cached_versions or ()):
        return doc["version"], None
    game = engine.get_game(doc["game"])
    return doc["version"], match_body(game, doc, engine_state(services, game, stored), viewer)


def lobby(
    services: Services, status: str | None, game_id: str | None, page: int, page_size: int
) -> tuple[list[dict], int]:
    """GET /v1/matches -> ``(summaries newest first, total)``."""
    if game_id is not None and game_id not in engine.list_games():
        return [], 0
    ids, total = services.store.lobby_page(status, game_id, (page - 1) * page_size, page_size)
    items = []
    for doc in services.store.load_docs(ids):
        if doc is None:
            continue
        if status is not None and doc["status"] != status:
            # The index missed a status change (it is written after the
            # match's commit, best effort): repair it, leave the entry out.
            services.store.after_commit(doc)
            continue
        items.append(summary(doc))
    return items, total


def _seat_to_join(doc: dict, requested: int | None) -> int:
    if requested is not None:
        if requested >= len(doc["seats"]):
            raise validation("no such seat", fields={"seat": [f"seats are 0..{len(doc['seats']) - 1}"]})
        if doc["seats"][requested]["kind"] != "open":
            raise ApiError(409, "seat_taken", f"seat {requested} is taken", seat=requested)
        return requested
    free = open_seats(doc)
    if not free:
        raise ApiError(409, "seat_taken", "the match has no open seat")
    return free[0]


def join_match(services: Services, match_id: str, body: dict[str, Any], bearer: str | None = None) -> Any:
    """POST /v1/matches/{id}/join -> ``{"seat", "token"}``; with an account
    token (``match:play``) the seat is bound to the account (409
    ``already_seated`` if it holds one of this match)."""
    token, token_hash = new_token()
    principal = None
    if account_seats.is_account_token(bearer):
        principal = require_scope(authenticate(services, bearer), account_seats.PLAY)

    def plan(stored: StoredMatch) -> Plan:
        doc = stored.doc
        if principal is not None:
            account_seats.check_not_seated(doc, principal.aid)
        elif doc.get("rated"):
            raise _rated_seat_refusal(bearer, "a rated match's seat is joined with an account token")
        seat = _seat_to_join(doc, body.get("seat"))
        doc["seats"][seat].update(kind="human", name=body.get("name"))
        if principal is not None:
            account_seats.bind_seat(services, doc["seats"][seat], principal)
        doc["version"] += 1
        doc["seq"] += 1
        event = new_event(doc["seq"], doc["version"], "player_joined", seat, {"name": body.get("name")})
        game = engine.get_game(doc["game"])
        state = engine_state(services, game, stored)
        refresh_play_status(game, doc, state)
        touch(doc)
        change = Change(doc=doc, events=[event], set_tokens={token_hash: seat})
        # A join leaves the engine state as it is, at the new revision.
        return Plan({"seat": seat, "token": token}, change, [token_hash], state_after=state)

    return _committed(services, change_match(services, match_id, plan))


def resign(services: Services, match_id: str, token: str | None, idempotency_key: str | None = None) -> Any:
    """POST /v1/matches/{id}/resign -> the Match (spectator view: the token is revoked).

    With an ``idempotency_key``, a retry gets the first answer again, though
    the token it carries was revoked by that first resign."""
    record = idempotency.Record.of(match_id, token, idempotency_key, idempotency.RESIGN_FINGERPRINT)
    replay = None if record is None else record.stored_response(services.store)
    if replay is not None:
        return replay
    seat = account_seats.require_seat(services, match_id, token)
    # A seat token revokes itself; an account's resign revokes the seat's tokens.
    revoked = (
        services.store.seat_token_hashes(match_id, seat)
        if account_seats.is_account_token(token)
        else [hash_token(cast(str, token))]  # require_seat refused None
    )

    def plan(stored: StoredMatch) -> Plan:
        doc = stored.doc
        if doc["status"] == "finished":
            raise ApiError(409, "game_over", "the match is over")
        doc["seats"][seat].update(kind="ai", level="medium", resigned=True)
        doc["version"] += 1
        doc.setdefault("left_at", {})[str(seat)] = doc["version"]
        doc["seq"] += 1
        event = new_event(doc["seq"], doc["version"], "player_resigned", seat, {"level": "medium"})
        game = engine.get_game(doc["game"])
        state = engine_state(services, game, stored)
        refresh_play_status(game, doc, state)
        touch(doc)
        response = match_body(game, doc, state, None)
        fields = idempotency.change_fields(record, response)
        change = Change(doc=doc, events=[event], del_tokens=revoked, **fields)
        return Plan(response, change, state_after=state, revoked_token_hashes=revoked)

    return _committed(services, change_match(services, match_id, plan, record=record))


def _committed(services: Services, committed: Committed) -> Any:
    """The answer of a committed change, once what follows it is done."""
    after_commit(services, committed)
    return committed.answer()
