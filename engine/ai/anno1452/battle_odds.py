"""A rough expectation of a battle, from dice averages (no simulation).

Per round each side expects ``strength/6`` hits from its Estate's peasants,
``citizens/3`` from Citizens and ``soldiers/2`` from Soldiers; a side takes
``citizens + soldiers + strength`` hits to be wiped out. The chance to win
is the share of the "rounds to destroy the other side" race.
"""

from ...games.anno1452.board import estate_at


def _hits(estate, soldiers):
    strength = estate["strength"] if estate else 0
    citizens = estate["citizens"] if estate else 0
    return strength / 6 + citizens / 3 + soldiers / 2


def _toughness(estate, soldiers):
    if estate is None:
        return soldiers
    return estate["strength"] + estate["citizens"] + soldiers + (1.5 if estate["city"] else 0)


def win_chance(d, origin, target, extra_soldiers=0):
    """The attacker's chance from ``origin`` ([r, s] or None) against ``target``."""
    mine = estate_at(d, *origin) if origin is not None else None
    theirs = estate_at(d, *target)
    mine_hits = _hits(mine, extra_soldiers) + 1e-6
    their_hits = _hits(theirs, 0) + 1e-6
    # rounds each side needs to destroy the other; fewer is better
    mine_needs = _toughness(theirs, 0) / mine_hits
    their_needs = _toughness(mine, extra_soldiers) / their_hits
    return their_needs**2 / (their_needs**2 + mine_needs**2)


def stake(d, ref):
    """What losing the Estate at ``ref`` costs its owner, in points."""
    if ref is None:
        return 0.0
    e = estate_at(d, *ref)
    return 1.0 + e["citizens"] * 0.8 + (1.5 if e["city"] else 0.0) + 0.5
