"""The variants a match may be played with, chosen by the ``expansion`` option.

The one place that lists them: the game's option, its action table and the
variant of a match (``state.variant``) all come from ``VARIANTS``; the base
rules never name a variant.
"""

from ...errors import InvalidOptionsError
from ...kit import specs_by_name
from .data import PLAYERS
from .expansion.hooks import EXPANSION_RULES
from .variant import BASE_GAME

VARIANTS = {BASE_GAME.name: BASE_GAME, EXPANSION_RULES.name: EXPANSION_RULES}
OPTION = "expansion"
OPTIONS = {
    OPTION: {
        "type": "enum",
        "default": BASE_GAME.name,
        "choices": list(VARIANTS),
        "description": "Expansion to play with. " + "; ".join(v.option_text for v in VARIANTS.values()) + ".",
    }
}


def variant_for(options):
    """The rules object (``variant.BaseGame`` or a subclass) of a match's options."""
    return VARIANTS[options.get(OPTION, BASE_GAME.name)]


def check_options(num_players, options):
    """The options with their defaults; raises ``InvalidOptionsError`` unless
    the player count and options are offered."""
    if type(num_players) is not int or not PLAYERS[0] <= num_players <= PLAYERS[1]:
        raise InvalidOptionsError(
            f"anno1503 is for {PLAYERS[0]} to {PLAYERS[1]} players", field="num_players"
        )
    options = dict(options or {})
    unknown = sorted(set(options) - {OPTION})
    if unknown:
        raise InvalidOptionsError(f"unknown option {unknown[0]!r}", field=unknown[0])
    name = options.get(OPTION, BASE_GAME.name)
    if name not in VARIANTS:
        raise InvalidOptionsError(f"{OPTION} must be one of: " + ", ".join(VARIANTS), field=OPTION)
    return {OPTION: name}


def action_specs(base_specs):
    """``{type: ActionSpec}`` for every match: the base specs widened by each
    variant, then the variants' own, in the order of their ``action_types``."""
    specs = list(base_specs)
    for variant in VARIANTS.values():
        specs = [variant.widen(spec) for spec in specs]
    table = specs_by_name(specs, *(variant.specs for variant in VARIANTS.values()))
    order = dict.fromkeys(t for variant in VARIANTS.values() for t in variant.action_types)
    return {name: table[name] for name in order}
