"""The rating model: OpenSkill's Plackett-Luce, its defaults, and who is provisional.

A rating is (mu, sigma): the skill estimate and its uncertainty, starting at
(25, 25/3). Boards order by the conservative rating mu - 3 sigma, which a
player's true skill exceeds with about 99.7 % confidence (docs/ratings.md).
"""

from typing import Any

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
INITIAL_MU, INITIAL_SIGMA = float(MODEL.mu), float(MODEL.sigma)

# Provisional (marked on the boards, left out of the established ones): fewer
# than PROVISIONAL_MATCHES rated matches in the pool, or sigma still above
# PROVISIONAL_SIGMA (90 % of the initial uncertainty).
PROVISIONAL_MATCHES = 10
PROVISIONAL_SIGMA = 0.9 * INITIAL_SIGMA


def conservative(mu: float, sigma: float) -> float:
    return mu - 3 * sigma


def is_provisional(matches: int, sigma: float) -> bool:
    return matches < PROVISIONAL_MATCHES or sigma > PROVISIONAL_SIGMA


def rate(priors: list[tuple[float, float]], places: list[int]) -> list[tuple[float, float]]:
    """New ``(mu, sigma)`` of each player of one free-for-all match, from
    their ``priors`` and ``places`` (1 = first; ties share a place)."""
    teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in priors]
    rated = MODEL.rate(teams, ranks=[float(place) for place in places])
    return [(float(team[0].mu), float(team[0].sigma)) for team in rated]


def rating_view(rating: dict[str, Any] | None) -> dict[str, Any]:
    """The public face of a stored rating (None: never rated, the initial one)."""
    mu = float(rating["mu"]) if rating else INITIAL_MU
    sigma = float(rating["sigma"]) if rating else INITIAL_SIGMA
    matches = int(rating["matches"]) if rating else 0
    return {
        "mu": round(mu, 4),
        "sigma": round(sigma, 4),
        "rating": round(conservative(mu, sigma), 4),
        "matches": matches,
        "provisional": is_provisional(matches, sigma),
    }
