"""What a bot author needs to look ahead from a seat's view: a full state
consistent with the view, and a number for how well a seat stands.

A bot is given only its seat's view (``GET /v1/matches/{id}``'s ``view``, or
``game.view(state, seat)``), but the rules need a whole state. The built-in
AI solves this by *determinization*: it fills in what the view hides (other
hands, face-down tiles, deck orders, future dice) at random among the
fillings consistent with the view, and plays on that sample. These two
functions expose the same machinery the ``hard`` AI uses::

    >>> import engine
    >>> game = engine.get_game("anno1452")
    >>> secret = game.setup(num_players=2, options={"scenario": "ottokar_a"}, seed=1)
    >>> seat = game.to_act(secret)[0]
    >>> view = game.view(secret, seat)                 # all a bot may know
    >>> world = engine.ai.sample_state(game, view, seat, seed=7)
    >>> game.view(world, seat) == view                 # the same to this seat
    True
    >>> best = max(game.legal_actions(world, seat), key=lambda action:
    ...            engine.ai.evaluate(game, game.apply(world, seat, action)[0], seat))

A game plugs in through its AI package (its registry entry's ``ai``): its
``hard`` player's ``sample_state`` and ``leaf_value`` are used, so a bot
scores positions exactly as the search does. A game without one cannot be
sampled (``sample_state`` returns None) and is valued by the public victory
points of its views.
"""

import functools
from typing import Any

from ..core import Game, Seat, View
from ..rng import Rng, mix_seed
from .game_modules import make_game_player

# A finished match is worth this to a winner (minus to the others): beyond
# any heuristic value, so a won position always beats an unfinished one.
WIN_VALUE = 1_000_000.0


@functools.cache
def _search_player(game_id: str) -> Any:
    """The game's ``hard`` player, whose sampler and leaf value are reused; None
    for a game without an AI package."""
    return make_game_player(game_id, "hard")


def sample_state(game: Game[Any], view: View, seat: Seat, seed: int = 0) -> Any:
    """A full state of ``game`` that ``seat`` cannot tell from ``view``, or None.

    What ``view`` shows is copied; what it hides is drawn at random from
    ``seed`` (the same arguments give the same state) among the fillings
    consistent with it, and the state gets a fresh generator, so its future
    dice are a guess too. ``view`` may be the HTTP ``Match.view`` as parsed
    from JSON. None means the view cannot be completed: a game without an
    AI package, or a view this game's sampler does not model.
    """
    player = _search_player(game.id)
    if player is None:
        return None
    return player.sample_state(game, view, seat, Rng(mix_seed(seed, seat, "bot-sample")))


def evaluate(game: Game[Any], state: Any, seat: Seat) -> float:
    """How well ``seat`` stands in ``state``, relative to the others: a float,
    higher is better, comparable between states of the same match.

    A finished match is ``WIN_VALUE`` for a winner (shared wins included)
    and ``-WIN_VALUE`` for the others. Otherwise it is the game's heuristic
    (the ``hard`` AI's leaf value: the seat's value minus the strongest
    opponent's, on the game's own scale), or, for a game without an AI
    package, the seat's victory points minus the most any other seat has.
    On a sampled state the hidden parts are a guess: average over a few
    samples (``sample_state`` with different seeds) for a steadier value.
    """
    outcome = game.outcome(state)
    if outcome is not None:
        return WIN_VALUE if seat in outcome.get("winners", []) else -WIN_VALUE
    player = _search_player(game.id)
    if player is None:
        return _victory_point_lead(game, state, seat)
    return float(player.leaf_value(state, seat))


def _victory_point_lead(game: Game[Any], state: Any, seat: Seat) -> float:
    """Victory points (every view has them) minus the best other seat's."""
    points = [p["victory_points"] for p in game.view(state, seat)["players"]]
    others = [p for s, p in enumerate(points) if s != seat]
    return float(points[seat] - max(others, default=0))
