"""Position builders for the Pirates & Aristocrats expansion tests.

Same approach as ``helpers``: set up an expansion match, dump, edit, load.
The oracle values below are copied from game-content.md §2 (not read from
the engine's data) so a wrong data file fails the tests.
"""

import json

from engine.rng import Rng

from .helpers import _DATA, COMMODITIES, game, load, main_phase

OPTIONS = {"expansion": "pirates_aristocrats"}
LUXURIES = ("silk", "marble", "gems")
LUXURY_CARDS = 10  # §2.1
CARDS_PER_COMMODITY = 15
COMBAT_DIE = (0, 1, 1, 2, 2, 3)  # §2.5
PIRATE_SQUARE = [1, 14]  # §2.3 pirate board (r1, c2), placed at global column 12
BESIDE_PIRATE_SQUARE = [1, 13]
PORT_SEA = ([1, 8], [2, 9], [3, 8], [2, 7])  # the sea squares around the port at [2, 8]
PIRATE_DOLPHIN = [2, 12]
# (2,2) of the pirate board, mark 3, reachable without a pirate square; a ship
# on (2,13) (global) is beside it.
LAIR_SPACE, BESIDE_LAIR_SPACE = [2, 14], [2, 13]


def xposition(num_players, active=0, seed=1):
    """A fresh expansion match as a dump: empty hands, ``active`` in main."""
    d = game().dump(game().setup(num_players, OPTIONS, seed))
    main_phase(d, active)
    for p in d["players"]:
        p["aristocrat"]["turn"] = dict.fromkeys(p["aristocrat"]["turn"], False)
    for seat in range(num_players):
        set_xhand(d, seat)
    return d


def set_xhand(d, seat, **cards):
    """Exactly ``cards`` (commodities and luxuries), keeping every card in one place."""
    d["players"][seat]["hand"] = {c: cards.get(c, 0) for c in COMMODITIES + LUXURIES}
    for c in COMMODITIES + LUXURIES:
        total = LUXURY_CARDS if c in LUXURIES else CARDS_PER_COMMODITY
        d["stacks"][c] = total - sum(p["hand"][c] for p in d["players"])


def aristo(d, seat):
    return d["players"][seat]["aristocrat"]


def give_cards(d, seat, *cards):
    """Move aristocrat cards from the deck into ``seat``'s hand."""
    for card in cards:
        d["aristocrat_deck"].remove(card)
        aristo(d, seat)["cards"].append(card)


def place_ship(d, seat, at, ship=0, ap=None):
    p = d["players"][seat]
    p["ships"][ship] = {"at": list(at), "ap": ap if ap is not None else 3}


def top_pirate_card(d, card_id):
    """Put pirate card ``card_id`` on top of the deck (drawn with pop())."""
    deck = d["pirate_deck"]
    if card_id in d["pirate_discard"]:
        d["pirate_discard"].remove(card_id)
        deck.append(card_id)
    deck.remove(card_id)
    deck.append(card_id)


def rng_for_faces(*faces):
    """The first generator state whose next combat-die rolls are ``faces``."""
    for s in range(2_000_000):
        rng = Rng(s)
        if all(COMBAT_DIE[rng.below(6)] == f for f in faces):
            return s
    raise LookupError(f"no generator state rolls {faces}")


def put_expansion_tile(d, tile, space):
    """``tile`` (from the expansion reserve or box) face down on ``space``."""
    key = f"{space[0]},{space[1]}"
    for pile in ("expansion_reserve",):
        if tile in d[pile]:
            d[pile].remove(tile)
    if tile in d["box"]:
        d["box"].remove(tile)
    for k, t in list(d["spaces"].items()):
        if t == tile:
            d["spaces"][k] = None
    old = d["spaces"][key]
    if old is not None:
        d["expansion_reserve"].append(old)
    d["spaces"][key] = tile
    d["seen"].pop(key, None)


def _expansion_tiles():
    with open(_DATA / "expansion_tiles.json", encoding="utf-8") as fh:
        return json.load(fh)["tiles"]


def lair_tile(strength):
    """A lair of ``strength`` (ids 32..52 follow the base tiles; §2.4)."""
    tiles = _expansion_tiles()
    return next(t["id"] for t in tiles if t["kind"] == "lair" and t["strength"] == strength)


def luxury_office_tile(luxury):
    tiles = _expansion_tiles()
    return next(t["id"] for t in tiles if t["kind"] == "luxury_office" and t["commodity"] == luxury)


def xload(d):
    return load(d)
