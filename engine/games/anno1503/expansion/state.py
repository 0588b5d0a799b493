"""The expansion's typed state part: a player's aristocrat island and the
match's expansion piles, with fast clones and the DESIGN.md dump form.

``Player.part`` holds an ``AristocratIsland`` and ``State.part`` an
``ExpansionPiles`` in an expansion match (``None`` in the base game). The
dump is unchanged from the dicts they replace: the island is the player's
``"aristocrat"`` entry, the piles are top-level keys of the match dump.
"""

from typing import Any

TURN_FLAGS = ("luxury_sold", "exchanged", "sailed", "free_discovery")
# top-level dump keys of the expansion, in dump order (DESIGN.md)
PILE_KEYS = (
    "aristocrat_buildings",
    "expansion_reserve",
    "pirate_deck",
    "pirate_discard",
    "aristocrat_deck",
    "aristocrat_discard",
    "combat",
)


class AristocratIsland:
    """One seat's expansion holdings and its per-turn flags.

    ``lairs``, ``buildings``, ``cards`` and ``damaged`` are lists changed in
    place, so ``clone`` copies them; the rest are scalars.
    """

    __slots__ = (
        "buildings",
        "cannons",
        "cards",
        "damaged",
        "exchanged",
        "free_discovery",
        "lairs",
        "luxury_sold",
        "manor",
        "sailed",
    )
    buildings: list[str]
    cannons: int
    cards: list[str]
    damaged: list[bool]
    exchanged: bool
    free_discovery: bool
    lairs: list[int]
    luxury_sold: bool
    manor: int
    sailed: bool

    @classmethod
    def new(cls, ships):
        x = cls.__new__(cls)
        x.manor = x.cannons = 0
        x.lairs, x.buildings, x.cards = [], [], []
        x.damaged = [False] * ships
        x.reset_turn()
        return x

    def reset_turn(self) -> None:
        self.luxury_sold = self.exchanged = self.sailed = self.free_discovery = False

    def clone(self):
        x = AristocratIsland.__new__(AristocratIsland)
        x.manor = self.manor
        x.cannons = self.cannons
        x.lairs = self.lairs[:]
        x.buildings = self.buildings[:]
        x.cards = self.cards[:]
        x.damaged = self.damaged[:]
        x.luxury_sold = self.luxury_sold
        x.exchanged = self.exchanged
        x.sailed = self.sailed
        x.free_discovery = self.free_discovery
        return x

    def turn_dump(self):
        return {
            "luxury_sold": self.luxury_sold,
            "exchanged": self.exchanged,
            "sailed": self.sailed,
            "free_discovery": self.free_discovery,
        }

    def dump_into(self, player_out) -> None:
        player_out["aristocrat"] = {
            "manor": self.manor,
            "cannons": self.cannons,
            "lairs": list(self.lairs),
            "buildings": list(self.buildings),
            "cards": list(self.cards),
            "damaged": list(self.damaged),
            "turn": self.turn_dump(),
        }

    @classmethod
    def load(cls, player_data):
        data = player_data["aristocrat"]
        x = cls.__new__(cls)
        x.manor = data["manor"]
        x.cannons = data["cannons"]
        x.lairs = list(data["lairs"])
        x.buildings = list(data["buildings"])
        x.cards = list(data["cards"])
        x.damaged = list(data["damaged"])
        turn = data["turn"]
        x.luxury_sold = turn["luxury_sold"]
        x.exchanged = turn["exchanged"]
        x.sailed = turn["sailed"]
        x.free_discovery = turn["free_discovery"]
        return x


class ExpansionPiles:
    """The match's expansion supply and decks, and the battle in progress.

    ``combat`` is None or a dict of the battle's context (DESIGN.md), updated
    in place while a battle runs, so ``clone`` copies it too.
    """

    __slots__ = PILE_KEYS
    aristocrat_buildings: dict[str, int]
    expansion_reserve: list[int]
    pirate_deck: list[int]
    pirate_discard: list[int]
    aristocrat_deck: list[str]
    aristocrat_discard: list[str]
    combat: dict[str, Any] | None

    def clone(self):
        x = ExpansionPiles.__new__(ExpansionPiles)
        x.aristocrat_buildings = self.aristocrat_buildings.copy()
        x.expansion_reserve = self.expansion_reserve[:]
        x.pirate_deck = self.pirate_deck[:]
        x.pirate_discard = self.pirate_discard[:]
        x.aristocrat_deck = self.aristocrat_deck[:]
        x.aristocrat_discard = self.aristocrat_discard[:]
        x.combat = None if self.combat is None else self.combat.copy()
        return x

    def dump_into(self, state_out) -> None:
        state_out["aristocrat_buildings"] = dict(self.aristocrat_buildings)
        state_out["expansion_reserve"] = list(self.expansion_reserve)
        state_out["pirate_deck"] = list(self.pirate_deck)
        state_out["pirate_discard"] = list(self.pirate_discard)
        state_out["aristocrat_deck"] = list(self.aristocrat_deck)
        state_out["aristocrat_discard"] = list(self.aristocrat_discard)
        state_out["combat"] = None if self.combat is None else dict(self.combat)

    @classmethod
    def load(cls, data):
        x = cls.__new__(cls)
        x.aristocrat_buildings = dict(data["aristocrat_buildings"])
        x.expansion_reserve = list(data["expansion_reserve"])
        x.pirate_deck = list(data["pirate_deck"])
        x.pirate_discard = list(data["pirate_discard"])
        x.aristocrat_deck = list(data["aristocrat_deck"])
        x.aristocrat_discard = list(data["aristocrat_discard"])
        x.combat = None if data["combat"] is None else dict(data["combat"])
        return x
