"""The look of each Anno 1503 variant, by the rules variant's name."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...games.anno1503.variants import variant_for
from .expansion.hooks import EXPANSION_LOOK
from .variant import BASE_LOOK

if TYPE_CHECKING:
    from ...core import View


LOOKS = {BASE_LOOK.name: BASE_LOOK, EXPANSION_LOOK.name: EXPANSION_LOOK}
# The click contract of every Anno 1503 picture: each look's actions, the base game's first.
CLICK_TARGETS = {kind: targets for look in LOOKS.values() for kind, targets in look.click_targets.items()}


def look_of(view: View):
    """The look (``variant.BaseLook`` or a subclass) of the variant a view's options name."""
    return LOOKS[variant_for(view["options"]).name]
