"""API conformance of every registered game (``engine.list_games()``).

Nothing here knows a particular game: a game registered later is covered
automatically. The short playouts use the generic per-step checks of
``support.playout`` without a game support module (the hundreds of matches
with game bookkeeping are in ``test_random_match_invariants``).
"""

import pytest

import engine
from engine.runner import play_match

from .support.checks import strict_json
from .support.domains import ABSENT, domain_values, iter_well_formed, value_fits
from .support.playout import Sampler, play_checked

GAMES = engine.list_games()
PREFIX = 2000  # actions compared between the runner and the checked playout


def _player_counts(game):
    return range(game.min_players, game.max_players + 1)


def _cases():
    return [
        pytest.param(gid, n, id=f"{gid}-{n}p") for gid in GAMES for n in _player_counts(engine.get_game(gid))
    ]


def test_some_game_is_registered():
    assert "anno1503" in GAMES
    assert sorted(GAMES) == GAMES


@pytest.mark.parametrize("bad_id", ["nope", "", "ANNO1503", None, 1503])
def test_unknown_game_raises_unknown_game_error(bad_id):
    with pytest.raises(engine.UnknownGameError) as info:
        engine.get_game(bad_id)
    assert isinstance(info.value, KeyError) and info.value.code == "not_found"


@pytest.mark.parametrize("game_id", GAMES)
def test_catalogue_entry_is_consistent_json(game_id):
    game = engine.get_game(game_id)
    entry = strict_json(game.describe(), "describe()")
    assert entry["id"] == game_id == game.id
    assert 1 <= entry["min_players"] <= entry["max_players"]
    assert type(entry["version"]) is int and entry["title"]


@pytest.mark.parametrize("game_id", GAMES)
def test_action_descriptions_are_json_with_known_domains(game_id):
    described = strict_json(engine.get_game(game_id).describe_actions(), "describe_actions()")
    assert described, "a game without action types"
    for kind, entry in described.items():
        assert set(entry) == {"description", "params"}, kind
        for name, domain in entry["params"].items():
            values = [v for v in domain_values(domain) if v is not ABSENT]  # unknown kinds fail here
            assert values and all(value_fits(domain, v) for v in values), (kind, name)
        assert next(iter_well_formed(described, kind))["type"] == kind


@pytest.mark.parametrize("game_id", GAMES)
def test_player_counts_outside_the_range_are_refused(game_id):
    game = engine.get_game(game_id)
    for bad in (game.min_players - 1, game.max_players + 1, 0):
        with pytest.raises(engine.InvalidOptionsError):
            game.setup(bad, {}, 1)


@pytest.mark.parametrize(("game_id", "num_players"), _cases())
def test_fresh_match_offers_decisions_only_to_seats_in_to_act(game_id, num_players):
    game = engine.get_game(game_id)
    state = game.setup(num_players, {}, 5)
    to_act = game.to_act(state)
    assert to_act and game.outcome(state) is None
    for seat in range(num_players):
        assert bool(game.legal_actions(state, seat)) == (seat in to_act)
    for seat in (num_players, -1, None, "0"):
        assert game.legal_actions(state, seat) == []
        with pytest.raises(engine.NotYourTurnError):
            game.apply(state, seat, game.legal_actions(state, to_act[0])[0])


@pytest.mark.parametrize(("game_id", "num_players"), _cases())
def test_short_playout_passes_generic_checks(game_id, num_players):
    """A whole match with the generic checks only (no game support module)."""
    game = engine.get_game(game_id)
    match = play_checked(
        game, num_players, seed=7, sampler=Sampler(every=50, dense_until=500, sparse_every=5000)
    )
    assert match.outcome is not None and match.outcome["winners"]
    assert set(match.outcome["winners"]) <= set(range(num_players))
    assert match.refusals > 0 and match.probed


@pytest.mark.parametrize(("game_id", "num_players"), _cases())
def test_runner_and_checked_playout_agree(game_id, num_players):
    """``play_match`` (what benches and bots use) plays the same actions.

    Compared over a bounded prefix: random matches can run to 100k actions.
    """
    game = engine.get_game(game_id)
    players = [engine.ai.get_player("random")] * num_players
    record = play_match(game, players, seed=11, max_actions=PREFIX)
    sparse = Sampler(every=10**9, dense_until=0, sparse_every=10**9)
    match = play_checked(game, num_players, seed=11, sampler=sparse, max_actions=PREFIX)
    assert len(record.actions) == len(match.actions) > 0
    assert record.actions == match.actions
    assert game.dump(record.final_state) == game.dump(match.final_state)


def test_redact_event_merges_private_data_for_its_seat_only():
    event = {
        "type": "card_drawn",
        "seat": 0,
        "data": {"target": 1},
        "private": {"0": {"commodity": "wood"}, "1": {"commodity": "wood", "lost": True}},
    }
    assert engine.redact_event(event, 0) == {
        "type": "card_drawn",
        "seat": 0,
        "data": {"target": 1, "commodity": "wood"},
    }
    assert engine.redact_event(event, 1)["data"] == {"target": 1, "commodity": "wood", "lost": True}
    for viewer in (2, None):
        assert engine.redact_event(event, viewer) == {"type": "card_drawn", "seat": 0, "data": {"target": 1}}
    assert event["data"] == {"target": 1}, "redaction must not modify the event"
