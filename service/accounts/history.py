"""An account's matches: its own list (``GET /v1/account/matches``), its
public history (``GET /v1/accounts/{name}/matches``), and the profile's
figures.

Indexes on the account's slot (service/storage/accounts.py), written after
each commit by service/play/follow.py: ``account:{<aid>}:matches`` (every
match it holds a seat of, by creation) and ``account:{<aid>}:finished`` (its
finished matches, by the time they were counted). Only public fields of a
match are shown (its summary, as the lobby shows it, and the result).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from service.accounts.seats import account_seat
from service.model.accounts import RECENT
from service.model.documents import summary
from service.storage import accounts as stored

if TYPE_CHECKING:
    from service.runtime.services import Services

# How many documents one read of the whole-history export loads.
EXPORT_PAGE = 100


def own_matches(
    services: Services, aid: str, status: str | None, to_act: bool, page: int, page_size: int
) -> tuple[list[dict], int]:
    """``(summaries newest first, total)`` of the account's matches, filtered
    by ``status`` and, with ``to_act``, to those where its seat is to act now."""
    docs = all_docs(services, aid)
    if status is not None:
        docs = [doc for doc in docs if doc["status"] == status]
    if to_act:
        docs = [doc for doc in docs if is_to_act(doc, aid)]
    start = (page - 1) * page_size
    return [summary(doc) for doc in docs[start : start + page_size]], len(docs)


def all_docs(services: Services, aid: str) -> list[dict]:
    """The documents of every match the account holds a seat of, newest first."""
    ids, _ = stored.page_ids(services.redis, stored.matches_key(aid), 0, -1)
    return [doc for doc in services.store.load_docs(ids) if doc is not None]


def is_to_act(doc: dict, aid: str) -> bool:
    """Account ``aid`` holds a seat of ``doc`` that is to act now."""
    seat = account_seat(doc, aid)
    if seat is None or doc["seats"][seat].get("resigned"):
        return False
    return doc["status"] == "active" and seat in doc["to_act"]


def finished_page(services: Services, aid: str, page: int, page_size: int) -> tuple[list[dict], int]:
    """``(summaries newest first, total)`` of one page of the finished matches."""
    ids, total = stored.page_ids(services.redis, stored.finished_key(aid), (page - 1) * page_size, page_size)
    return [summary(doc) for doc in services.store.load_docs(ids) if doc is not None], total


def finished_total(services: Services, aid: str) -> int:
    """How many finished matches the account has."""
    return int(services.redis.zcard(stored.finished_key(aid)))


def iter_finished(services: Services, aid: str) -> Iterator[dict]:
    """Every finished match's summary, newest first, read a page at a time."""
    return (summary(doc) for doc in iter_finished_docs(services, aid))


def iter_finished_docs(services: Services, aid: str) -> Iterator[dict]:
    """Every finished match's document, newest first, read a page at a time
    (from its archive record once its hot keys are gone)."""
    offset = 0
    while True:
        ids, total = stored.page_ids(services.redis, stored.finished_key(aid), offset, EXPORT_PAGE)
        for doc in services.store.load_docs(ids):
            if doc is not None:
                yield doc
        offset += EXPORT_PAGE
        if not ids or offset >= total:
            return


def figures(services: Services, aid: str) -> dict[str, Any]:
    """The profile's ``games`` and ``recent``."""
    ids, _ = stored.page_ids(services.redis, stored.finished_key(aid), 0, RECENT)
    recent = []
    for doc in services.store.load_docs(ids):
        seat = None if doc is None else account_seat(doc, aid)
        if doc is None or seat is None:
            continue
        winners = (doc.get("result") or {}).get("winners") or []
        recent.append(
            {
                "match_id": doc["id"],
                "game": doc["game"],
                "seat": seat,
                "won": seat in winners,
                "finished_at": doc["updated_at"],
            }
        )
    return {"games": stored.read_games(services.redis, aid), "recent": recent}
