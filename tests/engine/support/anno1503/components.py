"""Anno 1503's printed component counts, as the invariant tests expect them.

Written here from the rules (game-content.md §1.1, §1.5, §1.6, §2.1, §2.9,
§2.10, §2.11) on purpose rather than read from the engine's data files: a
data file that lost a card must fail the tests, not redefine them.
"""

import json
from pathlib import Path

GAME_ID = "anno1503"
COMMODITIES = ("stone", "wood", "tool", "cloth", "spice", "tobacco")
CARDS_PER_COMMODITY = 15  # 90 cards, 15 of each (§1.1)
TILE_COUNT = 32  # island tiles (§1.1, §1.5)
SPACE_COUNT = 26  # island spaces on the board (§1.4)
BUILDINGS_IN_PLAY = {2: 7, 3: 10, 4: 14}  # public buildings by player count (§1.6)
PIONEER_SETTLER_TILES, CITIZEN_MERCHANT_TILES = 4, 3  # per player (§1.1)
GOALS_TO_WIN = 3

LUXURIES = ("silk", "marble", "gems")
CARDS_PER_LUXURY = 10  # §2.1
EXPANSION_TILE_COUNT = TILE_COUNT + 21  # §2.1: 21 crown tiles
EXPANSION_SPACE_COUNT = SPACE_COUNT + 14  # the port's space stays listed, always empty (§2.2, §2.3)
PIRATE_CARD_COUNT = 10  # §2.11
PIRATE_CARD_KINDS = ("aggressive", "peaceful")
ARISTOCRAT_CARDS = {"explorer": 4, "builder": 4, "inventor": 4, "engineer": 4, "sea_hero": 4}  # §2.10
ARISTOCRAT_BUILDINGS_IN_PLAY = {2: 6, 3: 8, 4: 10}  # §2.9
MAX_CANNONS, MANOR_STEPS, MAX_LAIRS, SITES = 6, 9, 2, 3
PERTURBATIONS_EXPANSION = ("other_aristocrat_cards", "aristocrat_deck_order", "pirate_deck_order")

_TILES_JSON = Path(__file__).parents[4] / "engine" / "games" / "anno1503" / "data" / "tiles.json"


def _tile_backs():
    """Tile id -> back: printed on the tile, so public once the tile is placed.

    Expansion tiles (a crown under the mark) follow in expansion_tiles.json."""
    out = {}
    for path in (_TILES_JSON, _TILES_JSON.with_name("expansion_tiles.json")):
        with open(path, encoding="utf-8") as fh:
            out.update({t["id"]: t["back"] for t in json.load(fh)["tiles"]})
    return out


TILE_BACKS = _tile_backs()
