"""The account events a match's committed document calls for (sent by
service/play/follow.py after each commit; the account stream's first
``your_turn`` messages are built alike). Only public fields of the match:
``game``, ``seat``, ``version``, and per type ``deadline``, ``reason`` or
``result`` (as the spectators' Match shows it).
"""

from typing import Any

from service.model.clock import iso_utc

# (account id, event type, data, the name it is sent once under)
Planned = tuple[str, str, dict[str, Any], str]


def your_turn_data(doc: dict, seat: int) -> dict[str, Any]:
    """``your_turn``'s data: ``game``, ``seat``, ``version``, ``deadline`` (ISO 8601 or null)."""
    ms = (doc.get("deadlines") or {}).get(str(seat))
    return {
        "game": doc["game"],
        "seat": seat,
        "version": doc["version"],
        "deadline": None if ms is None else iso_utc(ms),
    }


def account_events(config: dict[str, Any], doc: dict, seat: int, aid: str) -> list[Planned]:
    """The events the committed ``doc`` calls for, for ``seat`` held by ``aid``."""
    base = {"game": doc["game"], "seat": seat, "version": doc["version"]}
    status, version = doc["status"], doc["version"]
    resigned = bool(doc["seats"][seat].get("resigned"))
    planned: list[Planned] = []
    if status != "waiting":
        planned.append((aid, "match_started", base, "match_started"))
    if status == "active" and seat in doc["to_act"] and not resigned:
        planned.append((aid, "your_turn", your_turn_data(doc, seat), f"your_turn:{version}"))
    if resigned:
        planned.append((aid, "seat_handed_to_ai", dict(base, reason=_reason(config, doc, seat)), "handed"))
    if status == "finished":
        planned.append((aid, "match_finished", dict(base, result=doc.get("result")), "match_finished"))
    return planned


def _reason(config: dict[str, Any], doc: dict, seat: int) -> str:
    timeouts = (doc.get("timeouts") or {}).get(str(seat), 0)
    return "timeout" if timeouts >= config["TURN_TIMEOUTS_TO_AI"] else "resign"
