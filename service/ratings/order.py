"""The finishing order of a finished match: who placed where (docs/ratings.md).

Seats that played to the end come first: winners, then by score (higher
first; equal scores share a place). Seats that resigned or were handed to
the AI come last, in the reverse order of leaving: the first to leave is
lowest (the version it left at, ``doc["left_at"]``; seats that left at one
version share a place).
"""

from typing import Any


def _score(result: dict[str, Any], seat: int) -> float:
    value = (result.get("scores") or {}).get(str(seat))
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else 0.0


def finishing_places(doc: dict[str, Any]) -> list[int]:
    """Each seat's place, 1 = first (ties share a place), in seat order."""
    result = doc.get("result") or {}
    winners = set(result.get("winners") or ())
    left_at = doc.get("left_at") or {}
    keys = []
    for seat in doc["seats"]:
        index = int(seat["seat"])
        if seat.get("resigned"):
            # After every seat that stayed; later leavers above earlier ones.
            keys.append((2, -int(left_at.get(str(index), 0)), 0.0))
        else:
            keys.append((0 if index in winners else 1, 0, -_score(result, index)))
    return [1 + sum(1 for other in keys if other < key) for key in keys]
