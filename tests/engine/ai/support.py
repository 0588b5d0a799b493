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
        action = choose_for(seat).choose(
            game, seat, game.view(state, seat), actions, seed=mix_seed(seed, step)
        )
        state, _ = game.apply(state, seat, action)
    return out


def swap_a_card_between_hands(hands):
    """Two of ``hands`` (commodity -> count) exchange one card of different
    kinds, so every hand keeps its size; False when no two can."""
    for a in hands:
        for b in hands:
            for ca, na in a.items():
                for cb, nb in b.items():
                    if a is not b and ca != cb and na and nb:
                        a[ca], b[ca] = a[ca] - 1, b[ca] + 1
                        b[cb], a[cb] = b[cb] - 1, a[cb] + 1
                        return True
    return False


def assert_blind_to_hidden(game, player, state, other, seed, same_actions=True):
    """``other`` differs from ``state`` only in what the seat to act cannot
    see: the views (and, with ``same_actions``, the legal actions) are equal,
    and ``player`` chooses the same for the same seed."""
    seat = game.to_act(state)[0]
    assert game.dump(other) != game.dump(state), "nothing hidden was changed"
    view = game.view(state, seat)
    assert game.view(other, seat) == view
    actions = game.legal_actions(state, seat)
    other_actions = game.legal_actions(other, seat)
    if same_actions:
        assert other_actions == actions
    mine = player.choose(game, seat, view, actions, seed=seed)
    assert mine == player.choose(game, seat, game.view(other, seat), other_actions, seed=seed)
