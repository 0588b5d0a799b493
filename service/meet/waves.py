"""Pairing waves: every ``SEEK_WAVE_S`` one worker pairs each pool's seekers.

``run_waves`` (the workers' wave thread, service/worker/runner.py) tries
each pool's lock (``SET NX PX`` on the pool's slot): the worker that takes
it runs the wave, then keeps the lock ``SEEK_WAVE_S`` longer, so waves of a
pool never overlap and come one interval apart whichever worker runs them.

A wave:

1. creates the matches of tables an earlier wave claimed but did not get to
   create (its worker died between the two steps);
2. reads the pool's waiting seeks, and drops those not renewed for
   ``SEEK_TTL_S`` (``expired``);
3. groups the rest (pairing.py) and, per table, takes its seekers out of the
   pool in one Lua script that also stores the table under its match id:
   all of them or none (a seeker that cancelled or was taken meanwhile
   fails the claim; the others wait for the next wave);
4. creates each claimed table's match under that id (idempotent:
   starting.py; a few threads at once), then forgets the table.

A seek is in one table at most: the claim removes it from the pool in the
same script that checks it is there, on one slot. A cancelled seek is never
paired: the cancel removes it in a script on the same slot.
"""

from __future__ import annotations

import logging
import random
import secrets
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from service.meet.pairing import Seeker, Table, Widening, group
from service.meet.rating import POOLS, pool_game
from service.meet.starting import start_claimed
from service.storage import meet as stored

if TYPE_CHECKING:
    from service.runtime.services import Services

log = logging.getLogger(__name__)

LOCK_HOLD_MS = 30_000  # a wave's longest run before another worker may start one
CREATORS = 8  # threads creating a wave's matches


@dataclass
class WaveResult:
    tables: list[Table]
    created: int = 0
    expired: int = 0
    lost: int = 0  # tables whose claim failed (a seeker left meanwhile)


def widening(config: dict[str, Any]) -> Widening:
    return Widening(
        float(config["SEEK_SPREAD_BASE"]),
        float(config["SEEK_SPREAD_PER_WAVE"]),
        float(config["SEEK_SPREAD_MAX"]),
        int(float(config["SEEK_WAVE_S"]) * 1000),
    )


def _seeker(doc: dict[str, Any]) -> Seeker:
    return Seeker(
        doc["id"],
        doc["aid"],
        float(doc["mu"]),
        list(doc["counts"]),
        bool(doc["rated"]),
        int(doc["created_ms"]),
        doc.get("rating_min"),
        doc.get("rating_max"),
        doc.get("ai_level"),
        doc.get("ai_after_ms"),
    )


def _recover(services: Services, pool: str) -> int:
    created = 0
    for match_id, table in stored.pending_tables(services.redis, pool).items():
        created += start_claimed(services, pool, match_id, table)
    return created


def _expire(services: Services, pool: str, docs: dict[str, dict], alive: dict[str, int], now: int) -> int:
    ttl_ms = services.config["SEEK_TTL_S"] * 1000
    expired = 0
    for sid, doc in docs.items():
        if alive.get(sid, 0) < now - ttl_ms:
            done = {"doc": doc, "status": "expired", "match_id": None, "seat": None}
            if stored.take_seeks(services.redis, pool, [(sid, doc["aid"], done)], now, 0) is None:
                expired += 1
    return expired


def _table_doc(services: Services, pool: str, table: Table, docs: dict[str, dict]) -> dict[str, Any]:
    game, options = pool_game(pool)
    seats: list[dict[str, Any]] = [
        {
            "kind": "account",
            "aid": s.aid,
            "name": docs[s.sid]["name"],
            "account_kind": docs[s.sid]["account_kind"],
        }
        for s in table.seekers
    ]
    seats += [{"kind": "ai", "level": table.ai_level} for _ in range(table.ai_seats)]
    random.shuffle(seats)  # who starts is chance's, not the queue's
    rated = table.seekers[0].rated
    return {
        "game": game,
        "options": options,
        "seats": seats,
        "rated": rated,
        "turn_timeout_s": services.config["SEEK_TURN_TIMEOUT_S"],
    }


def _claim(
    services: Services, pool: str, table: Table, docs: dict[str, dict], now: int
) -> tuple[str, dict] | None:
    match_id = secrets.token_hex(8)
    doc = _table_doc(services, pool, table, docs)
    seat_of = {seat.get("aid"): index for index, seat in enumerate(doc["seats"])}
    taken = [
        (
            s.sid,
            s.aid,
            {"doc": docs[s.sid], "status": "matched", "match_id": match_id, "seat": seat_of[s.aid]},
        )
        for s in table.seekers
    ]
    ttl_ms = services.config["SEEK_TTL_S"] * 1000
    if stored.take_seeks(services.redis, pool, taken, now, ttl_ms, (match_id, doc)) is not None:
        return None
    return match_id, doc


def run_wave(services: Services, pool: str, now_ms: int | None = None) -> WaveResult:
    """One wave over ``pool`` (the caller holds its lock, or is a test)."""
    now = int(time.time() * 1000) if now_ms is None else now_ms
    created = _recover(services, pool)
    docs, alive = stored.waiting_seeks(services.redis, pool)
    expired = _expire(services, pool, docs, alive, now)
    live = {
        sid: doc
        for sid, doc in docs.items()
        if alive.get(sid, 0) >= now - services.config["SEEK_TTL_S"] * 1000
    }
    tables = group([_seeker(doc) for doc in live.values()], now, widening(services.config))
    result = WaveResult([], created, expired)
    claimed = []
    for table in tables:
        claim = _claim(services, pool, table, live, now)
        if claim is None:
            result.lost += 1
            continue
        result.tables.append(table)
        claimed.append(claim)
    # Creating a match is a dozen round trips, most of them waits: a few at once.
    with ThreadPoolExecutor(CREATORS) as creators:
        result.created += sum(creators.map(lambda claim: start_claimed(services, pool, *claim), claimed))
    return result


def run_waves(services: Services, worker: str) -> dict[str, WaveResult]:
    """The wave of each pool whose lock this worker takes (none is due: {})."""
    done = {}
    wave_ms = int(float(services.config["SEEK_WAVE_S"]) * 1000)
    for pool in POOLS:
        token = f"{worker}:{secrets.token_hex(4)}"
        if not stored.lock_wave(services.redis, pool, token, LOCK_HOLD_MS):
            continue
        started = time.monotonic()
        try:
            done[pool] = run_wave(services, pool)
        finally:
            spent_ms = int((time.monotonic() - started) * 1000)
            stored.pace_wave(services.redis, pool, token, wave_ms - spent_ms)
    return done
