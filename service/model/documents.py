"""The stored match document and what each viewer is shown of it.

A document (``doc``) is the JSON stored beside the engine state: seats,
status, version, last event seq, to_act, result and timestamps. The engine
state is shown only through ``game.view`` and events only through
``engine.redact_event``; nothing else serializes them for a client.
"""

import time
from typing import Any

import engine
from service.model.clock import iso_utc


def now() -> tuple[str, int]:
    """``(iso8601 string, epoch milliseconds)`` in UTC."""
    ms = int(time.time() * 1000)
    return iso_utc(ms), ms


def touch(doc: dict) -> None:
    doc["updated_at"], doc["updated_ms"] = now()


def open_seats(doc: dict) -> list[int]:
    return [s["seat"] for s in doc["seats"] if s["kind"] == "open"]


def pending_ai_seat(doc: dict) -> int | None:
    """The first seat to act that an AI plays, or None."""
    if doc["status"] != "active":
        return None
    for seat in doc["to_act"]:
        if doc["seats"][seat]["kind"] == "ai":
            return seat
    return None


def refresh_play_status(game: Any, doc: dict, state: Any, actor: int | None = None) -> None:
    """Recompute ``status``, ``to_act``, ``result`` and the turn timers'
    ``deadlines`` from the engine state; ``actor``: the seat whose action
    this is (its next decision gets a fresh deadline)."""
    before = list(doc.get("to_act", []))
    if doc["status"] == "waiting" and not open_seats(doc):
        doc["status"] = "active"
    outcome = game.outcome(state)
    if outcome is not None:
        doc["status"] = "finished"
        doc["to_act"] = []
        doc["result"] = _result(doc, outcome)
    elif doc["status"] == "active":
        doc["to_act"] = list(game.to_act(state))
    else:
        doc["to_act"] = []
    refresh_deadlines(doc, before, actor)


def refresh_deadlines(doc: dict, before: list[int], actor: int | None, now_ms: int | None = None) -> None:
    """Each pending human seat's deadline (epoch ms) when the match has a
    turn timer: a seat that just acted, or that was not pending before,
    starts a fresh decision; a seat still waiting on the same decision (others
    acted meanwhile) keeps its deadline."""
    timeout_ms = doc.get("turn_timeout_s", 0) * 1000
    old = doc.get("deadlines") or {}
    now_ms = int(time.time() * 1000) if now_ms is None else now_ms
    deadlines = {}
    for seat in doc["to_act"] if timeout_ms else ():
        if doc["seats"][seat]["kind"] != "human":
            continue
        key = str(seat)
        keep = key in old and seat in before and seat != actor
        deadlines[key] = old[key] if keep else now_ms + timeout_ms
    doc["deadlines"] = deadlines


def _result(doc: dict, outcome: Any) -> Any:
    """The engine's outcome, where a resigned seat counts as a loss."""
    resigned = [s["seat"] for s in doc["seats"] if s.get("resigned")]
    result = dict(outcome)
    result["engine_winners"] = list(outcome.get("winners", []))
    result["winners"] = [w for w in result["engine_winners"] if w not in resigned]
    result["resigned"] = resigned
    return result


# The events the service makes (``new_event``), beside the engine's: an
# archive record keeps them as they are, the engine's are replayed.
SERVICE_EVENTS = frozenset(
    {"player_joined", "player_resigned", "turn_timed_out", "seat_handed_to_ai", "rematch_created"}
)
# Those that are an operation of their own (a version without an action).
OPERATION_EVENTS = frozenset({"player_joined", "player_resigned", "rematch_created"})


def new_event(seq: int, version: int, etype: str, seat: int | None, data: dict) -> tuple[int, int, dict]:
    """A service-made event (joins, resignations), shaped like the engine's."""
    return (seq, version, {"type": etype, "seat": seat, "data": data})


def engine_events(doc: dict, version: int, events: list) -> list[tuple[int, int, dict]]:
    """Number engine events for storage: ``[(seq, version, event)]``; bumps ``doc['seq']``."""
    out = []
    for event in events:
        doc["seq"] += 1
        out.append((doc["seq"], version, event))
    return out


def public_event(seq: int, version: int, event: dict, viewer: int | None) -> dict[str, Any]:
    """The Event of the contract, redacted for ``viewer`` (seat or None)."""
    shown = engine.redact_event(event, viewer)
    return {
        "seq": seq,
        "version": version,
        "type": shown["type"],
        "seat": shown["seat"],
        "data": shown["data"],
    }


def view_for(game: Any, doc: dict, state: Any, viewer: int | None) -> Any:
    """``game.view`` with the seats' names filled in."""
    view = game.view(state, viewer)
    players = view.get("players")
    if isinstance(players, list):
        for seat, player in zip(doc["seats"], players, strict=False):
            if isinstance(player, dict):
                player["name"] = seat.get("name")
    return view


_SUMMARY_KEYS = (
    "id",
    "game",
    "options",
    "status",
    "version",
    "seats",
    "to_act",
    "result",
    "seed_commitment",
    "turn_timeout_s",
    "pool",
    "created_at",
    "updated_at",
)


def _public_seat(seat: dict) -> dict:
    return (
        {key: value for key, value in seat.items() if key != "account_id"} if "account_id" in seat else seat
    )


def summary(doc: dict) -> dict[str, Any]:
    """The lobby's MatchSummary."""
    body = {key: doc.get(key) for key in _SUMMARY_KEYS}
    # A seat's account id is the server's (service/accounts/seats.py): never
    # in a body, even one rendered without its schema (the streams').
    body["seats"] = [_public_seat(seat) for seat in doc["seats"]]
    # Matches stored before fair dice existed took the creator's seed as it was.
    body["dice"] = doc.get("dice", "reproducible")
    body["deadlines"] = {seat: iso_utc(ms) for seat, ms in (doc.get("deadlines") or {}).items()}
    body["rematch"] = doc.get("rematch")
    body["rated"] = bool(doc.get("rated"))
    return body


def match_body(game: Any, doc: dict, state: Any, viewer: int | None) -> dict[str, Any]:
    """The contract's Match for ``viewer``."""
    body = summary(doc)
    body["you"] = viewer
    body["view"] = view_for(game, doc, state, viewer)
    return body
