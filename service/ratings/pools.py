"""Rating pools: the variants that change how a game is played (docs/ratings.md).

A rated match is rated in exactly one pool, ``pool_of(game, options)``, read
from the match's resolved options. A pool is a rule set a skill carries over
within, and not across:

- ``anno1503-base`` / ``anno1503-expansion``: Aristokraten und Piraten adds
  a pirate sea, an aristocrat island and luxury goods, a different economy;
- ``anno1452-basic`` / ``anno1452-expert``: the expert rules add the
  pre-evaluation, Trade & Agreements and the one-card discard.

Not pools of their own: the player count (OpenSkill rates each match's
2 to 4 players as one free-for-all ranking, and splitting four pools by
three counts would leave each too thin to converge), Anno 1452's passive
Ottokar scenarios (a set-up for 2-3 players, same rules), its ``end_year``
(a shorter game of the same rules) and the marriage/discard timing details
(``discard_limit``, ``marriage_end``: a detail inside one rule set).
"""

from typing import Any

ANNO1503_BASE = "anno1503-base"
ANNO1503_EXPANSION = "anno1503-expansion"
ANNO1452_BASIC = "anno1452-basic"
ANNO1452_EXPERT = "anno1452-expert"

# Every pool, in the order pages list them.
POOLS: tuple[str, ...] = (ANNO1503_BASE, ANNO1503_EXPANSION, ANNO1452_BASIC, ANNO1452_EXPERT)

POOL_TITLES = {
    ANNO1503_BASE: "Anno 1503",
    ANNO1503_EXPANSION: "Anno 1503 with Aristokraten und Piraten",
    ANNO1452_BASIC: "Anno 1452, basic rules",
    ANNO1452_EXPERT: "Anno 1452, expert rules",
}


def pool_of(game: str, options: dict[str, Any]) -> str:
    """The pool of a match of ``game`` with its resolved ``options``.

    Raises ``ValueError`` for a game no pool covers (a new game gets its pools here)."""
    if game == "anno1503":
        return ANNO1503_BASE if options.get("expansion", "none") == "none" else ANNO1503_EXPANSION
    if game == "anno1452":
        return ANNO1452_EXPERT if options.get("rules", "basic") == "expert" else ANNO1452_BASIC
    raise ValueError(f"no rating pool for game {game!r}")


def rateable_seat(seat: dict[str, Any]) -> bool:
    """Whether a seat (its stored document) may sit at a rated table: held by
    an account, a built-in AI, or still open (to be joined by an account)."""
    return bool(seat.get("account_id")) or seat["kind"] in ("ai", "open")


def register_pool_component(spec: Any) -> None:
    """The ``RatingPool`` enum in the app's spec (an apispec ``APISpec``)."""
    spec.components.schema(
        "RatingPool",
        component={
            "type": "string",
            "enum": list(POOLS),
            "description": "Rating pools: "
            + "; ".join(f"`{pool}`: {title}" for pool, title in POOL_TITLES.items())
            + " (docs/ratings.md).",
        },
    )
