"""The AI job: what an RQ worker runs for a pending AI decision
(service/play/ai.py schedules it and recovers it when lost).

``play_ai_turn(match_id, version)`` asks the seat's AI player for a choice
from that seat's *view* and legal actions (never the state) and submits it
through ``playing.submit_action`` with the version it decided at, like any
client; it goes on with the next AI decision for up to
``AI_CHAIN_BUDGET_S``, then schedules the rest. Seeds derive from the match
seed, the version and the seat, so AI choices are reproducible.
"""

import logging
import time
from collections.abc import Callable
from typing import Any

import engine
from engine.rng import mix_seed
from service.model.documents import pending_ai_seat, view_for
from service.model.errors import ApiError, api_error
from service.play.ai import schedule
from service.play.moves import Submission, submit_action
from service.runtime import metrics
from service.runtime.config import load_config
from service.runtime.services import Services

log = logging.getLogger(__name__)

# The worker process binds its Services here at start-up (see worker.py).
_bound: dict = {}


def bind(services: Services) -> None:
    """Make ``services`` the ones jobs of this process use."""
    _bound["services"] = services


def _services() -> Services:
    if "services" not in _bound:
        bind(Services(load_config()))
    return _bound["services"]


def chooser(seat: int) -> Callable[[Any, dict, Any], Any]:
    """The AI's decision function for ``seat``, called on the state the commit
    is checked against; a human seat (its turn timed out) gets ``medium``."""

    def choose(game: Any, doc: dict, state: Any) -> Any:
        view = view_for(game, doc, state, seat)
        actions = game.legal_actions(state, seat)
        level = doc["seats"][seat]["level"] or "medium"
        player = engine.ai.get_player(level)
        with metrics.ai_decision(game.id, level):
            return player.choose(game, seat, view, actions, seed=mix_seed(doc["seed"], doc["version"], seat))

    return choose


def play_ai_turn(match_id: str, version: int) -> str:
    """RQ job: play the AI decision pending at ``version``, and the ones after it.

    Consecutive AI decisions are played in this job for up to
    ``AI_CHAIN_BUDGET_S`` seconds (one RQ job costs dozens of Redis round
    trips; an AI decision costs two), each committed separately with its
    version check; then the next pending AI decision, if any, is enqueued.
    """
    services = _services()
    deadline = time.monotonic() + services.config["AI_CHAIN_BUDGET_S"]
    outcome = "stale"
    doc = services.store.load_doc(match_id)
    while doc is not None and doc["version"] == version:
        seat = pending_ai_seat(doc)
        if seat is None or time.monotonic() > deadline:
            schedule(services, doc)
            break
        submission = Submission(seat, version=version, choose=chooser(seat), respond=False, schedule_ai=False)
        try:
            # The committed document is the match now, unless someone wrote
            # after us; then the next commit's version check says so.
            doc = submit_action(services, match_id, submission)["doc"]
            version = doc["version"]
            outcome = "played"
        except (ApiError, engine.EngineError) as caught:
            error = api_error(caught)
            # Someone else moved first (a resign, a join...): the newer version
            # has its own job. A shard without its replicas refused it (the
            # sweeper re-enqueues the decision after AI_STALL_S). Anything
            # else is a bug worth a log line.
            level = {"version_conflict": logging.INFO, "not_enough_replicas": logging.WARNING}.get(
                error.code, logging.ERROR
            )
            log.log(level, "AI move in %s at v%s refused: %s", match_id, version, error.code)
            return error.code
    return outcome
