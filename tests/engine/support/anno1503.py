"""What the generic invariant tests need to know about Anno 1503.

Everything works on dumps (DESIGN.md "Dump format"), so the checks see the
same data a stored match holds. The expected totals are the printed
component counts of the rules (game-content.md §1.1, §1.5, §1.6), written
here on purpose rather than read from the engine's data files: a data file
that lost a card must fail these tests, not redefine them.
"""

import json
from pathlib import Path

import orjson

from .secrecy import find_dicts, find_keys, find_values
from .variants import Variant

GAME_ID = "anno1503"
COMMODITIES = ("stone", "wood", "tool", "cloth", "spice", "tobacco")
CARDS_PER_COMMODITY = 15  # 90 cards, 15 of each (§1.1)
TILE_COUNT = 32  # island tiles (§1.1, §1.5)
SPACE_COUNT = 26  # island spaces on the board (§1.4)
BUILDINGS_IN_PLAY = {2: 7, 3: 10, 4: 14}  # public buildings by player count (§1.6)
PIONEER_SETTLER_TILES, CITIZEN_MERCHANT_TILES = 4, 3  # per player (§1.1)
GOALS_TO_WIN = 3

# Never in a view: the generator, the reserve/box piles. (``queue``, the seats
# still to resolve a roll or event, is public: DESIGN.md "Views".)
FORBIDDEN_VIEW_KEYS = {"rng", "reserve", "box"}

_TILES_JSON = Path(__file__).parents[3] / "engine" / "games" / "anno1503" / "data" / "tiles.json"


def _tile_backs():
    """Tile id -> back: printed on the tile, so public once the tile is placed.

    Expansion tiles (a crown under the mark) follow in expansion_tiles.json."""
    out = {}
    for path in (_TILES_JSON, _TILES_JSON.with_name("expansion_tiles.json")):
        with open(path, encoding="utf-8") as fh:
            out.update({t["id"]: t["back"] for t in json.load(fh)["tiles"]})
    return out


TILE_BACKS = _tile_backs()


# --- conservation and per-step invariants -----------------------------------


def is_expansion(dump):
    return dump["options"].get("expansion") == "pirates_aristocrats"


def state_problems(dump):
    """Everything wrong with a dump's bookkeeping (empty list when fine)."""
    if is_expansion(dump):
        return expansion_problems(dump)
    over = dump["winner"] is not None
    return [
        *_commodity_problems(dump),
        *_tile_problems(dump),
        *_player_problems(dump),
        *_building_problems(dump),
        *([] if over else _unfinished_problems(dump)),
    ]


def _commodity_problems(dump):
    stacks = dump["stacks"]
    hands = [p["hand"] for p in dump["players"]]
    problems = []
    for c in COMMODITIES:
        counts = [stacks[c], *(hand[c] for hand in hands)]
        if sum(counts) != CARDS_PER_COMMODITY or min(counts) < 0:
            problems.append(f"{c}: stack and hands hold {counts}, not {CARDS_PER_COMMODITY} in all")
    return problems


def tile_locations(dump):
    """Tile id -> every place it is found (should be exactly one each)."""
    found = {}

    def put(tile, where):
        found.setdefault(tile, []).append(where)

    for space, tile in dump["spaces"].items():
        if tile is not None:
            put(tile, f"space {space}")
    for pile in ("reserve", "box", "removed", "expansion_reserve"):
        for tile in dump.get(pile, ()):
            put(tile, pile)
    for seat, p in enumerate(dump["players"]):
        for tile in p.get("aristocrat", {}).get("lairs", ()):
            put(tile, f"seat {seat} gold bridge")
        for bridge, tile in p["branch_offices"].items():
            if tile is not None:
                put(tile, f"seat {seat} bridge {bridge}")
        for tile in p["trade_agreements"]:
            put(tile, f"seat {seat} trade agreements")
    return found


def _tile_problems(dump, tile_count=TILE_COUNT, space_count=SPACE_COUNT):
    if tile_count == TILE_COUNT and len(dump["spaces"]) == SPACE_COUNT and _tile_ids_ok(dump):
        return []  # the common case, without building messages
    found = tile_locations(dump)
    problems = [f"tile {t} is in {places}" for t, places in sorted(found.items(), key=str) if len(places) != 1]
    missing = set(range(tile_count)) - set(found)
    unknown = set(found) - set(range(tile_count))
    if missing:
        problems.append(f"tiles missing: {sorted(missing)}")
    if unknown:
        problems.append(f"unknown tile ids: {sorted(unknown, key=str)}")
    if len(dump["spaces"]) != space_count:
        problems.append(f"{len(dump['spaces'])} island spaces, not {space_count}")
    return problems


def _tile_ids_ok(dump):
    ids = [t for t in dump["spaces"].values() if t is not None]
    ids += dump["reserve"] + dump["box"] + dump["removed"]
    for p in dump["players"]:
        ids += [t for t in p["branch_offices"].values() if t is not None]
        ids += p["trade_agreements"]
    return len(ids) == TILE_COUNT and set(ids) == _ALL_TILES


_ALL_TILES = set(range(TILE_COUNT))


def _player_problems(dump):
    problems = []
    for seat, p in enumerate(dump["players"]):
        if type(p["gold"]) is not int or p["gold"] < 0:
            problems.append(f"seat {seat} gold is {p['gold']!r}")
        slots = p["slots"]
        if slots.count("pioneer") + slots.count("settler") > PIONEER_SETTLER_TILES:
            problems.append(f"seat {seat} has more than {PIONEER_SETTLER_TILES} P/S tiles: {p['slots']}")
        if slots.count("citizen") + slots.count("merchant") > CITIZEN_MERCHANT_TILES:
            problems.append(f"seat {seat} has more than {CITIZEN_MERCHANT_TILES} C/M tiles: {p['slots']}")
        owned = [b for b in p["buildings"] if b is not None]
        if len(owned) != len(set(owned)):
            problems.append(f"seat {seat} owns a public building twice: {owned}")
        if len(p["trade_agreements"]) > 3:
            problems.append(f"seat {seat} has {len(p['trade_agreements'])} trade agreements")
    return problems


def _building_problems(dump):
    owned = sum(b is not None for p in dump["players"] for b in p["buildings"])
    supply = dump["buildings"]
    if any(type(n) is not int or n < 0 for n in supply.values()):
        return [f"building supply has a bad count: {supply}"]
    total = owned + sum(supply.values())
    expected = BUILDINGS_IN_PLAY[dump["num_players"]]
    return [] if total == expected else [f"{total} public buildings in play, not {expected}"]


def _unfinished_problems(dump):
    """R#20: the active player holding 3 points ends the match at once."""
    vp = victory_points(dump)[dump["active"]]
    return [f"active seat {dump['active']} holds {vp} points but the match goes on"] if vp >= GOALS_TO_WIN else []


def victory_points(dump):
    """Points per seat, recomputed from holdings (§1.8 goals; §2.12 with the expansion)."""
    if is_expansion(dump):
        return [sum(expansion_goals(p).values()) for p in dump["players"]]
    return [_points(p) for p in dump["players"]]


def _points(p):
    return sum(
        (
            p["gold"] >= 30,
            sum(t is not None for t in p["branch_offices"].values()) >= 4,
            len(p["trade_agreements"]) >= 3,
            sum(b is not None for b in p["buildings"]) >= 4,
            p["slots"].count("merchant") >= 3,
        )
    )


def outcome_problems(dump, outcome):
    """One winner holding the winning goals; scores recomputed from holdings."""
    points = victory_points(dump)
    winners = outcome["winners"]
    if len(winners) != 1:
        return [f"expected one winner, got {outcome}"]
    problems = []
    final = dump["players"][winners[0]]
    if is_expansion(dump) and not expansion_has_won(final):
        problems.append(f"winner holds {expansion_goals(final)}, not 1 home + 2 aristocrat goals")
    if not is_expansion(dump) and points[winners[0]] != GOALS_TO_WIN:
        problems.append(f"winner holds {points}, outcome {outcome}")
    if outcome["scores"] != {str(s): p for s, p in enumerate(points)}:
        problems.append(f"scores {outcome['scores']} do not match holdings {points}")
    return problems


# --- how the seeded matches are played ------------------------------------------

# Weighted-random play (support/policy.py): a uniform player mostly shuffles
# ships and buys cards, so matches run to tens of thousands of actions.
# Measured (lead): base mean ~3.3k actions per match, every type still chosen.
BASE_WEIGHTS = {"buy": 0.05, "move_ship": 0.5, "end_turn": 0.3}
# The expansion's aristocrat goals all need a defeated pirate lair (manor
# step 9, the skull site) and luxuries, so progress actions weigh more,
# selling luxuries less, and ships are drawn east to the pirate board
# (columns 11.. are the passage and the pirate board, DESIGN.md Expansion).
EXPANSION_WEIGHTS = {
    "buy": 0.1, "move_ship": 1.0, "end_turn": 0.2, "build_manor": 10, "buy_cannon": 5,
    "build_aristocrat": 10, "sell_luxury": 0.05, "take_tile": 3, "discover": 40, "build_ship": 5,
    "exchange_card": 0.2, "play_card": 0.5,
}
PIRATE_BOARD_FIRST_COL = 11


def _eastward(action):
    return 4.0 if action["to"][1] >= PIRATE_BOARD_FIRST_COL else 1.0


def _luxury_buy(action):
    return 10.0 if action["commodity"] in LUXURIES else 1.0


EXPANSION_REFINE = {"move_ship": _eastward, "buy": _luxury_buy}
_X = {"expansion": "pirates_aristocrats"}
MATCH_VARIANTS = (
    Variant("anno1503 base", {}, (2, 3, 4), weights=BASE_WEIGHTS, coverage="anno1503 base"),
    # A few uniform matches keep the uniform random player covered end to end.
    # Uniform lengths range from 1.4k to over 200k actions (seeds 3000-3009:
    # 2p 3000 and 3001 are 3.7k and 198k); these seeds were picked among the
    # first ten per player count for ending within ~12k actions, to fit the
    # suite's time budget.
    Variant("anno1503 base uniform", {}, (2, 3, 4), coverage="anno1503 base",
            fixed=((2, 3000), (2, 3004), (3, 3004), (3, 3007), (4, 3000), (4, 3001))),
    Variant("anno1503 expansion", _X, (2, 3, 4), weights=EXPANSION_WEIGHTS, refine=EXPANSION_REFINE,
            first_seed=5000, coverage="anno1503 expansion"),
)
_BASE_TYPES = frozenset({
    "choose_commodity", "lose_tile", "place_reserve_tile", "build_ship", "place_pioneer", "develop",
    "sell", "buy", "move_ship", "discover", "take_tile", "return_tile", "big_branch_office",
    "end_turn", "discard",
})
COVERAGE = {
    "anno1503 base": _BASE_TYPES,
    "anno1503 expansion": _BASE_TYPES | {
        "buy_cannon", "build_manor", "build_aristocrat", "sell_luxury", "repair_ship", "play_card",
        "exchange_card", "respond", "discard_card",
    },
}


def perturbation_names(options, num_players):
    """The hidden-info edits every match of this variant must exercise."""
    if options.get("expansion") == "pirates_aristocrats":
        return PERTURBATIONS + PERTURBATIONS_EXPANSION
    return PERTURBATIONS


# --- hidden information -------------------------------------------------------


def hidden_tiles(dump, viewer):
    """Tile id -> position key, for every tile whose identity ``viewer`` may not know."""
    hidden = {}
    for space, tile in dump["spaces"].items():
        if tile is not None and (viewer is None or viewer not in dump["seen"].get(space, [])):
            hidden[tile] = ("spaces", space)
    for pile in ("reserve", "box", "expansion_reserve"):
        for i, tile in enumerate(dump.get(pile, ())):
            hidden[tile] = (pile, i)
    combat = dump.get("combat")
    if combat is not None and combat.get("tile") is not None:
        # A lair under attack is shown to the table while the battle lasts
        # (DESIGN.md Expansion "View additions"); if it wins, it goes face down again.
        hidden.pop(combat["tile"], None)
    return hidden


def perturbations(dump, viewer):
    """``[(name, edited dump)]`` changing only what ``viewer`` cannot see.

    A perturbation that would change nothing (e.g. no card in other hands)
    is left out; callers count the ones done.
    """
    out = []
    perturbers = {**_PERTURBERS, **_X_PERTURBERS} if is_expansion(dump) else _PERTURBERS
    for name, edit in perturbers.items():
        changed = orjson.loads(orjson.dumps(dump))  # a deep copy, 50x faster than deepcopy
        if edit(changed, viewer):
            out.append((name, changed))
    return out


def _other_hands(dump, viewer):
    """Recolour one card in each other non-empty hand (same size)."""
    done = False
    for seat, p in enumerate(dump["players"]):
        hand = p["hand"]
        if seat == viewer or not any(hand.values()):
            continue
        kinds = list(hand)  # the six commodities, plus the luxuries in the expansion
        i = next(i for i, c in enumerate(kinds) if hand[c])
        hand[kinds[i]] -= 1
        hand[kinds[(i + 1) % len(kinds)]] += 1
        done = True
    return done


def _unseen_tiles(dump, viewer):
    """Rotate identities among hidden tiles of the same back."""
    by_back = {}
    for tile, position in sorted(hidden_tiles(dump, viewer).items()):
        # an expansion tile's back has a crown: it only trades places with its kind
        by_back.setdefault((TILE_BACKS[tile], tile >= TILE_COUNT), []).append((tile, position))
    done = False
    for group in by_back.values():
        if len(group) < 2:
            continue
        tiles = [t for t, _ in group]
        for (_, (pile, key)), tile in zip(group, tiles[1:] + tiles[:1]):
            dump[pile][key] = tile
        done = True
    return done


def _reserve_order(dump, viewer):
    if len(dump["reserve"]) < 2:
        return False
    dump["reserve"].reverse()
    return True


def _generator(dump, viewer):
    dump["rng"] = (dump["rng"] * 6364136223846793005 + 1442695040888963407) % (1 << 64)
    return True


_PERTURBERS = {
    "other_hands": _other_hands,
    "unseen_tiles": _unseen_tiles,
    "reserve_order": _reserve_order,
    "generator": _generator,
}
PERTURBATIONS = tuple(_PERTURBERS)


def view_leaks(view, dump, viewer):
    """Problems found by searching ``view`` for what ``viewer`` may not see."""
    problems = [f"forbidden key {path}" for path in find_keys(view, FORBIDDEN_VIEW_KEYS)]
    problems += [f"generator state at {path}" for path in find_values(view, {dump["rng"]})]
    problems += _hand_leaks(view, dump, viewer)
    if is_expansion(dump):
        problems += _aristocrat_card_leaks(view, dump, viewer)
    problems += _tile_leaks(view, dump, viewer)
    return problems


def _hand_leaks(view, dump, viewer):
    problems = []
    for entry in view["players"]:
        seat = entry["seat"]
        hand = dump["players"][seat]["hand"]
        if seat == viewer:
            if entry.get("hand") != hand:
                problems.append(f"own hand shown as {entry.get('hand')} instead of {hand}")
        elif "hand" in entry:
            problems.append(f"seat {seat}'s hand is in the view of {viewer}")
        elif entry.get("hand_size") != sum(hand.values()):
            problems.append(f"seat {seat} hand_size {entry.get('hand_size')} != {sum(hand.values())}")
    problems += _hand_copies(view, dump, viewer)
    return problems


def _hand_copies(view, dump, viewer):
    """Another seat's hand anywhere in the JSON (e.g. inside ``choice``).

    Only distinctive hands are searched: an empty one, or one equal to the
    viewer's own hand or the stacks, would match innocently.
    """
    public = [dump["stacks"]] + ([dump["players"][viewer]["hand"]] if viewer is not None else [])
    problems = []
    for seat, p in enumerate(dump["players"]):
        hand = p["hand"]
        if seat == viewer or not any(hand.values()) or hand in public:
            continue
        for path, _ in find_dicts(view, lambda d, h=hand: d == h):
            problems.append(f"seat {seat}'s hand {hand} at {path}")
    return problems


def _tile_leaks(view, dump, viewer):
    hidden = hidden_tiles(dump, viewer)
    problems = [
        f"hidden tile {d['id']} at {path}"
        for path, d in find_dicts(view, lambda d: "id" in d and ("back" in d or "kind" in d))
        if d["id"] in hidden and d.get("kind") not in PIRATE_CARD_KINDS
    ]
    for entry in view["spaces"]:
        key = f"{entry['space'][0]},{entry['space'][1]}"
        tile = dump["spaces"][key]
        if tile is None:
            expected = None
        elif tile in hidden or _lair_in_combat(dump, tile, key, viewer):
            expected = {"back": TILE_BACKS[tile]}
        else:
            expected = None  # seen by the viewer: its identity may (must) be shown
            if entry["tile"] is None or entry["tile"].get("id") != tile:
                problems.append(f"space {key}: viewer {viewer} looked at tile {tile} but sees {entry['tile']}")
            continue
        if entry["tile"] != expected:
            problems.append(f"space {key} shows {entry['tile']} to {viewer}, expected {expected}")
    return problems


def _lair_in_combat(dump, tile, space, viewer):
    """The lair under attack: shown in ``combat``, still face down on its space
    for a viewer who did not look at it."""
    combat = dump.get("combat")
    seen = viewer is not None and viewer in dump["seen"].get(space, [])
    return combat is not None and combat.get("tile") == tile and not seen


def event_leaks(event):
    """Secrets that must only travel in ``private``: a discovered tile, a drawn card."""
    data = event["data"]
    if event["type"] == "tile_discovered" and ({"tile", "id", "kind"} & set(data)):
        return [f"tile_discovered shows the tile publicly: {data}"]
    if event["type"] == "card_drawn" and "commodity" in data:
        return [f"card_drawn shows the card publicly: {data}"]
    if event["type"] == "aristocrat_cards_drawn" and "cards" in data:
        return [f"aristocrat cards drawn shown publicly: {data}"]
    return []


# --- the Pirates & Aristocrats expansion (game-content §2) --------------------------

LUXURIES = ("silk", "marble", "gems")
CARDS_PER_LUXURY = 10  # §2.1
X_TILE_COUNT = TILE_COUNT + 21  # §2.1: 21 crown tiles
X_SPACE_COUNT = SPACE_COUNT + 14  # the port's space stays listed, always empty (§2.2, §2.3)
PIRATE_CARD_COUNT = 10  # §2.11
PIRATE_CARD_KINDS = ("aggressive", "peaceful")
ARISTOCRAT_CARDS = {"explorer": 4, "builder": 4, "inventor": 4, "engineer": 4, "sea_hero": 4}  # §2.10
ARISTOCRAT_BUILDINGS_IN_PLAY = {2: 6, 3: 8, 4: 10}  # §2.9
MAX_CANNONS, MANOR_STEPS, MAX_LAIRS, SITES = 6, 9, 2, 3
PERTURBATIONS_EXPANSION = ("other_aristocrat_cards", "aristocrat_deck_order", "pirate_deck_order")


def expansion_goals(p):
    x = p["aristocrat"]
    return {
        "merchants": p["slots"].count("merchant") >= 3,
        "public_buildings": sum(b is not None for b in p["buildings"]) >= 4,
        "trade_agreements": len(p["trade_agreements"]) >= 3,
        "aristocrat_buildings": len(x["buildings"]) >= 3,
        "lairs": len(x["lairs"]) >= 2,
        "manor": x["manor"] >= 9,
    }


def expansion_has_won(p):
    """§2.12: at least one home-island goal and two aristocrat-island goals."""
    g = expansion_goals(p)
    home = g["merchants"] + g["public_buildings"] + g["trade_agreements"]
    return home >= 1 and g["aristocrat_buildings"] + g["lairs"] + g["manor"] >= 2


def expansion_problems(dump):
    problems = [*_commodity_problems(dump), *_player_problems(dump), *_building_problems(dump)]
    problems += _tile_problems(dump, X_TILE_COUNT, X_SPACE_COUNT)
    if dump["spaces"]["2,8"] is not None:
        problems.append("a tile lies on the port")
    for c in LUXURIES:
        counts = [dump["stacks"][c], *(p["hand"][c] for p in dump["players"])]
        if sum(counts) != CARDS_PER_LUXURY or min(counts) < 0:
            problems.append(f"{c}: {counts}, not {CARDS_PER_LUXURY} in all")
    problems += _expansion_card_problems(dump)
    problems += _aristocrat_island_problems(dump)
    if dump["winner"] is None and expansion_has_won(dump["players"][dump["active"]]):
        problems.append(f"active seat {dump['active']} holds the winning goals but the match goes on")
    return problems


def _expansion_card_problems(dump):
    problems = []
    pirates = dump["pirate_deck"] + dump["pirate_discard"]
    combat = dump["combat"]
    if combat is not None and "card" in combat:
        pirates = pirates + [combat["card"]]
    if sorted(pirates) != list(range(PIRATE_CARD_COUNT)):
        problems.append(f"pirate cards are {sorted(pirates)}")
    held = dump["aristocrat_deck"] + dump["aristocrat_discard"]
    for p in dump["players"]:
        held = held + p["aristocrat"]["cards"]
    if {c: held.count(c) for c in ARISTOCRAT_CARDS} != ARISTOCRAT_CARDS or len(held) != 20:
        problems.append(f"aristocrat cards are {sorted(held)}")
    return problems


def _aristocrat_island_problems(dump):
    problems = []
    owned = 0
    for seat, p in enumerate(dump["players"]):
        x = p["aristocrat"]
        owned += len(x["buildings"])
        if len(set(x["buildings"])) != len(x["buildings"]) or len(x["buildings"]) > SITES:
            problems.append(f"seat {seat} aristocrat buildings {x['buildings']}")
        if not (0 <= x["cannons"] <= MAX_CANNONS and 0 <= x["manor"] <= MANOR_STEPS):
            problems.append(f"seat {seat} cannons {x['cannons']} manor {x['manor']}")
        if len(x["lairs"]) > MAX_LAIRS:
            problems.append(f"seat {seat} defeated {len(x['lairs'])} lairs")
        if x["manor"] == MANOR_STEPS and not x["lairs"]:
            problems.append(f"seat {seat} finished the manor without a lair")
    total = owned + sum(dump["aristocrat_buildings"].values())
    if total != ARISTOCRAT_BUILDINGS_IN_PLAY[dump["num_players"]]:
        problems.append(f"{total} aristocrat buildings in play")
    return problems


def _aristocrat_card_leaks(view, dump, viewer):
    problems = []
    for entry in view["players"]:
        seat, shown = entry["seat"], entry["aristocrat"]
        cards = dump["players"][seat]["aristocrat"]["cards"]
        if seat == viewer:
            if shown.get("cards") != cards:
                problems.append(f"own aristocrat cards shown as {shown.get('cards')}")
        elif "cards" in shown or shown.get("cards_count") != len(cards):
            problems.append(f"seat {seat}'s aristocrat cards leak to {viewer}: {shown}")
    return problems


def _other_aristocrat_cards(dump, viewer):
    """Swap one card of another seat with a different card of the deck."""
    deck = dump["aristocrat_deck"]
    for seat, p in enumerate(dump["players"]):
        cards = p["aristocrat"]["cards"]
        if seat == viewer or not cards:
            continue
        for i, card in enumerate(deck):
            if card != cards[0]:
                deck[i], cards[0] = cards[0], card
                return True
    return False


def _reverse(pile):
    def edit(dump, viewer):
        if len(set(dump[pile])) < 2:
            return False
        dump[pile].append(dump[pile].pop(0))  # a rotation always changes a mixed pile
        return True
    return edit


_X_PERTURBERS = {
    "other_aristocrat_cards": _other_aristocrat_cards,
    "aristocrat_deck_order": _reverse("aristocrat_deck"),
    "pirate_deck_order": _reverse("pirate_deck"),
}


# --- for the secrecy self-tests (tests/engine/test_view_secrecy.py) -------------


def rich_in_secrets(dump):
    """A position where every perturbation has something to change for seat 0."""
    hand = dump["players"][1]["hand"]
    return (
        any(hand.values()) and hand != dump["players"][0]["hand"] and hand != dump["stacks"]
        and hand["stone"] > 0
        and any(0 in seats and 1 not in seats and dump["spaces"][s] is not None for s, seats in dump["seen"].items())
    )


# Hidden values a deliberately leaky view shows (each must be caught).
PLANTED_SECRETS = {
    "a count from another hand": lambda d: d["players"][1]["hand"]["stone"],
    "the top reserve tile id": lambda d: d["reserve"][0],
    "the next die roll": lambda d: d["rng"] % 6,
    "a face-down tile": lambda d: next(t for t in d["spaces"].values() if t is not None),
}
LEAKY_EVENTS = (
    {"type": "tile_discovered", "seat": 0, "data": {"ship": 0, "space": [0, 0], "back": 2, "tile": {"id": 3}}},
    {"type": "card_drawn", "seat": 0, "data": {"target": 1, "commodity": "wood"}},
)
SAFE_EVENTS = (
    {"type": "card_drawn", "seat": 0, "data": {"target": 1}, "private": {"0": {"commodity": "wood"}}},
)
