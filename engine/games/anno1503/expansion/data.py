"""Printed content and geometry of the Pirates & Aristocrats expansion.

Loaded once from ``data/expansion.json`` (game-content.md §2). The pirate
board sits east of the main board (global columns 12-17) so one ``[r, c]``
names any square; the only passage between the boards is the pair of
dolphin squares (§2.3). ``GEOMETRY`` is the board set of an expansion match.
"""

from ..data import (
    COMMODITIES,
    DOLPHIN,
    MARKS,
    ROWS,
    SEA,
    SPACE_INDEX,
    SPACES,
    TILES,
    Geometry,
    TileSet,
    _load,
)

CONTENT = _load("expansion.json")
EXPANSION = "pirates_aristocrats"
LUXURIES = tuple(CONTENT["luxuries"])
HAND_KEYS = COMMODITIES + LUXURIES  # a hand (and the stacks) holds every card kind
_PIRATE = CONTENT["pirate_board"]
_OFFSET = _PIRATE["col_offset"]
PIRATE_COL = _OFFSET  # first global column of the pirate board
BOARD_ROWS = max(ROWS, len(_PIRATE["grid"]))
BOARD_COLS = _OFFSET + len(_PIRATE["grid"][0])
PORT = tuple(CONTENT["port"])

_PIRATE_CELLS = {(r, c + _OFFSET): ch for r, line in enumerate(_PIRATE["grid"]) for c, ch in enumerate(line)}
PIRATE_DOLPHIN = next(sq for sq, ch in _PIRATE_CELLS.items() if ch == "D")
PIRATE_SQUARES = frozenset(sq for sq, ch in _PIRATE_CELLS.items() if ch == "P")
_PIRATE_SEA = frozenset(sq for sq, ch in _PIRATE_CELLS.items() if not ch.isdigit())
ALL_SEA = SEA | _PIRATE_SEA
PIRATE_SPACES = tuple(sorted(sq for sq, ch in _PIRATE_CELLS.items() if ch.isdigit()))


def _same_board(a, b):
    """Squares on different boards touch only at the dolphin crossing."""
    if (a[1] < _OFFSET) == (b[1] < _OFFSET):
        return True
    return {a, b} == {DOLPHIN, PIRATE_DOLPHIN}


def _neighbours(sq):
    r, c = sq
    for dr, dc in ((-1, 0), (0, 1), (1, 0), (0, -1)):
        n = (r + dr, c + dc)
        if 0 <= n[0] < BOARD_ROWS and 0 <= n[1] < BOARD_COLS and _same_board(sq, n):
            yield n


# Main-board spaces keep their base indices; pirate spaces follow.
_X_SPACES = SPACES + PIRATE_SPACES
_X_INDEX = {sq: i for i, sq in enumerate(_X_SPACES)}
GEOMETRY = Geometry(
    _X_SPACES,
    MARKS + tuple(int(_PIRATE_CELLS[sq]) for sq in PIRATE_SPACES),
    {sq: tuple(n for n in _neighbours(sq) if n in ALL_SEA) for sq in ALL_SEA},
    {sq: tuple(_X_INDEX[n] for n in _neighbours(sq) if n in _X_INDEX and n != PORT) for sq in ALL_SEA},
    BOARD_ROWS,
    BOARD_COLS,
)
PORT_INDEX = SPACE_INDEX[PORT]
PIRATE_SPACE_INDICES = tuple(range(len(SPACES), len(_X_SPACES)))
PORT_SEA = tuple(n for n in _neighbours(PORT) if n in SEA)


# --- tiles, cards, costs --------------------------------------------------------

# The crowned tiles (a crown under the back mark) follow the base ids.
TILE_SET = TileSet(TILES + tuple(_load("expansion_tiles.json")["tiles"]))
TILE_BACKS = TILE_SET.backs
TILE_KINDS = TILE_SET.kinds
tile_public = TILE_SET.public
TILE_CROWN = tuple(bool(t.get("crown")) for t in TILE_SET.tiles)
TILE_STRENGTH = tuple(t.get("strength") for t in TILE_SET.tiles)
TILE_DISCOUNT = tuple(t.get("discount", 0) for t in TILE_SET.tiles)
EXPANSION_TILES = tuple(t["id"] for t in TILE_SET.tiles if t.get("crown"))
CANNON_PRICES = tuple(CONTENT["cannon_prices"])
UNIVERSITY_CANNONS = CONTENT["university_cannons"]
COMBAT_DIE = tuple(CONTENT["combat_die"])
REPAIR_COST = tuple(CONTENT["repair_cost"].items())
MANOR_COSTS = tuple(tuple(step.items()) for step in CONTENT["manor_costs"])
_AB = CONTENT["aristocrat_buildings"]
ARISTO_BUILDINGS = tuple(_AB["order"])
ARISTO_BY_BACK = {int(b): tuple(v) for b, v in _AB["by_back"].items()}
ARISTO_COSTS = {name: tuple(cost.items()) for name, cost in _AB["costs"].items()}
ARISTO_SITES, SKULL_SITE = _AB["sites"], _AB["skull_site"]
PARK_GOLD, CATHEDRAL_CARDS = _AB["park_gold"], _AB["cathedral_cards"]
CARD_TYPES = tuple(CONTENT["aristocrat_cards"])
CARD_DECK = tuple(name for name, n in CONTENT["aristocrat_cards"].items() for _ in range(n))
PLAYABLE_CARDS = tuple(CONTENT["playable_cards"])
CARD_HAND_LIMIT = CONTENT["aristocrat_hand_limit"]
PIRATE_CARDS = tuple(CONTENT["pirate_cards"])
PIRATE_SEATS = CONTENT["pirate_seats"]
MAX_LAIRS = CONTENT["max_lairs"]
VICTORY = CONTENT["victory"]
