"""The printed content of Anno 1503, loaded once at import from ``data/``.

Everything here is read-only after import: the rules modules use these
constants and never change them. Derived geometry (sea neighbours, which
island spaces a sea square touches, the AP needed to discover each space) is
computed from the grid rather than copied from the rules, so a corrected
board is a data change only.
"""

import json
from collections import deque
from pathlib import Path

_DIR = Path(__file__).with_name("data")


def _load(name):
    with open(_DIR / name, encoding="utf-8") as fh:
        return json.load(fh)


RULES = _load("rules.json")
_BOARD = _load("board.json")
_ISLANDS = _load("islands.json")
_BUILDINGS = _load("buildings.json")
TILES = tuple(_load("tiles.json")["tiles"])

COMMODITIES = tuple(RULES["commodities"])
PLAYERS = (RULES["players"]["min"], RULES["players"]["max"])
SLOTS = RULES["slots"]  # inhabitant slots on a home island
PUBLIC_BUILDING_SLOTS = SLOTS - RULES["first_building_slot"] + 1  # slots 4-7 carry a building
MAX_SHIPS = RULES["max_ships"]
KINDS = ("pioneer", "settler", "citizen", "merchant")
BUILDINGS = tuple(_BUILDINGS["order"])
BUILDINGS_BY_BACK = {int(b): tuple(names) for b, names in _BUILDINGS["by_back"].items()}

# --- the home islands -------------------------------------------------------

ISLAND_IDS = "ABCD"
ISLANDS = {
    key: {
        "colour": value["colour"],
        # index = die number (1..5); index 0 unused
        "production": (None,) + tuple(value["production"][str(n)] for n in range(1, 6)),
        "gray_bridges": tuple(value["gray_bridges"]),
    }
    for key, value in _ISLANDS.items()
    if not key.startswith("_")
}

# the gray bridges are numbered like the production die (1-5)
BRIDGES = len(next(iter(ISLANDS.values()))["production"]) - 1

# --- the main board ---------------------------------------------------------

ROWS = _BOARD["rows"]
COLS = _BOARD["cols"]
_GRID = _BOARD["grid"]


def _find(char):
    for r, line in enumerate(_GRID):
        c = line.find(char)
        if c >= 0:
            return (r, c)
    raise ValueError(f"board.json has no {char!r} square")


START = _find("S")
DOLPHIN = _find("D")
SEA = frozenset((r, c) for r, line in enumerate(_GRID) for c, ch in enumerate(line) if not ch.isdigit())
# Island spaces in data order (row-major); a space's index is its position here.
SPACES = tuple((r, c) for r, line in enumerate(_GRID) for c, ch in enumerate(line) if ch.isdigit())
SPACE_INDEX = {sq: i for i, sq in enumerate(SPACES)}
SPACE_KEYS = tuple(f"{r},{c}" for r, c in SPACES)
MARKS = tuple(int(_GRID[r][c]) for r, c in SPACES)


def _orthogonal(square):
    r, c = square
    for dr, dc in ((-1, 0), (0, 1), (1, 0), (0, -1)):
        nr, nc = r + dr, c + dc
        if 0 <= nr < ROWS and 0 <= nc < COLS:
            yield (nr, nc)


# sea square -> sea squares a ship may step to (N, E, S, W order)
SEA_NEIGHBOURS = {sq: tuple(n for n in _orthogonal(sq) if n in SEA) for sq in SEA}
# sea square -> indices of island spaces a ship there may discover
ADJACENT_SPACES = {sq: tuple(SPACE_INDEX[n] for n in _orthogonal(sq) if n in SPACE_INDEX) for sq in SEA}


def _sea_distances():
    dist = {START: 0}
    todo = deque([START])
    while todo:
        sq = todo.popleft()
        for n in SEA_NEIGHBOURS[sq]:
            if n not in dist:
                dist[n] = dist[sq] + 1
                todo.append(n)
    return dist


SEA_DISTANCE = _sea_distances()


def _discover_ap(space):
    """AP from the start to discover ``space``: nearest adjacent sea + 1."""
    near = [SEA_DISTANCE[n] for n in _orthogonal(space) if n in SEA_DISTANCE]
    return min(near) + 1


class Geometry:
    """Island spaces (index order), marks and sea adjacency of one board set
    (the base board here; a variant may add a board, see ``expansion.data``)."""

    def __init__(self, spaces, marks, sea_neighbours, adjacent_spaces, rows, cols):
        self.spaces = spaces
        self.space_index = {sq: i for i, sq in enumerate(spaces)}
        self.space_keys = tuple(f"{r},{c}" for r, c in spaces)
        self.marks = marks
        self.sea_neighbours = sea_neighbours
        self.adjacent_spaces = adjacent_spaces
        self.rows, self.cols = rows, cols


BASE_GEO = Geometry(SPACES, MARKS, SEA_NEIGHBOURS, ADJACENT_SPACES, ROWS, COLS)

DISCOVER_AP = tuple(_discover_ap(sq) for sq in SPACES)
# R#13: farthest = most AP to discover, then largest Manhattan distance.
FARTHEST_KEY = tuple(
    (DISCOVER_AP[i], abs(r - START[0]) + abs(c - START[1])) for i, (r, c) in enumerate(SPACES)
)

# --- tiles --------------------------------------------------------------------


class TileSet:
    """The tiles of one variant by id: the base tiles, then any the variant
    adds (their ids follow the base ones). The rules reach the match's set as
    ``state.variant.tiles``."""

    def __init__(self, tiles):
        self.tiles = tiles
        self.backs = tuple(t["back"] for t in tiles)
        self.kinds = tuple(t["kind"] for t in tiles)
        self.commodity = tuple(t.get("commodity") for t in tiles)

    def public(self, tile_id):
        """The event/view form of a tile: ``{"id", "back", "kind", "commodity"?}``."""
        return dict(self.tiles[tile_id])


BASE_TILE_SET = TileSet(TILES)
TILE_BACKS = BASE_TILE_SET.backs
TILE_KINDS = BASE_TILE_SET.kinds
TILE_COMMODITY = BASE_TILE_SET.commodity


# --- costs and prices -------------------------------------------------------

SHIP_COST = tuple(RULES["costs"]["ship"].items())
PIONEER_COST = tuple(RULES["costs"]["pioneer"].items())
DEVELOP = {kind: (d["to"], tuple(d["cost"].items())) for kind, d in RULES["develop"].items()}
BUYER_OF = {c: kind for kind, s in RULES["sell"].items() for c in s["buys"]}
SELL = {kind: (s["price"], s["building"], s["building_price"]) for kind, s in RULES["sell"].items()}
EVENTS = {int(k): v for k, v in RULES["events"].items()}
GOALS = tuple(RULES["victory"]["goals"].items())
VP_TO_WIN = RULES["victory"]["to_win"]
