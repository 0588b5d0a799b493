"""Turn timers: a human decision past its deadline is made by the ``medium`` AI.

A match created with ``turn_timeout_s`` > 0 gives each pending human seat a
deadline (documents.refresh_deadlines), kept in the deadline index. When the
sweeper finds one past, the ``medium`` AI chooses from that seat's view and
the choice goes through ``playing.submit_action`` like any action, with the
version it was chosen at: if the person moved first, the version check
refuses the timer's action; if the timer committed first, the person's
request is refused (``turn_timed_out``). Exactly one of them applies.

The commit logs ``turn_timed_out`` (``consecutive``: time-outs in a row);
after ``TURN_TIMEOUTS_TO_AI`` in a row the AI keeps the seat
(``seat_handed_to_ai``), as on resign.
"""

import logging
from collections.abc import Callable

import engine
from service.model.errors import ApiError, api_error
from service.play.moves import Submission, submit_action
from service.runtime.services import Services
from service.worker import ai_jobs

log = logging.getLogger(__name__)


def due_seats(doc: dict, now_ms: int) -> list[int]:
    """The pending human seats whose deadline passed by ``now_ms``, earliest first."""
    if doc["status"] != "active":
        return []
    return [
        int(seat)
        for seat, ms in sorted((doc.get("deadlines") or {}).items(), key=lambda item: item[1])
        if ms <= now_ms
    ]


def fire_due(
    services: Services, doc: dict, now_ms: int, on_timeout: Callable[[dict], None] | None = None
) -> tuple[int, dict]:
    """Let the AI make each decision of ``doc`` whose deadline passed by
    ``now_ms`` (once per seat: a decision that follows is the next visit's);
    returns ``(how many, the match's latest document)``.

    ``on_timeout(doc)`` is called after each one (metrics)."""
    fired = 0
    for seat in due_seats(doc, now_ms):
        if str(seat) not in (doc.get("deadlines") or {}):
            continue  # an earlier time-out of this visit changed who decides
        submission = Submission(
            seat, version=doc["version"], choose=ai_jobs.chooser(seat), respond=False, timed_out=True
        )
        try:
            doc = submit_action(services, doc["id"], submission)["doc"]
        except (ApiError, engine.EngineError) as caught:
            error = api_error(caught)
            # The person (or another seat) moved first: the next sweep looks again.
            log.info(
                "turn timer of seat %s in %s at v%s not applied: %s",
                seat,
                doc["id"],
                doc["version"],
                error.code,
            )
            break
        fired += 1
        if on_timeout is not None:
            on_timeout(doc)
    return fired, doc
