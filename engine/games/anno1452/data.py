"""The printed content of Anno 1452, loaded once from ``data/*.json``.

Map, time table, the 89 action cards, the Ottokar set-ups, the component
counts, the prices of the actions and the amounts printed on the Special
Action cards are data (see
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
# Card ids (CARDS indices) by kind: the action turn's generators test each
# hand card against a set instead of reading its text.
CARDS_OF_KIND = {
    kind: frozenset(i for i, c in enumerate(CARDS) if c["kind"] == kind)
    for kind in {c["kind"] for c in CARDS}
}

OTTOKAR = _load("ottokar.json")

COMPONENTS = _load("components.json")
ESTATES_PER_PLAYER = COMPONENTS["estates_per_player"]
CITIZENS_PER_PLAYER = COMPONENTS["citizens_per_player"]
KING_SOLDIERS = COMPONENTS["soldier_pawns"]
START_GOLD = COMPONENTS["start"]["gold"]
START_PRESTIGE = COMPONENTS["start"]["prestige"]
PLAYERS = (2, 4)  # fewest and most seats (2: the Ottokar scenarios)
HAND_SIZE = COMPONENTS["start"]["hand_size"]
PRESTIGE_MAX = COMPONENTS["prestige_table"]["max"]
GOLD_PER_PRESTIGE = COMPONENTS["prestige_table"]["gold_per_point"]

# What the actions cost and give (the rules and the player aid):
# ``PRICES["estate"]["base_cost"]``, ``PRICES["crown"]["cards"]``.
PRICES = _load("prices.json")
ESTATE_STRENGTH = PRICES["estate"]["strength"]

# The amounts printed on the Special Action cards, by effect:
# ``AR_TEXTS["ablass"]["gold_per_point"]``, ``ER_TEXTS["bestechung"]["cost"]``.
_SPECIAL_ACTIONS = _load("special_actions.json")
AR_TEXTS = _SPECIAL_ACTIONS["action_round"]
ER_TEXTS = _SPECIAL_ACTIONS["evaluation_round"]

# The engine's bounds on an expert trade phase (the rules set none).
TRADE_LIMITS = _load("trade.json")
# Battle dice: the lowest face that hits per unit type, the defence's cancels,
# and what each Battle card changes (``BATTLE["reactions"]["verrat"]``).
BATTLE = _load("battle.json")

# Ottokar is a passive owner of pieces, never a seat.
OTTOKAR_ID = "ottokar"
