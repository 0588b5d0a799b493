"""Position builders and oracles for the Anno 1503 scenario tests.

Positions are built the way DESIGN.md promises they can be: set up a match,
``dump`` it, edit the plain data, ``load`` it. The helpers keep the edited
dump consistent (every commodity card, island tile and public building is in
exactly one place) so the engine sees a position that could really occur.

The tables below are the test oracle, copied from the specs rather than read
from the engine's data files, so a wrong data file makes a test fail.
"""

import functools
import json
import pathlib

import engine
from engine.rng import Rng

COMMODITIES = ("stone", "wood", "tool", "cloth", "spice", "tobacco")
CARDS_PER_COMMODITY = 15  # game-content §1.1 (W4)
START = [2, 0]  # the start square of the reconstructed board, game-content §1.4
AP_BY_PLAYERS = {2: 2, 3: 3, 4: 4}  # S1 "Move ships and discover islands"

# game-content §1.3: die number -> symbol per home island (seat i gets "ABCD"[i]).
ISLAND_PRODUCTION = {
    0: {1: "?", 2: "stone", 3: "wood", 4: "cloth", 5: "tool"},
    1: {1: "stone", 2: "wood", 3: "cloth", 4: "tool", 5: "?"},
    2: {1: "wood", 2: "cloth", 3: "tool", 4: "?", 5: "stone"},
    3: {1: "cloth", 2: "tool", 3: "?", 4: "stone", 5: "wood"},
}
GRAY_BRIDGES = {0: (2, 3, 4, 5), 1: (1, 2, 3, 4), 2: (1, 2, 3, 5), 3: (1, 2, 4, 5)}

# game-content §1.4: island spaces by mark, and the AP needed to discover each.
SPACE_MARKS = {
    (0, 0): 2,
    (3, 1): 2,
    (4, 0): 2,
    (1, 2): 2,
    (3, 2): 2,
    (1, 3): 2,
    (0, 3): 2,
    (2, 5): 2,
    (3, 4): 2,
    (0, 4): 2,
    (4, 4): 2,
    (2, 8): 2,
    (4, 1): 3,
    (2, 6): 3,
    (0, 6): 3,
    (0, 7): 3,
    (1, 9): 3,
    (4, 7): 3,
    (3, 5): 3,
    (4, 8): 4,
    (0, 10): 4,
    (3, 10): 4,
    (4, 10): 4,
    (1, 10): 4,
    (0, 11): 4,
    (4, 11): 4,
}
PUBLIC_BUILDINGS_BY_BACK = {  # game-content §1.6 (S1 "Distribution of public buildings")
    2: ["fire_brigade", "smithy", "church", "school", "bath_house", "restaurant", "shipyard"],
    3: ["big_branch_office", "school", "shipyard"],
    4: ["big_branch_office", "fire_brigade", "smithy", "restaurant"],
}

_DATA = pathlib.Path(engine.__file__).parent / "games" / "anno1503" / "data"


def game():
    return engine.get_game("anno1503")


def key(space):
    """The dump's key for an island space ``[r, c]``."""
    return f"{space[0]},{space[1]}"


# --- island tiles --------------------------------------------------------


@functools.cache
def _tiles():
    return json.loads((_DATA / "tiles.json").read_text())


def tile_catalogue():
    """``{id: {"id", "back", "kind", "commodity"?}}`` from data/tiles.json."""
    raw = _tiles()
    if isinstance(raw, dict) and "tiles" in raw:
        raw = raw["tiles"]
    if isinstance(raw, dict):
        raw = [dict(v, id=int(k)) if "id" not in v else v for k, v in raw.items()]
    return {int(t["id"]): t for t in raw}


def tile_ids(kind, commodity=None, back=None):
    return [
        t["id"]
        for t in tile_catalogue().values()
        if t["kind"] == kind
        and (commodity is None or t.get("commodity") == commodity)
        and (back is None or t["back"] == back)
    ]


def _detach_tile(d, tile):
    """Remove ``tile`` from wherever it lies (box, reserve, board); True if found."""
    for pile in ("box", "reserve", "removed"):
        if tile in d[pile]:
            d[pile].remove(tile)
            return True
    for k, v in d["spaces"].items():
        if v == tile:
            d["spaces"][k] = None
            _forget(d, k)
            return True
    return False


def _forget(d, k):
    if k in d["seen"]:
        d["seen"][k] = []


def _pick_tile(d, kind, commodity=None):
    """A tile of ``kind`` not owned by anyone, preferring box, reserve, board.

    The box first keeps the board and the reserve untouched where possible.
    """
    wanted = set(tile_ids(kind, commodity))
    for pile in ("box", "reserve"):
        for tile in d[pile]:
            if tile in wanted:
                return tile
    for tile in d["spaces"].values():
        if tile in wanted:
            return tile
    raise LookupError(f"no free {kind} {commodity or ''} tile left")


def give_branch_office(d, seat, bridge, commodity):
    tile = _pick_tile(d, "branch_office", commodity)
    _detach_tile(d, tile)
    d["players"][seat]["branch_offices"][str(bridge)] = tile
    return tile


def give_trade_agreements(d, seat, count):
    for _ in range(count):
        tile = _pick_tile(d, "trade_agreement")
        _detach_tile(d, tile)
        d["players"][seat]["trade_agreements"].append(tile)


def put_tile_on(d, tile, space):
    """Put ``tile`` face down on ``space``; what was there takes its old place."""
    k = key(space)
    old = d["spaces"][k]
    for pile in ("box", "reserve"):
        if tile in d[pile]:
            i = d[pile].index(tile)
            if old is None:
                d[pile].pop(i)
            else:
                d[pile][i] = old
            break
    else:
        for k2, v in d["spaces"].items():
            if v == tile:
                d["spaces"][k2] = old
                _forget(d, k2)
                break
        else:
            raise LookupError(f"tile {tile} is owned or removed")
    d["spaces"][k] = tile
    _forget(d, k)


def clear_space(d, space):
    """Move the tile on ``space`` to the bottom of the reserve."""
    k = key(space)
    if d["spaces"][k] is not None:
        d["reserve"].append(d["spaces"][k])
        d["spaces"][k] = None
        _forget(d, k)


def all_tile_places(d):
    """Every tile id with multiplicity, wherever it is (for conservation checks)."""
    ids = list(d["box"]) + list(d["reserve"]) + list(d["removed"])
    ids += [t for t in d["spaces"].values() if t is not None]
    for p in d["players"]:
        ids += [t for t in p["branch_offices"].values() if t is not None]
        ids += list(p["trade_agreements"])
    return sorted(ids)


# --- cards, inhabitants, buildings ---------------------------------------


def sync_stacks(d):
    """Stacks hold every card no player holds (15 of each in all)."""
    for c in COMMODITIES:
        held = sum(p["hand"][c] for p in d["players"])
        d["stacks"][c] = CARDS_PER_COMMODITY - held


def set_hand(d, seat, **cards):
    """Give ``seat`` exactly ``cards`` (others zero), keeping cards conserved."""
    d["players"][seat]["hand"] = {c: cards.get(c, 0) for c in COMMODITIES}
    sync_stacks(d)


def hand_size(d, seat):
    return sum(d["players"][seat]["hand"].values())


def set_island(d, seat, slots, buildings=(None, None, None, None)):
    """Set slots 1..7 and the buildings under slots 4..7, via the supply."""
    player = d["players"][seat]
    for old in player["buildings"]:
        if old is not None:
            d["buildings"][old] = d["buildings"].get(old, 0) + 1
    slots = list(slots) + [None] * (7 - len(slots))
    buildings = list(buildings) + [None] * (4 - len(buildings))
    _check_island(slots, buildings)
    for b in buildings:
        if b is not None:
            if d["buildings"].get(b, 0) < 1:
                raise LookupError(f"{b} is not in the supply")
            d["buildings"][b] -= 1
    player["slots"] = slots
    player["buildings"] = buildings


def _check_island(slots, buildings):
    """Refuse positions the components cannot make (game-content §1.1, §1.3)."""
    if sum(k in ("pioneer", "settler") for k in slots) > 4:
        raise ValueError("only 4 pioneer/settler tiles per player")
    if sum(k in ("citizen", "merchant") for k in slots) > 3:
        raise ValueError("only 3 citizen/merchant tiles per player")
    if None in slots and any(k is not None for k in slots[slots.index(None) :]):
        raise ValueError("slots fill in order (ruling 3)")
    for slot, b in zip(slots[3:], buildings):
        if b is not None and slot is None:
            raise ValueError("a public building sits below an inhabitant")
    named = [b for b in buildings if b is not None]
    if len(set(named)) != len(named):
        raise ValueError("never two buildings of one type")


def main_phase(d, seat):
    """Make it ``seat``'s turn, in the main phase, with nothing pending."""
    d["active"] = seat
    d["phase"] = "main"
    d["queue"] = []
    d["choice"] = None
    d["discovery"] = None
    d["winner"] = None
    ap = AP_BY_PLAYERS[d["num_players"]]
    for i, p in enumerate(d["players"]):
        p["turn"] = {
            "sold": {"pioneer": 0, "settler": 0, "citizen": 0, "merchant": 0},
            "buys": 0,
            "big_branch_office_used": False,
        }
        for ship in p["ships"]:
            if ship["at"] is not None and i == seat:
                ship["ap"] = ap * (2 if "shipyard" in p["buildings"] else 1)


def position(num_players, active=0, seed=1):
    """A fresh match as a dump: empty hands, ``active`` in the main phase."""
    d = game().dump(game().setup(num_players, {}, seed))
    main_phase(d, active)
    for seat in range(num_players):
        set_hand(d, seat)
    return d


def load(d):
    return game().load(json.loads(json.dumps(d)))


def dump(state):
    return game().dump(state)


# --- dice ----------------------------------------------------------------


def rng_state_for(*dice):
    """The first generator state whose next rolls are ``dice``."""
    for s in range(1_000_000):
        rng = Rng(s)
        if all(rng.die() == want for want in dice):
            return s
    raise LookupError(f"no generator state rolls {dice}")


def force_dice(d, *dice):
    d["rng"] = rng_state_for(*dice)


def rolls(events):
    """``[(purpose, value)]`` of the die_rolled events."""
    return [(e["data"]["purpose"], e["data"]["value"]) for e in events if e["type"] == "die_rolled"]


def end_turn_rolling(d, *dice):
    """Load ``d``, force the next rolls, end the active turn; (state, events).

    Checks the engine rolled what was forced, so a test never passes on
    dice it did not ask for.
    """
    force_dice(d, *dice)
    state = load(d)
    state, events = game().apply(state, d["active"], {"type": "end_turn"})
    got = [v for purpose, v in rolls(events) if purpose in ("production", "event")]
    assert got[: len(dice)] == list(dice), f"forced {dice}, engine rolled {rolls(events)}"
    return state, events


# --- applying and asserting ----------------------------------------------


def play(state, seat, action):
    return game().apply(state, seat, action)


def play_all(state, moves):
    """Apply ``[(seat, action)]`` in order; returns (state, all events)."""
    events = []
    for seat, action in moves:
        state, new = play(state, seat, action)
        events.extend(new)
    return state, events


def of_type(events, kind):
    return [e for e in events if e["type"] == kind]


def legal_of_type(state, seat, kind):
    return [a for a in game().legal_actions(state, seat) if a["type"] == kind]


def assert_illegal(state, seat, action):
    """``action`` is not listed and ``apply`` refuses it with a reason.

    Returns the reason; the input state must be left unchanged.
    """
    before = json.dumps(dump(state), sort_keys=True)
    assert action not in game().legal_actions(state, seat)
    try:
        game().apply(state, seat, action)
    except engine.IllegalActionError as err:
        reason = err.reason
    else:
        raise AssertionError(f"{action} was accepted")
    assert isinstance(reason, str) and reason.strip(), "the refusal must name a rule"
    assert json.dumps(dump(state), sort_keys=True) == before
    return reason


def vp(state, seat):
    return game().view(state, seat)["players"][seat]["victory_points"]
