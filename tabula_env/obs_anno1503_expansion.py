"""The Pirates & Aristocrats features of Anno 1503's observation (``obs_anno1503``).

Every observation of the game carries them, zeros when the view has no
expansion part, so one layout serves both variants:

- ``TILE_KINDS``, ``CHOICE_KINDS``, ``PHASES``: the expansion's kinds in the
  base vocabularies' one-hots;

- ``supply``: aristocrat buildings left, the expansion reserve and the pirate
  and aristocrat piles, whether a battle is on;
- ``players``: manor, cannons, lairs, aristocrat buildings, damage, this
  turn's flags and the aristocrat cards (own cards by type, the others' only
  as a count).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import engine

from .features import number

if TYPE_CHECKING:
    from engine.core import View


_SPECS: Any = engine.get_game("anno1503").action_specs  # parameter domains by name
ARISTOCRAT_BUILDINGS = _SPECS["build_aristocrat"].params["building"].values
CARD_TYPES = _SPECS["exchange_card"].params["card"].values
GOALS = ("aristocrat_buildings", "lairs", "manor")
# Added to the base vocabularies (``obs_anno1503``): face-up tile kinds, choice kinds, phases.
TILE_KINDS = ("lair", "luxury_office")
CHOICE_KINDS = ("pirate_sea_placement",)
PHASES = ("card_discard",)
_PILES = ("expansion_reserve_size", "pirate_deck_size", "aristocrat_deck_size", "aristocrat_discard_size")


def supply(view: View):
    piles = view.get("expansion") or {}
    aristo = piles.get("aristocrat_buildings") or {}
    return (
        [number(aristo.get(b)) for b in ARISTOCRAT_BUILDINGS]
        + [number(piles.get(k)) for k in _PILES]
        + [float(len(piles.get("pirate_discard") or ())), 0.0 if piles.get("combat") is None else 1.0]
    )


def player(entry):
    a = entry.get("aristocrat") or {}
    cards = a.get("cards")
    turn = a.get("turn") or {}
    return (
        [number(a.get(k)) for k in ("manor", "cannons", "cannon_strength")]
        + [float(len(a.get("lairs") or ()))]
        + [1.0 if b in (a.get("buildings") or ()) else 0.0 for b in ARISTOCRAT_BUILDINGS]
        + [number(d) for d in (a.get("damaged") or [False, False])[:2]]
        + [number(turn.get(k)) for k in ("luxury_sold", "exchanged", "sailed", "free_discovery")]
        + [float(cards.count(t)) if cards is not None else 0.0 for t in CARD_TYPES]
        + [float(len(cards)) if cards is not None else number(a.get("cards_count"))]
    )
