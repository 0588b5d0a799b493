"""The strategic policy of ``easy`` and ``medium``: one-step greedy on the value.

Each legal action is scored by the value (``evaluate``) of the position it
leads to. Actions whose result would depend on something the seat cannot
see are scored without applying them: ``end_turn`` (the next roll),
``discover`` (the tile) and ``big_branch_office`` (the card drawn) get an
expected value, and ``discard`` removes the card without passing the turn.
So the policy may run on any state consistent with the seat's view, and in
the search it runs directly on a sampled world at no extra cost.

A variant's actions are applied and valued like the base ones, except the
types its AI scores apart (``variant.BaseAI.special_types``, e.g. answers
decided by dice, scored by their odds). Types the variant's AI does not
apply (``applied_types``) are scored neutrally, like ending the turn.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..levels import greedy
from .goals import GOLD, goal_gain, goal_progress, gold_progress
from .values import HARD_INHABITANT
from .variants import ai_of, evaluate

if TYPE_CHECKING:
    from typing import Any

    from ...core import Action, Game
    from ...games.anno1503.state import State


# A small edge for ending the turn: pointless moves are not made.
_END_TURN_EDGE = 0.002


def _discover_score(game: Game[Any], state: State, seat: int, action: Action, base, beliefs, inhabitant, ai):
    space = state.variant.geometry.space_index[tuple(action["space"])]
    if seat in state.seen[space]:
        worth = ai.seen_tile_worth(state, seat, action, space, beliefs)
        if worth is None:
            return _known_tile_score(game, state, seat, action, base, inhabitant)
        return base + 0.2 if worth else base - 1.0
    return base + 0.25 * beliefs.space_value(state, space)


def _known_tile_score(game: Game[Any], state: State, seat: int, action: Action, base, inhabitant):
    """A tile the seat has seen (base game): the value after taking it the
    best way, when that beats the position now (ship and cards included);
    else discovering it would only be returned, a loop: never worth it."""
    found, _ = game.apply(state, seat, action)
    best = None
    for take in game.legal_actions(found, seat):
        if take["type"] == "take_tile":
            value = evaluate(game.apply(found, seat, take)[0], seat, inhabitant=inhabitant)
            best = value if best is None else max(best, value)
    if best is None or best <= base + _END_TURN_EDGE:
        return base - 1.0
    return best


def _bbo_score(state: State, seat: int, base):
    player = state.players[seat]
    progress = goal_progress(player, state.buildings)
    paid = gold_progress(max(player.gold - 2, 0)) - progress[GOLD]
    return base + goal_gain(progress, GOLD, paid) + 0.05


def _discard_score(state: State, seat: int, action: Action, beliefs, inhabitant):
    world = state.clone()
    world.players[seat].hand[action["commodity"]] -= 1
    return evaluate(world, seat, beliefs, inhabitant)


def score_actions(game: Game[Any], state: State, seat: int, actions: list[Action], inhabitant=None):
    """``[(score, index)]`` for every action, higher is better; ``inhabitant``
    is the value's table of inhabitants (medium's by default, ``evaluate``)."""
    ai = ai_of(state)
    beliefs = ai.tile_beliefs(state, seat)
    base = ai.evaluate(state, seat, beliefs, inhabitant)
    out = []
    for i, action in enumerate(actions):
        kind = action["type"]
        score = ai.special_score(state, seat, action, base) if kind in ai.special_types else None
        if score is not None:
            pass
        elif kind == "end_turn":
            score = base + _END_TURN_EDGE
        elif kind == "discover":
            score = _discover_score(game, state, seat, action, base, beliefs, inhabitant, ai)
        elif kind == "big_branch_office":
            score = _bbo_score(state, seat, base)
        elif kind == "discard":
            score = _discard_score(state, seat, action, beliefs, inhabitant)
        elif kind not in ai.applied_types:
            score = base
        else:
            after, _ = game.apply(state, seat, action)
            # Tile beliefs change only when tiles move; otherwise reuse them (speed).
            reuse = None if kind in _MOVES_TILES else beliefs
            score = evaluate(after, seat, reuse, inhabitant)
        out.append((score, i))
    return out


_MOVES_TILES = frozenset(("lose_tile", "place_reserve_tile", "take_tile", "return_tile"))


def hard_score_actions(game: Game[Any], state: State, seat: int, actions: list[Action]):
    """``score_actions`` with hard's inhabitant values (``HARD_INHABITANT``)."""
    return score_actions(game, state, seat, actions, HARD_INHABITANT)


# The best-scoring action; easy adds noise (``levels.greedy``).
greedy_choice = greedy(score_actions)
hard_greedy_choice = greedy(hard_score_actions)
