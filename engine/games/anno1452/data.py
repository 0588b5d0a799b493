"""The printed content of Anno 1452, loaded once from ``data/*.json``.

Map, time table, the 89 action cards and the Ottokar set-ups are data (see
game-content.md §3); the rules code only reads these constants.
"""

import json
from pathlib import Path

_DIR = Path(__file__).parent / "data"


def _load(name):
    with open(_DIR / name, encoding="utf-8") as fh:
        return json.load(fh)


MAP = _load("map.json")
REGIONS = MAP["regions"]
REGION_NAMES = tuple(r["name"] for r in REGIONS)
REGION_INDEX = {name: i for i, name in enumerate(REGION_NAMES)}
BORDERS = tuple(frozenset(REGION_INDEX[b] for b in r["borders"]) for r in REGIONS)
MAX_ESTATES = tuple(r["max_estates"] for r in REGIONS)
MAX_CITIES = tuple(r["max_cities"] for r in REGIONS)
MAX_SLOTS = max(MAX_ESTATES)

TIMETABLE = _load("timetable.json")
ROWS = TIMETABLE["rows"]
YEARS = tuple(row["year"] for row in ROWS)
AR_DICE = tuple(TIMETABLE["action_round_dice"])
MIN_EPOCHS = TIMETABLE["min_epochs"]
# The ER at row r closes r epochs (rows 0..r-1 had action rounds).
END_YEARS = tuple(YEARS[r] for r in range(MIN_EPOCHS, len(YEARS)))

CARDS = _load("cards.json")["cards"]
NUM_CARDS = len(CARDS)

OTTOKAR = _load("ottokar.json")

# Component counts (game-content §3.1).
ESTATES_PER_PLAYER = 16
CITIZENS_PER_PLAYER = 24
KING_SOLDIERS = 12
START_GOLD = 15
START_PRESTIGE = 10
HAND_SIZE = 5
PRESTIGE_MAX = 20
GOLD_PER_PRESTIGE = 5
OTTOKAR_ID = "ottokar"
