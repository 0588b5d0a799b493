"""The variants an environment can be made for: a game, a player count and
the options that change the rules (not the ones that only shorten a match).

    >>> from tabula_env.variants import get_variant
    >>> get_variant("anno1452-expert-ottokar_a-2p").options
    {'rules': 'expert', 'scenario': 'ottokar_a'}

Each variant has its own fixed action index space (``tabula_env.codec``).
Options such as Anno 1452's ``end_year`` keep the variant and its spaces
and are passed as ``extra_options`` to the environment.
"""

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Variant:
    """One playable set-up: ``game`` id, ``num_players`` and the rule options."""

    name: str
    game: str
    num_players: int
    options: dict = field(default_factory=dict, hash=False, compare=False)


def _anno1503():
    expansions = {"base": "none", "pa": "pirates_aristocrats"}
    return [
        Variant(f"anno1503-{short}-{n}p", "anno1503", n, {"expansion": expansion})
        for short, expansion in expansions.items()
        for n in (2, 3, 4)
    ]


def _anno1452():
    # The standard map needs 3-4 players; the passive Ottokar fills a seat at 2-3.
    counts = {"standard": (3, 4), "ottokar_a": (2, 3), "ottokar_b": (2, 3)}
    return [
        Variant(f"anno1452-{rules}-{scenario}-{n}p", "anno1452", n, {"rules": rules, "scenario": scenario})
        for rules in ("basic", "expert")
        for scenario, players in counts.items()
        for n in players
    ]


VARIANTS = {v.name: v for v in _anno1503() + _anno1452()}


def get_variant(name):
    """The ``Variant`` called ``name``; ``ValueError`` listing the names otherwise."""
    if isinstance(name, Variant):
        return name
    try:
        return VARIANTS[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown variant {name!r}; one of: {', '.join(VARIANTS)}") from None
