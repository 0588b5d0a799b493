"""A seat's holdings on the map, from one pass: what the action turn's
generators read (building an Estate or a City, settling, attacking, an
Inheritance, the Special cards' attacks).

Each of them used to scan all the map's slots itself; a random 2-player
turn offers about 100 actions, and the scans were a fifth of listing them
(issue 45). ``Anno1452.legal_actions`` makes one ``Holdings`` per action
turn and hands it to each; each hook on its own (``Game``'s loop, the
tests) makes its own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .board import Area, Slot, capacity
from .state import is_player

if TYPE_CHECKING:
    from .state import Data


class Holdings:
    """The map as ``seat`` acts on it (estate refs are ``[region, slot]``
    lists, in map order, shared read-only by the actions built on them)."""

    def __init__(self, d: Data, seat: Any) -> None:
        self.placed: list[int] = []  # per region: Estates of any owner
        self.size: list[int] = []  # per region: its slots
        self.own: list[list[int]] = []  # seat's Estates
        self.roomy: list[list[int]] = []  # seat's Estates with room for a Citizen...
        self.room: list[int] = []  # ...and how many
        self.citizens = 0  # seat's Citizens on the map
        self.cityless: list[list[int]] = []  # seat's Estates without a City
        self.targets: list[list[int]] = []  # the Estates seat may attack, were it in reach
        self.targets_in: list[list[list[int]]] = []  # per region: those of them there
        blocked = _protected_from(d, seat)
        areas: list[Area] = d["regions"]
        for region, area in enumerate(areas):
            slots: list[Slot] = area["slots"]
            placed = 0
            here: list[list[int]] = []
            for slot, estate in enumerate(slots):
                if estate is None:
                    continue
                placed += 1
                owner = estate["owner"]
                if owner == seat:
                    self._add_own([region, slot], estate)
                elif owner not in blocked or not is_player(owner):
                    here.append([region, slot])
            self.placed.append(placed)
            self.size.append(len(slots))
            self.targets_in.append(here)
            self.targets += here

    def _add_own(self, ref: list[int], estate: dict[str, Any]) -> None:
        self.own.append(ref)
        if not estate["city"]:
            self.cityless.append(ref)
        settled: int = estate["citizens"]
        self.citizens += settled
        left = capacity(estate) - settled
        if left > 0:
            self.roomy.append(ref)
            self.room.append(left)


def _protected_from(d: Data, seat) -> set[Any]:
    """The seats ``seat`` may not attack: under Landfrieden or in a pact with it."""
    landfrieden, pacts = d["landfrieden"], d["pacts"]
    return {
        owner
        for owner in range(d["num_players"] if landfrieden or pacts else 0)  # mostly neither
        if owner in landfrieden or sorted([seat, owner]) in pacts
    }
