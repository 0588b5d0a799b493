"""Playing: the legal actions of a seat, and the one path that applies an action.

``submit_action`` is used by every sender (a person over HTTP, an AI job, a
turn timeout later): validate against the game's action schema, check the
turn and legality in the engine, then store state, events, the replay log
and the idempotency record in one atomic commit with the version check.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import engine
from service.accounts.seats import PLAY, is_account_token, seat_in
from service.model.documents import (
    engine_events,
    match_body,
    new_event,
    public_event,
    refresh_deadlines,
    refresh_play_status,
    touch,
)
from service.model.errors import (
    ApiError,
    precondition_failed,
    validation,
    version_conflict,
)
from service.model.etags import version_header
from service.model.tokens import hash_token
from service.play import idempotency
from service.play.commits import Committed, Plan, attempt_commit, change_match
from service.play.follow import after_commit
from service.play.listing import load_as_bearer
from service.runtime import metrics
from service.runtime.state_cache import engine_state
from service.spec.actions import validate_action
from service.storage.rate_limit import seat_check
from service.storage.records import Change, CommitResult, SeatCount, StoredMatch

if TYPE_CHECKING:
    from service.runtime.services import Services
    from service.storage.rate_limit import RateCharge

# An AI's decision: ``(game, doc, state) -> action``, made on the state the commit checks.
Chooser = Callable[[Any, dict, Any], Any]


@dataclass
class Submission:
    """One action as sent: who, what, and the client's concurrency guards.

    ``if_match`` is the set of versions of an If-Match header, or "*".
    An AI sends ``choose`` instead of ``action``: a function of
    ``(game, doc, state)`` called on the state the commit is checked against,
    so deciding costs no extra read. ``respond=False`` skips building the
    HTTP response (and ``schedule_ai=False`` the next AI job) for the AI loop.
    ``timed_out``: the turn timer's decision for a human seat (timers.py).
    ``record``: the request's Idempotency-Key record (idempotency.Record).
    """

    seat: int
    action: Any = None
    version: int | None = None
    if_match: set[int] | str | None = None
    record: idempotency.Record | None = None
    choose: Chooser | None = None
    respond: bool = True
    schedule_ai: bool = True
    timed_out: bool = False
    # The match's version when this submission was first planned: a turn
    # time-out of its seat after that means the decision was made for it.
    first_seen_version: int | None = field(default=None, init=False)


def play_move(
    services: Services,
    bearer: str | None,
    charge: RateCharge | None,
    headers: dict[str, Any],
    body: dict[str, Any],
    match_id: str,
) -> Any:
    """POST /v1/matches/{id}/actions, by either door (the Flask route and the
    move lane, service/http/move_lane.py): ``headers`` and ``body`` as
    ActionHeadersSchema and PostActionSchema load them; ``charge``: the
    request's deferred rate-limit count (storage.rate_limit.RateCharge or
    None), taken in the same round trip as the match's read.

    A seat token's move of a match this process holds (its last commit or
    read of it) is first planned on that, reading nothing
    (``_on_cached_match``); it falls back to the read-first way below.

    A retry with an Idempotency-Key gets its first answer before the token is
    checked: that first attempt may have revoked it (its seat went to the AI).
    """
    record = idempotency.Record.of(match_id, bearer, headers.get("idempotency_key"), body)
    token_hash = hash_token(bearer) if bearer else None
    fast, planned = None, None
    if token_hash is not None and not is_account_token(bearer):
        fast, planned = _on_cached_match(services, match_id, token_hash, charge, headers, body, record)
    if isinstance(fast, Committed):
        return fast.answer()
    if planned is not None:  # the script counted the request and brought the match
        stored = fast or services.store.load(match_id, token_hash)
    else:
        stored = load_as_bearer(services, bearer, charge, match_id)
    if stored is not None and record is not None:
        replay = record.stored_response(services.store)
        if replay is not None:
            return replay
    seat = seat_in(services, stored, match_id, bearer, PLAY)
    if token_hash is not None and stored is not None and stored.token_seat == seat:
        services.states.know_seat(match_id, token_hash, seat)
    submission = _submission(seat, headers, body, record)
    if planned is not None:  # lost a race there: its plan was the first
        submission.first_seen_version = planned.first_seen_version
    return submit_action(services, match_id, submission, stored)


def _submission(
    seat: int, headers: dict[str, Any], body: dict[str, Any], record: idempotency.Record | None
) -> Submission:
    if_match = headers.get("if_match")
    return Submission(
        seat,
        body["action"],
        version=body.get("version"),
        if_match=version_header(if_match) if if_match is not None else None,
        record=record,
    )


def _on_cached_match(
    services: Services,
    match_id: str,
    token_hash: str,
    charge: RateCharge | None,
    headers: dict[str, Any],
    body: dict[str, Any],
    record: idempotency.Record | None,
) -> tuple[Committed | StoredMatch | None, Submission | None]:
    """A seat token's move planned on the match as this process last
    committed or read it, without a read: one script checks the token's
    seat, counts the request in its window and compares the revision
    (lua/commit.lua). ``(Committed, None)`` when it won; ``(None, None)``
    when nothing was counted (go the read-first way); else the fresh match
    the script brought (another commit came first) and the Submission
    planned (a turn timer's decision after it refuses the move, as after a
    read: ``_check_not_timed_out``)."""
    check = seat_check(charge, match_id, token_hash)
    cached = services.states.latest(match_id, token_hash)
    if check is None or cached is None or cached.token_seat is None:
        return None, None
    submission = _submission(cached.token_seat, headers, body, record)
    outcome = _commit_checked(services, cached, submission, charge, check)
    if outcome is None:
        return None, None
    if isinstance(outcome, Committed):
        after_commit(services, outcome, submission.schedule_ai)
        return outcome, None
    if charge is not None and check.count is not None:
        charge.enforce(check.count)  # LIMIT: nothing was written
    return outcome.fresh, submission


def _commit_checked(
    services: Services,
    cached: StoredMatch,
    submission: Submission,
    charge: RateCharge | None,
    check: SeatCount,
) -> Committed | CommitResult | None:
    """``attempt_commit`` of ``submission`` planned on ``cached``, with the
    script's seat check and count ``check``; None when the script counted
    nothing: the token holds no seat (NOSEAT), or the plan refused the move
    (409, 412, 422, an engine error), which is not answered from a copy that
    may be out of date: the read-first way, which counts first, answers it
    (its 429 first, as ever)."""
    try:
        outcome = attempt_commit(
            services,
            cached,
            lambda stored: _plan_action(services, stored, submission),
            submission.record,
            check,
        )
    except (ApiError, engine.EngineError):
        if check.count is None:
            return None
        _settle(charge, check)
        raise
    if check.count is None:
        return None
    _settle(charge, check)
    return outcome


def _settle(charge: RateCharge | None, check: SeatCount) -> None:
    """The request's count as the commit script took it, for its RateLimit fields."""
    if charge is not None:
        charge.count = check.count


def submit_action(
    services: Services, match_id: str, submission: Submission, stored: StoredMatch | None = None
) -> Any:
    """Apply one action; returns ``{"version", "events", "match"}``
    (``{"version", "doc"}`` when ``submission.respond`` is False).

    ``stored``: the match as the caller already read it (and looked the
    submission's record up in), planned against first (a conflicting commit
    re-reads it).

    Raises 409 (game_over, not_your_turn, version_conflict, illegal_action),
    412 (If-Match), 422 (malformed action, or an idempotency key reused with
    another body).
    """
    committed = change_match(
        services,
        match_id,
        lambda stored: _plan_action(services, stored, submission),
        first=stored,
        record=submission.record,
    )
    after_commit(services, committed, submission.schedule_ai)
    return committed.answer()


def _check_guards(doc: dict, submission: Submission) -> None:
    version = doc["version"]
    if submission.if_match not in (None, "*") and version not in submission.if_match:
        raise precondition_failed(version)
    if submission.version is not None and submission.version != version:
        raise version_conflict(version)
    if doc["status"] == "finished":
        raise ApiError(409, "game_over", "the match is over")
    if doc["status"] == "waiting":
        raise ApiError(
            409, "not_your_turn", "the match has not started: seats are still open", seat=submission.seat
        )


def _refused_action(game: Any, action: Any, problems: dict) -> ApiError:
    """The error for an action ``game``'s schema refuses (``problems``): 409
    ``illegal_action`` (reason ``other_game_action``) when it is a well-formed
    action of another game, which the API's schema (the union of every game's
    actions) accepts; else 422 ``validation_error``."""
    for other_id in engine.list_games():
        if other_id != game.id and not validate_action(engine.get_game(other_id), action):
            return ApiError(
                409,
                "illegal_action",
                f"an action of {other_id}; this match plays {game.id}",
                reason="other_game_action",
                game=game.id,
            )
    return validation("the action does not match its schema", fields=problems)


def _check_action(game: Any, action: Any) -> None:
    problems = validate_action(game, action)
    if problems:
        raise _refused_action(game, action, problems)


def _plan_action(services: Services, stored: StoredMatch, submission: Submission) -> Plan:
    doc = stored.doc
    game = engine.get_game(doc["game"])
    if submission.choose is None:
        # A malformed action is refused (422) whatever the match's state: before
        # If-Match (412), version and turn (409), which judge a well-formed one.
        _check_action(game, submission.action)
    _check_guards(doc, submission)
    _check_not_timed_out(doc, submission)
    state = engine_state(services, game, stored)
    action = submission.action
    if submission.choose is not None:
        action = submission.choose(game, doc, state)
        _check_action(game, action)
    new_state, events = game.apply(state, submission.seat, action)
    numbered, revoked = _log_move(services, stored, game, new_state, events, submission)
    response = _response(game, doc, new_state, numbered, submission)
    change = Change(
        doc=doc,
        state=game.dump(new_state),
        events=numbered,
        action={"seat": submission.seat, "action": action},
        del_tokens=revoked,
        **idempotency.change_fields(submission.record, response),
    )
    return Plan(
        response,
        change,
        state_after=new_state,
        revoked_token_hashes=revoked,
        on_commit=lambda: metrics.move_accepted(game.id),
    )


def _log_move(
    services: Services, stored: StoredMatch, game: Any, new_state: Any, events: list, submission: Submission
) -> tuple[list, list[str]]:
    """The match document after the move (in place): the version, the
    numbered events, who decides now; a seat timed out too often goes to the
    AI. Returns ``(numbered events, token hashes revoked)``."""
    doc = stored.doc
    doc["version"] += 1
    before = list(doc["to_act"])
    numbered = _count_time_out(doc, submission)
    numbered += engine_events(doc, doc["version"], events)
    refresh_play_status(game, doc, new_state, actor=submission.seat)
    revoked = []
    if submission.timed_out and _timed_out_too_often(services, doc, submission.seat):
        numbered.append(_hand_to_ai(doc, submission.seat))
        refresh_deadlines(doc, before, submission.seat)
        revoked = services.store.seat_token_hashes(stored.id, submission.seat)
    touch(doc)
    return numbered, revoked


def _response(game: Any, doc: dict, new_state: Any, numbered: list, submission: Submission) -> dict[str, Any]:
    if not submission.respond:
        return {"version": doc["version"], "doc": doc}
    return {
        "version": doc["version"],
        "events": [public_event(seq, v, e, submission.seat) for seq, v, e in numbered],
        "match": match_body(game, doc, new_state, submission.seat),
    }


def _check_not_timed_out(doc: dict, submission: Submission) -> None:
    """A person's action races with its own turn timer: exactly one applies.

    If the timer made this seat's decision after the request was first
    planned (its commit lost the race and is being planned again), the
    person's action is refused rather than applied to the next decision.
    """
    if submission.choose is not None:
        return
    if submission.first_seen_version is None:
        submission.first_seen_version = doc["version"]
        return
    timed_out_at = (doc.get("timed_out_at") or {}).get(str(submission.seat), -1)
    if timed_out_at > submission.first_seen_version:
        raise ApiError(
            409,
            "illegal_action",
            "your decision timed out: the AI made it for you",
            reason="turn_timed_out",
            seat=submission.seat,
            version=doc["version"],
        )


def _count_time_out(doc: dict, submission: Submission) -> list:
    """The ``turn_timed_out`` event of a timer's decision (as a list), and the
    seat's count of time-outs in a row (a person's own action resets it)."""
    key = str(submission.seat)
    counts = doc.setdefault("timeouts", {})
    if not submission.timed_out:
        if submission.choose is None:
            counts.pop(key, None)
        return []
    counts[key] = counts.get(key, 0) + 1
    doc.setdefault("timed_out_at", {})[key] = doc["version"]
    doc["seq"] += 1
    return [
        new_event(
            doc["seq"],
            doc["version"],
            "turn_timed_out",
            submission.seat,
            {"consecutive": counts[key], "level": "medium"},
        )
    ]


def _timed_out_too_often(services: Services, doc: dict, seat: int) -> bool:
    return (
        doc["seats"][seat]["kind"] == "human"
        and doc["timeouts"].get(str(seat), 0) >= services.config["TURN_TIMEOUTS_TO_AI"]
    )


def _hand_to_ai(doc: dict, seat: int) -> Any:
    """The seat goes to the ``medium`` AI for good, as on resign (a loss; its
    tokens are revoked); returns the ``seat_handed_to_ai`` event."""
    doc["seats"][seat].update(kind="ai", level="medium", resigned=True)
    doc.setdefault("left_at", {})[str(seat)] = doc["version"]
    doc["seq"] += 1
    return new_event(
        doc["seq"],
        doc["version"],
        "seat_handed_to_ai",
        seat,
        {"level": "medium", "reason": "turn_timeouts", "timeouts": doc["timeouts"][str(seat)]},
    )
