"""The Anno 1452 hard player's field settings: a rollout horizon counted in
opponent turns, and a simulation rate, both by player count."""

import engine
from engine.ai import get_player
from engine.ai.anno1452 import players
from engine.ai.anno1452.players import SearchPlayer
from engine.rng import mix_seed

GAME = engine.get_game("anno1452")


def _action_turns(num_players, options, seed=11, limit=600):
    """Action-turn states reached by medium play, in match order."""
    medium = get_player("medium")
    state = GAME.setup(num_players, options, seed)
    out = []
    for step in range(limit):
        if GAME.outcome(state) is not None:
            break
        seat = GAME.to_act(state)[0]
        actions = GAME.legal_actions(state, seat)
        if state.data["decision"]["kind"] == "action_turn":
            out.append(state)
        action = medium.choose(GAME, seat, GAME.view(state, seat), actions, seed=mix_seed(seed, step))
        state, _ = GAME.apply(state, seat, action)
    return out


def _a_round_of_turns(num_players, options):
    """A state where a seat's turn begins and the states where each of the
    following opponents' turns begins, with the same turn order and row."""
    turns = _action_turns(num_players, options)
    for k, start in enumerate(turns):
        seat = start.data["decision"]["seats"][0]
        later = turns[k + 1 : k + num_players]
        same = [
            s for s in later if s.data["order"] == start.data["order"] and s.data["row"] == start.data["row"]
        ]
        if len(same) == num_players - 1:
            return start, seat, same
    raise AssertionError("no full round of action turns found")


def test_the_horizon_stops_after_the_given_number_of_opponent_turns(monkeypatch):
    start, seat, following = _a_round_of_turns(4, {"scenario": "standard"})
    view = GAME.view(start, seat)
    monkeypatch.setattr(players, "_HORIZON", {4: 1})
    over = players._rollout_over(view, seat)
    # The next opponent plays its turn; the one after does not.
    assert [over(s) for s in following] == [False, True, True]
    monkeypatch.setattr(players, "_HORIZON", {4: 2})
    over = players._rollout_over(view, seat)
    assert [over(s) for s in following] == [False, False, True]


def test_without_a_horizon_a_rollout_runs_to_the_seats_next_turn(monkeypatch):
    start, seat, following = _a_round_of_turns(3, {"scenario": "ottokar_a"})
    monkeypatch.setattr(players, "_HORIZON", {4: 1})  # another player count
    over = players._rollout_over(GAME.view(start, seat), seat)
    assert not any(over(s) for s in following)
    assert over(start)


def test_a_rate_factor_by_player_count_sets_the_worlds_unless_a_count_is_given(monkeypatch):
    view = {"num_players": 3}
    hard = SearchPlayer()
    monkeypatch.setattr(players, "_RATE_FACTOR", {})
    calibrated = hard._worlds(view, 4)
    monkeypatch.setattr(players, "_RATE_FACTOR", {3: 2})
    assert hard._worlds(view, 4) == round(2 * players._SIMULATIONS / 3**1.5 / 4) != calibrated
    assert hard._worlds({"num_players": 2}, 4) == round(players._SIMULATIONS / 2**1.5 / 4)
    assert SearchPlayer(simulations=8)._worlds(view, 4) == 2
