"""Setup for 2, 3 and 4 players, starting holdings and the action vocabulary."""

from collections import Counter

import pytest

import engine
from engine.games.anno1503.expansion.hooks import OWN_TYPES
from engine.games.anno1503.variant import BASE_GAME

from .helpers import (
    AP_BY_PLAYERS,
    CARDS_PER_COMMODITY,
    COMMODITIES,
    ISLAND_PRODUCTION,
    PUBLIC_BUILDINGS_BY_BACK,
    SPACE_MARKS,
    START,
    dump,
    game,
    key,
    load,
    position,
    tile_catalogue,
)

USED_BACKS = {2: {2}, 3: {2, 3}, 4: {2, 3, 4}}


def _setup(n, seed):
    return game().dump(game().setup(n, {}, seed))


@pytest.mark.parametrize("n", [2, 3, 4])
def test_island_tiles_stacks_by_player_count(n):
    """S1 setup: 2p uses only the "2" stack, 3p adds "3", 4p all; each tile
    lies face down on a space with the same mark; game-content §1.4 reserve
    sizes 4/5/6; unused stacks stay in the box."""
    d = _setup(n, seed=11)
    tiles = tile_catalogue()
    on_board = {k: t for k, t in d["spaces"].items() if t is not None}
    used_spaces = [s for s, mark in SPACE_MARKS.items() if mark in USED_BACKS[n]]
    assert sorted(on_board) == sorted(key(s) for s in used_spaces)
    for k, t in on_board.items():
        r, c = map(int, k.split(","))
        assert tiles[t]["back"] == SPACE_MARKS[(r, c)]
    assert len(d["reserve"]) == {2: 4, 3: 5, 4: 6}[n]
    assert all(tiles[t]["back"] in USED_BACKS[n] for t in d["reserve"])
    assert sorted(d["box"]) == sorted(i for i, t in tiles.items() if t["back"] not in USED_BACKS[n])
    assert d["removed"] == []


def test_tile_distribution_matches_the_printed_table():
    """S1 "Distribution of island tiles" (game-content §1.5): 32 tiles."""
    counts = Counter((t["back"], t["kind"], t.get("commodity")) for t in tile_catalogue().values())
    assert sum(counts.values()) == 32
    expected = {
        (2, "trade_agreement", None): 6,
        (2, "treasure_upgrade", None): 1,
        (2, "treasure_gold", None): 1,
        (2, "branch_office", "spice"): 4,
        (2, "branch_office", "tobacco"): 3,
        (2, "branch_office", "cloth"): 1,
        (3, "trade_agreement", None): 2,
        (3, "treasure_upgrade", None): 1,
        (3, "treasure_gold", None): 1,
        (3, "branch_office", "spice"): 1,
        (3, "branch_office", "tobacco"): 1,
        (3, "branch_office", "stone"): 1,
        (3, "branch_office", "tool"): 1,
        (4, "trade_agreement", None): 3,
        (4, "treasure_upgrade", None): 1,
        (4, "treasure_gold", None): 1,
        (4, "branch_office", "spice"): 1,
        (4, "branch_office", "tobacco"): 1,
        (4, "branch_office", "wood"): 1,
    }
    assert dict(counts) == expected


@pytest.mark.parametrize("n", [2, 3, 4])
def test_public_buildings_by_player_count(n):
    """S1 setup: 2p removes the "3" and "4" public buildings, 3p the "4";
    7/10/14 tiles face up in the supply (game-content §1.6)."""
    d = _setup(n, seed=5)
    expected = Counter(b for back in USED_BACKS[n] for b in PUBLIC_BUILDINGS_BY_BACK[back])
    supply = Counter({b: c for b, c in d["buildings"].items() if c})
    assert supply == expected
    assert sum(supply.values()) == {2: 7, 3: 10, 4: 14}[n]


def _resolve_choices_with(state, commodity):
    """Answer every pending commodity choice of the first roll with ``commodity``."""
    while dump(state)["phase"] in ("production", "golden_times"):
        seat = game().to_act(state)[0]
        state, _ = game().apply(state, seat, {"type": "choose_commodity", "commodity": commodity})
    return state


@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6])
def test_starting_holdings(n, seed):
    """S1 setup: 7 gold, one stone and one wood, Pioneer + Settler on the two
    red spaces, one ship on the start space and one in stock. The first
    production roll is part of the setup: once its choices are made (all
    tobacco here), each hand also holds that roll's commodity."""
    state = _resolve_choices_with(game().setup(n, {}, seed), "tobacco")
    d = dump(state)
    assert d["phase"] == "main"
    roll, event = d["last_roll"]["production"], d["last_roll"]["event"]
    for seat, p in enumerate(d["players"]):
        assert p["gold"] == 7
        assert p["slots"] == ["pioneer", "settler"] + [None] * 5
        assert p["buildings"] == [None] * 4
        assert all(t is None for t in p["branch_offices"].values())
        assert p["trade_agreements"] == []
        assert p["ships"][0]["at"] == START
        assert p["ships"][1]["at"] is None
        expected = Counter({"stone": 1, "wood": 1})
        if roll != 6:
            symbol = ISLAND_PRODUCTION[seat][roll]
            expected["tobacco" if symbol == "?" else symbol] += 1
        elif event in (5, 6):  # golden times
            expected["tobacco"] += 1
        assert Counter({c: k for c, k in p["hand"].items() if k}) == expected
    for c in COMMODITIES:
        held = sum(p["hand"][c] for p in d["players"])
        assert d["stacks"][c] + held == CARDS_PER_COMMODITY


@pytest.mark.parametrize("n", [2, 3, 4])
def test_first_turn_ship_action_points(n):
    """S1 "Move ships": 2/3/4 action points per ship with 2/3/4 players."""
    d = _setup(n, seed=8)
    active_ship = d["players"][d["active"]]["ships"][0]
    assert active_ship["ap"] == AP_BY_PLAYERS[n]


def test_start_player_begins():
    """S1 "The course of the game": the first turn is the start player's."""
    for seed in range(5):
        d = _setup(3, seed)
        assert d["active"] == d["start_player"]
        assert d["turn"] == 1


@pytest.mark.parametrize("seed", range(8))
def test_highest_start_roll_begins(seed):
    """S1 "The course of the game": "Each player rolls the die. The player
    with the highest number begins" (ties roll again, among the tied).
    Uses ``setup_with_events``, the engine's setup that also returns the
    start rolls."""
    state, events = game().setup_with_events(4, {}, seed)
    starts = [
        (e["seat"], e["data"]["value"])
        for e in events
        if e["type"] == "die_rolled" and e["data"]["purpose"] == "start_player"
    ]
    contenders, i = list(range(4)), 0
    while True:
        rolled = dict(starts[i : i + len(contenders)])
        assert sorted(rolled) == contenders
        i += len(contenders)
        best = max(rolled.values())
        contenders = [s for s in contenders if rolled[s] == best]
        if len(contenders) == 1:
            break
    assert i == len(starts)
    assert dump(state)["start_player"] == contenders[0]


def test_no_trade_between_players():
    """S1 "Sell and/or buy": purchase, sale or trade between players is not
    allowed: the action vocabulary has no such action (DESIGN.md table). The
    vocabulary is the variants' lists, and only the Big Branch Office (R#19:
    draw a card and pay for it, not a trade) names another seat."""
    specs = game().action_specs
    assert list(specs) == [*BASE_GAME.action_types, *OWN_TYPES]

    def description(domain):
        return getattr(domain, "description", None) or getattr(
            getattr(domain, "inner", None), "description", ""
        )

    naming_a_seat = {
        name for name, spec in specs.items() if any("seat" in description(d) for d in spec.params.values())
    }
    assert naming_a_seat == {"big_branch_office"}


@pytest.mark.parametrize("n", [1, 5])
def test_player_count_outside_2_to_4_is_refused(n):
    """S2 "per 2-4 giocatori"."""
    with pytest.raises(engine.InvalidOptionsError):
        game().setup(n, {}, 1)


def test_only_the_active_player_acts_in_his_turn():
    """S1 "The course of the game": on his turn a player executes the
    actions; the others have nothing to decide (contract: NotYourTurnError)."""
    state = load(position(3, active=1))
    assert game().to_act(state) == [1]
    assert game().legal_actions(state, 0) == []
    with pytest.raises(engine.NotYourTurnError):
        game().apply(state, 0, {"type": "end_turn"})
