"""Anno 1503 bookkeeping: what is conserved, and who may have won.

Everything works on dumps (DESIGN.md "Dump format"), so the checks see the
same data a stored match holds.
"""

import functools

from .components import (
    ARISTOCRAT_BUILDINGS_IN_PLAY,
    ARISTOCRAT_CARDS,
    BUILDINGS_IN_PLAY,
    CARDS_PER_COMMODITY,
    CARDS_PER_LUXURY,
    CITIZEN_MERCHANT_TILES,
    COMMODITIES,
    EXPANSION_SPACE_COUNT,
    EXPANSION_TILE_COUNT,
    GOALS_TO_WIN,
    LUXURIES,
    MANOR_STEPS,
    MAX_CANNONS,
    MAX_LAIRS,
    PIONEER_SETTLER_TILES,
    PIRATE_CARD_COUNT,
    SITES,
    SPACE_COUNT,
    TILE_COUNT,
)


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
        *_sale_problems(dump),
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


def _placed_tiles(dump):
    """``(tile, where)`` for every tile anywhere: on a space, in a pile, on a
    seat's bridges, lairs or trade agreements. ``where`` is a tuple, made
    into words only for a message (the quick check runs on every step)."""
    for space, tile in dump["spaces"].items():
        if tile is not None:
            yield tile, ("space", space)
    for pile in ("reserve", "box", "removed", "expansion_reserve"):
        for tile in dump.get(pile, ()):
            yield tile, (pile,)
    for seat, p in enumerate(dump["players"]):
        for tile in p.get("aristocrat", {}).get("lairs", ()):
            yield tile, ("seat", seat, "gold bridge")
        for bridge, tile in p["branch_offices"].items():
            if tile is not None:
                yield tile, ("seat", seat, "bridge", bridge)
        for tile in p["trade_agreements"]:
            yield tile, ("seat", seat, "trade agreements")


def tile_locations(dump):
    """Tile id -> every place it is found (should be exactly one each)."""
    found = {}
    for tile, where in _placed_tiles(dump):
        found.setdefault(tile, []).append(" ".join(map(str, where)))
    return found


def _tile_problems(dump, tile_count=TILE_COUNT, space_count=SPACE_COUNT):
    if len(dump["spaces"]) == space_count and _tile_ids_ok(dump, tile_count):
        return []  # the common case, without building messages
    found = tile_locations(dump)
    problems = [
        f"tile {t} is in {places}" for t, places in sorted(found.items(), key=str) if len(places) != 1
    ]
    missing = set(range(tile_count)) - set(found)
    unknown = set(found) - set(range(tile_count))
    if missing:
        problems.append(f"tiles missing: {sorted(missing)}")
    if unknown:
        problems.append(f"unknown tile ids: {sorted(unknown, key=str)}")
    if len(dump["spaces"]) != space_count:
        problems.append(f"{len(dump['spaces'])} island spaces, not {space_count}")
    return problems


def _tile_ids_ok(dump, tile_count):
    """Every tile id exactly once: the quick test run on every step (the
    messages are built only when it fails)."""
    ids = [tile for tile, _ in _placed_tiles(dump)]
    return len(ids) == tile_count and set(ids) == _all_tiles(tile_count)


@functools.cache
def _all_tiles(tile_count):
    return frozenset(range(tile_count))


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


def _sale_problems(dump):
    """S1 "Sell commodities": once per turn, one card to each inhabitant.

    The active seat's sales this turn never outnumber its inhabitants, of
    any kind nor in all (an inhabitant developed after buying has bought as
    its new kind). Only the active seat: the others keep their last turn's
    record, which a fire in this turn may have outdated.
    """
    p = dump["players"][dump["active"]]
    sold, slots = p["turn"]["sold"], p["slots"]
    over = {kind: n for kind, n in sold.items() if n > slots.count(kind)}
    inhabitants = sum(kind is not None for kind in slots)
    if over or sum(sold.values()) > inhabitants:
        return [f"seat {dump['active']} sold {sold} this turn to the inhabitants {slots}"]
    return []


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
    return (
        [f"active seat {dump['active']} holds {vp} points but the match goes on"]
        if vp >= GOALS_TO_WIN
        else []
    )


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


# --- the Pirates & Aristocrats expansion (game-content §2) --------------------------


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
    problems += _sale_problems(dump)
    problems += _tile_problems(dump, EXPANSION_TILE_COUNT, EXPANSION_SPACE_COUNT)
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
