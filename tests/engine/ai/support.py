"""Positions for the AI tests: states with a real decision, reached by play."""

from engine.ai import get_player
from engine.rng import mix_seed


def positions(game, num_players, options, seed, count, every=5, steps=3000, choosers=None, keep=None):
    """Up to ``count`` states with more than one legal action, every
    ``every``-th step of a match from ``seed``, played by ``choosers(seat)``
    (medium for every seat by default); ``keep(state)`` may filter them."""
    medium = get_player("medium")
    choose_for = choosers or (lambda seat: medium)
    state = game.setup(num_players, options, seed)
    out = []
    for step in range(steps):
        if game.outcome(state) is not None or len(out) >= count:
            break
        seat = game.to_act(state)[0]
        actions = game.legal_actions(state, seat)
        if step % every == 0 and len(actions) > 1 and (keep is None or keep(state)):
            out.append(state)
        action = choose_for(seat).choose(game, seat, game.view(state, seat), actions, seed=mix_seed(seed, step))
        state, _ = game.apply(state, seat, action)
    return out
