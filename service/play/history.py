"""Events (redacted per viewer) and the replay of a finished match."""

from typing import Any

from service.accounts.seats import load_for_viewer
from service.model.dice import proof
from service.model.documents import public_event, summary
from service.model.errors import ApiError, not_found


def list_events(services: Any, match_id: str, token: str | None, after: int, limit: int) -> dict[str, Any]:
    """GET /v1/matches/{id}/events -> ``{"events", "last_seq", "more"}``."""
    stored, viewer = load_for_viewer(services, match_id, token)
    # One extra entry tells whether the limit cut the list.
    entries = services.store.read_events(match_id, after, limit + 1)
    more = len(entries) > limit
    entries = entries[:limit]
    events = [public_event(seq, version, event, viewer) for seq, version, event in entries]
    last_seq = events[-1]["seq"] if events else min(after, stored.doc["seq"])
    return {"events": events, "last_seq": last_seq, "more": more}


def replay(services: Any, match_id: str) -> dict[str, Any]:
    """GET /v1/matches/{id}/replay: the seed and every action, once finished.

    Before the end the answer is 409 ``illegal_action`` with
    ``details.reason = "match_not_finished"``: the request is well-formed but
    not possible yet, which is what that code means in the contract.
    """
    stored = services.store.load(match_id)
    if stored is None:
        raise not_found("match", match_id=match_id)
    doc = stored.doc
    if doc["status"] != "finished":
        raise ApiError(
            409,
            "illegal_action",
            "the replay is available once the match is finished",
            reason="match_not_finished",
        )
    actions = stored.archived.actions if stored.archived else services.store.read_actions(match_id)
    return replay_body(doc, actions)


def replay_body(doc: dict, actions: list[dict]) -> dict[str, Any]:
    """The Replay of finished match ``doc`` whose replay log is ``actions``."""
    return {
        "seed": doc["seed"],
        "dice": summary(doc)["dice"],
        "seed_commitment": doc["seed_commitment"],
        "proof": proof(doc),
        "game": doc["game"],
        "options": doc["options"],
        "seats": doc["seats"],
        "actions": actions,
        "result": doc["result"],
    }
