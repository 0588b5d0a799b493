"""The secrecy checks themselves: they see real secrets and catch real leaks.

The random matches run ``support.secrecy.check_views`` at sampled steps;
these tests make sure that passing there means something: the perturbations
change hidden data, the leak search finds deliberately planted leaks, and a
game whose view depends on a secret is caught. The generic tests run for
every game with a support module, which says where its secrets are
(``rich_in_secrets``, ``PLANTED_SECRETS``, ``LEAKY_EVENTS``,
``SAFE_EVENTS``); the ones about Anno 1503's tiles and hand dicts run for
Anno 1503 only.
"""

import pytest

import engine
from engine.runner import play_match

from .support import SUPPORT
from .support import anno1503 as support_1503
from .support.checks import strict_json
from .support.secrecy import check_views, viewers

GAME_IDS = sorted(SUPPORT)


def _states(game, num_players, seed, count=3000):
    """Every state of the first ``count`` actions of a seeded random match."""
    players = [engine.ai.get_player("random")] * num_players
    record = play_match(game, players, seed, max_actions=count)
    state = game.setup(num_players, {}, seed)
    yield state
    for seat, action in record.actions:
        state, _ = game.apply(state, seat, action)
        yield state


def _first_state(game, num_players, predicate, seed=5):
    for state in _states(game, num_players, seed):
        dump = game.dump(state)
        if predicate(dump):
            return state, dump
    raise AssertionError("no state of the sample match has the wanted property")


def _distinct_other_hand(dump, viewer=0):
    """Seat 1's hand is non-empty and unlike the viewer's hand and the stacks."""
    hand = dump["players"][1]["hand"]
    return any(hand.values()) and hand != dump["players"][viewer]["hand"] and hand != dump["stacks"]


def _seen_space(dump):
    """A space whose tile seat 0 looked at and seat 1 did not."""
    for space, seats in dump["seen"].items():
        if 0 in seats and 1 not in seats and dump["spaces"][space] is not None:
            return space
    return None


@pytest.fixture(params=GAME_IDS)
def game_and_support(request):
    return engine.get_game(request.param), SUPPORT[request.param]


@pytest.fixture
def anno1503():
    return engine.get_game(support_1503.GAME_ID), support_1503


def test_real_views_pass_the_leak_search(game_and_support):
    game, support = game_and_support
    state, dump = _first_state(game, 3, support.rich_in_secrets)
    for viewer in viewers(3):
        assert support.view_leaks(game.view(state, viewer), dump, viewer) == []


def test_leak_search_finds_another_seats_hand(game_and_support):
    game, support = game_and_support
    state, dump = _first_state(game, 3, support.rich_in_secrets)
    view = game.view(state, 0)
    view["players"][1]["hand"] = strict_json(dump["players"][1]["hand"], "hand")
    assert any("hand" in p for p in support.view_leaks(view, dump, 0))

    spectator = game.view(state, None)
    spectator["players"][0]["hand"] = strict_json(dump["players"][0]["hand"], "hand")
    assert support.view_leaks(spectator, dump, None)


def test_leak_search_finds_forbidden_keys(game_and_support):
    game, support = game_and_support
    state, dump = _first_state(game, 2, lambda d: True)
    for key in sorted(support.FORBIDDEN_VIEW_KEYS):
        view = game.view(state, 1)
        view[key] = dump.get(key, [])
        assert support.view_leaks(view, dump, 1), f"planted {key} not found"


def test_perturbations_change_hidden_data(game_and_support):
    """Each applies somewhere, changes the dump, and not what the viewer's own view shows."""
    game, support = game_and_support
    state, dump = _first_state(game, 3, support.rich_in_secrets)
    expected = support.perturbation_names(dump["options"], 3)
    for viewer in viewers(3):
        names = []
        for name, changed in support.perturbations(dump, viewer):
            names.append(name)
            assert changed != dump, name
            assert support.view_leaks(game.view(state, viewer), changed, viewer) == [], (
                f"{name} for viewer {viewer} changed something the viewer sees"
            )
        assert set(expected) <= set(names), f"viewer {viewer}: only {names}"


def test_anno1503_leak_search_finds_hand_copies(anno1503):
    game, support = anno1503
    state, dump = _first_state(game, 3, _distinct_other_hand)
    hidden_copy = game.view(state, 0)
    hidden_copy["choice"] = {"kind": "debug", "options": [dict(dump["players"][1]["hand"])]}
    assert any("seat 1's hand" in p for p in support.view_leaks(hidden_copy, dump, 0))


def test_anno1503_leak_search_finds_nested_generator_and_piles(anno1503):
    game, support = anno1503
    state, dump = _first_state(game, 2, lambda d: True)
    for key, value in (("rng", dump["rng"]), ("reserve", dump["reserve"]), ("box", dump["box"])):
        view = game.view(state, 1)
        view["debug"] = {key: value}
        assert support.view_leaks(view, dump, 1), f"planted {key} not found"
    view = game.view(state, 1)
    view["turn_seed"] = dump["rng"]
    assert any("generator" in p for p in support.view_leaks(view, dump, 1))


def test_anno1503_leak_search_finds_unseen_tile_identity(anno1503):
    game, support = anno1503
    state, dump = _first_state(game, 2, lambda d: _seen_space(d) is not None)
    space = _seen_space(dump)
    tile = dump["spaces"][space]
    looked = game.view(state, 0)
    entry = next(e for e in looked["spaces"] if f"{e['space'][0]},{e['space'][1]}" == space)
    assert entry["tile"]["id"] == tile, "the viewer must see the tile it looked at"
    for viewer in (1, None):
        view = game.view(state, viewer)
        assert support.view_leaks(view, dump, viewer) == []
        leaked = next(e for e in view["spaces"] if f"{e['space'][0]},{e['space'][1]}" == space)
        leaked["tile"] = dict(entry["tile"])
        assert any("hidden tile" in p for p in support.view_leaks(view, dump, viewer))
        without_id = game.view(state, viewer)
        hint = next(e for e in without_id["spaces"] if f"{e['space'][0]},{e['space'][1]}" == space)
        hint["tile"] = {k: v for k, v in entry["tile"].items() if k != "id"}
        assert support.view_leaks(without_id, dump, viewer), "kind without id must count as a leak"


def test_anno1503_perturbations_change_only_hidden_data(anno1503):
    game, support = anno1503
    state, dump = _first_state(game, 3, lambda d: _distinct_other_hand(d) and _seen_space(d))
    for viewer in viewers(3):
        names = []
        for name, changed in support.perturbations(dump, viewer):
            names.append(name)
            assert changed != dump, name
            assert support.view_leaks(game.view(state, viewer), changed, viewer) == [], (
                f"{name} for viewer {viewer} changed something the viewer sees"
            )
            _assert_same_public_parts(dump, changed, viewer, name)
        assert sorted(names) == sorted(support.PERTURBATIONS), f"viewer {viewer}: only {names}"


def _assert_same_public_parts(dump, changed, viewer, name):
    for key in ("stacks", "buildings", "removed", "seen", "phase", "choice", "turn", "active"):
        assert changed[key] == dump[key], f"{name} changed public {key}"
    assert len(changed["reserve"]) == len(dump["reserve"]), f"{name} changed the reserve size"
    for seat, (before, after) in enumerate(zip(dump["players"], changed["players"])):
        assert sum(after["hand"].values()) == sum(before["hand"].values()), f"{name} changed a hand size"
        if seat == viewer:
            assert after["hand"] == before["hand"], f"{name} changed the viewer's own hand"
        assert {k: v for k, v in after.items() if k != "hand"} == {
            k: v for k, v in before.items() if k != "hand"
        }


class _LeakyGame:
    """A game whose view shows one hidden thing; everything else delegated."""

    def __init__(self, game, leak):
        self._game, self._leak = game, leak

    def __getattr__(self, name):
        return getattr(self._game, name)

    def view(self, state, viewer):
        view = self._game.view(state, viewer)
        view["extra"] = self._leak(self._game.dump(state))
        return view


def _planted(game_id):
    support = SUPPORT[game_id]
    return [pytest.param(game_id, name, id=f"{game_id}: {name}") for name in support.PLANTED_SECRETS]


@pytest.mark.parametrize("game_id, secret", [p for g in GAME_IDS for p in _planted(g)])
def test_check_views_catches_a_view_that_depends_on_secrets(game_id, secret):
    game, support = engine.get_game(game_id), SUPPORT[game_id]
    state, dump = _first_state(game, 3, support.rich_in_secrets)
    leaky = _LeakyGame(game, support.PLANTED_SECRETS[secret])
    with pytest.raises(AssertionError, match=r"view (depends on hidden|leaks)"):
        check_views(leaky, support, state, dump, 3, "planted leak")


def test_event_leak_check_flags_public_secrets(game_and_support):
    _, support = game_and_support
    for event in support.LEAKY_EVENTS:
        assert support.event_leaks(event), f"not flagged: {event}"
    for event in support.SAFE_EVENTS:
        assert support.event_leaks(event) == [], f"flagged although private: {event}"
