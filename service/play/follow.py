"""What follows every commit of a match: the accounts' events, then the AI's turn.

``after_commit(services, committed)`` is the one place every sender passes
after ``change_match`` (or a new match's first commit): a person over HTTP,
an AI job, a turn timer. For each seat bound to an account it works out,
from the committed document alone, the account events the commit calls for
and sends each at most once (a ``SET NX`` per account, match, version and
type, on the account's slot: service/storage/accounts.note_commit), so a
retried after-commit path sends nothing twice:

- ``match_started`` (once per match): the match left ``waiting``;
- ``your_turn`` (once per version): the seat is to act; ``deadline`` ISO or null;
- ``seat_handed_to_ai`` (once per match): ``reason`` ``resign`` or ``timeout``;
- ``match_finished`` (once per match): ``result`` as the public Match shows it.

A commit that finishes the match then runs its finish steps
(service/play/finishing.py: the account figures' count among them).

Each event's ``data`` is ``game``, ``seat``, ``version`` and the fields above:
nothing a spectator could not see. Sending is best effort: a Redis error is
logged, never the request's failure (the match is committed).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import redis

from service.accounts.events import publish_account_event
from service.accounts.match_events import account_events
from service.accounts.seats import bound_seats
from service.play import ai, finishing
from service.storage import accounts as stored_accounts

if TYPE_CHECKING:
    from service.play.commits import Committed
    from service.runtime.services import Services

log = logging.getLogger(__name__)


def after_commit(services: Services, committed: Committed, schedule_ai: bool = True) -> None:
    """Send the account events ``committed`` calls for, then schedule the AI's turn."""
    doc = committed.doc
    seated = bound_seats(doc) if doc is not None else []
    if doc is not None and seated:
        try:
            notify_accounts(services, doc, seated)
        except redis.RedisError:
            log.warning("account events of match %s not sent", doc["id"], exc_info=True)
    if doc is not None and committed.finished_now:
        finishing.finish(services, doc)
    if schedule_ai:
        ai.schedule_after_commit(services, committed)


def notify_accounts(services: Services, doc: dict, seated: list[tuple[int, str]]) -> None:
    """Index the match for the accounts ``seated`` (``bound_seats(doc)``), send
    its events once, count a finish once."""
    planned = [event for seat, aid in seated for event in account_events(services.config, doc, seat, aid)]
    indexed = [(aid, doc["id"], int(doc.get("created_ms", 0))) for _, aid in seated]
    claims = [(aid, doc["id"], once) for aid, _, _, once in planned]
    won = stored_accounts.note_commit(services.redis, indexed, claims)
    for (aid, event_type, data, _), send in zip(planned, won, strict=True):
        if send:
            publish_account_event(services, aid, event_type, data, match_id=doc["id"])
