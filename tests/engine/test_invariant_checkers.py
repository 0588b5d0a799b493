"""The invariant checkers fail when they should.

The random matches pass only if these checkers find nothing, so each one is
shown here to find a deliberately broken dump, listing, round trip or
refusal. Broken games are thin wrappers that delegate to the real one.
"""

import pytest

import engine

from .support import SUPPORT, checks, probes
from .support.domains import action_problem, malformed_actions

GAME_IDS = sorted(SUPPORT)


@pytest.fixture(params=GAME_IDS)
def game_and_support(request):
    return engine.get_game(request.param), SUPPORT[request.param]


def _dump(game, num_players=3, seed=9):
    return game.dump(game.setup(num_players, {}, seed))


def test_fresh_setups_have_sound_bookkeeping(game_and_support):
    game, support = game_and_support
    for n in range(game.min_players, game.max_players + 1):
        assert support.state_problems(_dump(game, n)) == []


_BREAKAGES_1503 = {
    "a card vanishes": lambda d: d["stacks"].update(stone=d["stacks"]["stone"] - 1),
    "a card appears": lambda d: d["players"][0]["hand"].update(wood=d["players"][0]["hand"]["wood"] + 1),
    "negative gold": lambda d: d["players"][1].update(gold=-1),
    "a tile twice": lambda d: d["box"].append(d["reserve"][0]),
    "a tile lost": lambda d: d["reserve"].pop(),
    "an unknown tile": lambda d: d["reserve"].append(99),
    "a building twice": lambda d: d["players"][0]["buildings"].__setitem__(slice(0, 2), ["church", "church"]),
    "an extra building": lambda d: d["buildings"].update(church=d["buildings"].get("church", 0) + 1),
    "too many pioneers": lambda d: d["players"][0]["slots"].__setitem__(slice(2, 5), ["pioneer"] * 3),
    "a missing space": lambda d: d["spaces"].pop(next(iter(d["spaces"]))),
}
_BREAKAGES_1452 = {
    "a card vanishes": lambda d: d["deck"].pop(),
    "a card twice": lambda d: d["players"][0]["hand"].append(d["deck"][0]),
    "negative gold": lambda d: d["players"][1].update(gold=-1),
    "prestige off the track": lambda d: d["players"][0].update(prestige=21),
    "a missing region slot": lambda d: d["regions"][0]["slots"].pop(),
    "a Principality without majority": lambda d: d["regions"][0].update(principality=0),
}
_BREAKAGES = {"anno1503": _BREAKAGES_1503, "anno1452": _BREAKAGES_1452}


@pytest.mark.parametrize(
    "game_id, breakage", [(g, b) for g in GAME_IDS for b in sorted(_BREAKAGES[g])], ids=lambda v: str(v)
)
def test_state_problems_finds_broken_bookkeeping(game_id, breakage):
    game, support = engine.get_game(game_id), SUPPORT[game_id]
    dump = _dump(game)
    _BREAKAGES[game_id][breakage](dump)
    assert support.state_problems(dump), f"{breakage} went unnoticed"


_EXPANSION_TILE_BREAKAGES = {
    "a lair also in the expansion reserve": lambda d: d["players"][1]["aristocrat"]["lairs"].append(
        d["expansion_reserve"][0]
    ),
    "a lair also on the board": lambda d: d["players"][1]["aristocrat"]["lairs"].append(
        next(t for t in d["spaces"].values() if t is not None)
    ),
    "an expansion tile lost": lambda d: d["expansion_reserve"].pop(),
    "a base tile twice": lambda d: d["expansion_reserve"].append(d["reserve"][0]),
}


def test_expansion_tile_moves_keep_bookkeeping_sound():
    """The control for the breakages below: a tile moved, not lost, is fine."""
    dump = _expansion_dump()
    dump["players"][1]["aristocrat"]["lairs"].append(dump["expansion_reserve"].pop())
    assert SUPPORT["anno1503"].state_problems(dump) == []


def _expansion_dump(num_players=3, seed=9):
    game = engine.get_game("anno1503")
    return game.dump(game.setup(num_players, {"expansion": "pirates_aristocrats"}, seed))


@pytest.mark.parametrize("breakage", sorted(_EXPANSION_TILE_BREAKAGES))
def test_state_problems_finds_broken_expansion_tiles(breakage):
    dump = _expansion_dump()
    assert SUPPORT["anno1503"].state_problems(dump) == []
    _EXPANSION_TILE_BREAKAGES[breakage](dump)
    assert any("tile" in problem for problem in SUPPORT["anno1503"].state_problems(dump)), breakage


def test_unfinished_match_with_a_winning_active_player_is_flagged():
    game, support = engine.get_game("anno1503"), SUPPORT["anno1503"]
    dump = _dump(game)
    active = dump["players"][dump["active"]]
    active["gold"] = 30
    active["trade_agreements"] = list(dump["reserve"][:3])
    del dump["reserve"][:3]
    assert support.victory_points(dump)[dump["active"]] == 2
    assert support.state_problems(dump) == []
    active["slots"] = ["merchant", "merchant", "merchant", None, None, None, None]
    assert support.victory_points(dump)[dump["active"]] == 3
    assert any("goes on" in p for p in support.state_problems(dump))


class _Wrapped:
    """Delegates to a real game; subclasses break one method."""

    def __init__(self, game):
        self._game = game

    def __getattr__(self, name):
        return getattr(self._game, name)


class _TupleDump(_Wrapped):
    def dump(self, state):
        return dict(self._game.dump(state), extra=(1, 2))


class _LossyLoad(_Wrapped):
    def load(self, data):
        # Loses the seed (an int in every game's dump): the reloaded dump differs.
        return self._game.load(dict(data, seed=data["seed"] + 1))


@pytest.mark.parametrize("broken", [_TupleDump, _LossyLoad])
def test_round_trip_catches_bad_codecs(game_and_support, broken):
    game, _ = game_and_support
    state = game.setup(2, {}, 1)
    checks.round_trip(game, state, "control")
    with pytest.raises(AssertionError):
        checks.round_trip(broken(game), state, "planted")


class _SilentSeat(_Wrapped):
    """Claims seat 0 must act but offers nothing."""

    def to_act(self, state):
        return [0]

    def legal_actions(self, state, seat):
        return []


class _Chatty(_Wrapped):
    """Offers actions to seats that have nothing to decide."""

    def legal_actions(self, state, seat):
        acting = self._game.to_act(state)[0]
        return self._game.legal_actions(state, acting)


def test_turn_consistency_catches_a_seat_with_nothing_to_do(game_and_support):
    game, _ = game_and_support
    state = game.setup(3, {}, 1)
    checks.turn_consistency(game, state, 3, "control")
    with pytest.raises(AssertionError, match="no legal action"):
        checks.turn_consistency(_SilentSeat(game), state, 3, "planted")


@pytest.mark.parametrize("broken", [_SilentSeat, _Chatty])
def test_others_get_nothing_catches_disagreements(game_and_support, broken):
    game, _ = game_and_support
    state = game.setup(3, {}, 1)
    checks.others_get_nothing(game, state, 3, "control")
    with pytest.raises(AssertionError):
        checks.others_get_nothing(broken(game), state, 3, "planted")


def test_listing_catches_duplicates_and_undescribed_actions(game_and_support):
    game, _ = game_and_support
    state = game.setup(2, {}, 1)
    seat = game.to_act(state)[0]
    legal = game.legal_actions(state, seat)
    described = game.describe_actions()
    checks.listing(game, state, seat, legal, described, "control")
    for bad in (legal + legal[:1], legal + [{"type": "no_such_action"}], legal + [dict(legal[0], x=1)]):
        with pytest.raises(AssertionError):
            checks.listing(game, state, seat, bad, described, "planted")


def test_refusal_probe_fails_when_a_bad_action_is_accepted(game_and_support):
    game, _ = game_and_support
    state = game.setup(2, {}, 1)
    seat = game.to_act(state)[0]
    listed = game.legal_actions(state, seat)[0]
    with pytest.raises(AssertionError, match="was accepted"):
        probes._expect(game, state, seat, listed, (engine.IllegalActionError,), "planted")
    with pytest.raises(AssertionError, match="expected NotYourTurnError"):
        probes._expect(game, state, seat, {"type": "no_such_action"}, (engine.NotYourTurnError,), "planted")


def test_malformed_variants_are_all_outside_the_description(game_and_support):
    game, _ = game_and_support
    described = game.describe_actions()
    state = game.setup(2, {}, 1)
    seat = game.to_act(state)[0]
    for action in game.legal_actions(state, seat):
        variants = malformed_actions(described, action)
        assert len(variants) > 8
        assert all(action_problem(bad, described) for bad in variants), action


def test_events_shape_catches_bad_events():
    good = {"type": "turn_started", "seat": None, "data": {"turn": 1}}
    checks.events_shape([good], 2, "control")
    with pytest.raises(AssertionError, match="left no event"):
        checks.events_shape([], 2, "a silent move")
    for bad in (
        {"type": "x", "data": {}},
        {"type": "", "seat": 0, "data": {}},
        {"type": "x", "seat": 5, "data": {}},
        {"type": "x", "seat": 0, "data": [], "private": {}},
        {"type": "x", "seat": 0, "data": {}, "private": {"7": {"a": 1}}},
        {"type": "x", "seat": 0, "data": {"where": (1, 2)}},
        {"type": "x", "seat": 0, "data": {}, "extra": 1},
    ):
        with pytest.raises(AssertionError):
            checks.events_shape([good, bad], 2, "planted")
