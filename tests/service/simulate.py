"""Offline twin of an HTTP match: the same seeds give the same actions.

The service's AI decides with ``get_player(level).choose(..., seed=
mix_seed(match_seed, version, seat))`` and the test's random human picks
``rng.choice(actions)``; replaying that here with the engine alone tells, in
a fraction of a second, how long a match will be over HTTP (random matches
run from 2,000 to 20,000+ actions), so a test can pick a seed whose match
ends quickly, and then check the HTTP match ended exactly the same way.
"""

import random

import engine
from engine.rng import mix_seed


def simulate(game_id, seed, levels, human_rng_seed, max_actions):
    """Outcome of the match where seat i is AI ``levels[i]`` (None = random human).

    Returns ``(outcome, action_count)``; outcome None if not over in time.
    """
    game = engine.get_game(game_id)
    state = game.setup(len(levels), {}, seed)
    rng = random.Random(human_rng_seed)
    players = {i: engine.ai.get_player(level) for i, level in enumerate(levels) if level}
    for version in range(max_actions):
        outcome = game.outcome(state)
        if outcome is not None:
            return outcome, version
        seat = game.to_act(state)[0]
        actions = game.legal_actions(state, seat)
        if seat in players:
            view = game.view(state, seat)
            action = players[seat].choose(game, seat, view, actions, seed=mix_seed(seed, version, seat))
        else:
            action = rng.choice(actions)
        state, _ = game.apply(state, seat, action)
    return None, max_actions


def short_match_seed(game_id, levels, candidates, max_actions):
    """The first candidate seed whose match ends within ``max_actions``."""
    for seed in candidates:
        outcome, count = simulate(game_id, seed, levels, seed, max_actions)
        if outcome is not None:
            return seed, outcome, count
    raise AssertionError(f"no candidate seed ends within {max_actions} actions")
