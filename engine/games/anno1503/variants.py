"""The variants a match may be played with, by the ``expansion`` option."""

from .expansion.hooks import EXPANSION_RULES
from .variant import BASE_GAME

VARIANTS = {BASE_GAME.name: BASE_GAME, EXPANSION_RULES.name: EXPANSION_RULES}


def variant_for(options):
    """The rules object (``variant.BaseGame`` or a subclass) of a match's options."""
    return VARIANTS[options.get("expansion", BASE_GAME.name)]
