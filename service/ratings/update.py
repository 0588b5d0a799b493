"""The finish step that rates a finished rated match: ``apply_ratings(services, doc)``.

Exactly once per match, however often it runs (docs/ratings.md): it reads
the pool's applied mark and the seats' ratings, computes the new ratings in
Python (OpenSkill), then one Lua script on the pool's slot
(service/storage/lua/apply_ratings.lua) checks that the match is not
applied yet and that every rating read is unchanged, and writes the
ratings, the boards, the histories and the applied mark together. A rating
changed by a concurrent match meanwhile refuses the script without writing:
it reads again and recomputes (optimistic concurrency, ``MAX_TRIES``).

A seat is rated as the account holding it (a resigned seat too: it places
last), an AI seat as its level's account (service/ratings/ai_accounts.py).
An AI account holding several seats of one match is rated once: each seat
from the same prior, the account getting their mean mu and mean sigma.
"""

from __future__ import annotations

import json
import logging
from typing import TYPE_CHECKING, Any

from service.ratings import skill
from service.ratings.ai_accounts import ensure_ai_account
from service.ratings.order import finishing_places
from service.storage import ratings as stored

if TYPE_CHECKING:
    from service.runtime.services import Services

log = logging.getLogger(__name__)

MAX_TRIES = 20


class RatingConflict(RuntimeError):
    """The pool's ratings kept changing under this update (``MAX_TRIES`` reads)."""


def seat_accounts(client: Any, doc: dict) -> list[tuple[str, str]] | None:
    """``[(aid, kind)]`` in seat order, or None when a seat has no account
    (an unrated seat: the match cannot be rated)."""
    accounts = []
    for seat in doc["seats"]:
        if seat.get("account_id"):
            accounts.append((seat["account_id"], (seat.get("account") or {}).get("kind", "human")))
        elif seat["kind"] == "ai" and seat.get("level"):
            accounts.append((ensure_ai_account(client, seat["level"]), "bot"))
        else:
            return None
    return accounts


def apply_ratings(services: Services, doc: dict) -> None:
    """Rate ``doc`` (a finished match document) in its pool, once; a match
    not rated, not finished or with an unrated seat is left alone."""
    if not doc.get("rated") or doc.get("status") != "finished" or not doc.get("pool"):
        return
    client, pool = services.redis, doc["pool"]
    if stored.is_applied(client, pool, doc["id"]):
        return  # the common case of a later commit of the match: one read
    accounts = seat_accounts(client, doc)
    if accounts is None:
        log.warning("rated match %s has a seat without an account: not rated", doc["id"])
        return
    places = finishing_places(doc)
    for _ in range(MAX_TRIES):  # the script itself refuses a match applied meanwhile
        raw = stored.read_raw(client, pool, sorted({aid for aid, _ in accounts}))
        outcome = stored.apply(client, pool, doc["id"], new_ratings(doc, accounts, places, raw))
        if outcome >= 0:
            return
    raise RatingConflict(f"the ratings of match {doc['id']} kept changing; not applied")


def new_ratings(
    doc: dict, accounts: list[tuple[str, str]], places: list[int], raw: dict[str, str]
) -> list[stored.NewRating]:
    """Each account's write for ``doc``, computed from ``raw`` (the ratings read)."""
    current = {aid: json.loads(value) if value else None for aid, value in raw.items()}
    priors = [_prior(current[aid]) for aid, _ in accounts]
    posteriors = skill.rate(priors, places)
    seats_of: dict[str, list[int]] = {}
    for index, (aid, _) in enumerate(accounts):
        seats_of.setdefault(aid, []).append(index)
    writes = []
    for aid, seats in seats_of.items():
        mu = sum(posteriors[i][0] for i in seats) / len(seats)
        sigma = sum(posteriors[i][1] for i in seats) / len(seats)
        before = current[aid]
        matches = (before["matches"] if before else 0) + 1
        score = skill.conservative(mu, sigma)
        rating = {
            "mu": mu,
            "sigma": sigma,
            "matches": matches,
            "kind": accounts[seats[0]][1],
            "updated_ms": int(doc.get("updated_ms", 0)),
        }
        history = {
            "match_id": doc["id"],
            "at": doc.get("updated_at"),
            "mu": round(mu, 4),
            "sigma": round(sigma, 4),
            "rating": round(score, 4),
            "delta": round(score - skill.conservative(*_prior(before)), 4),
            "place": min(places[i] for i in seats),
            "players": len(accounts),
        }
        established = not skill.is_provisional(matches, sigma)
        writes.append(
            stored.NewRating(aid, raw[aid], rating, score, accounts[seats[0]][1], established, history)
        )
    return writes


def _prior(rating: dict[str, Any] | None) -> tuple[float, float]:
    if rating is None:
        return skill.INITIAL_MU, skill.INITIAL_SIGMA
    return float(rating["mu"]), float(rating["sigma"])
