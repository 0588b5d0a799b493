"""The strategic policy of ``easy`` and ``medium``: one-step greedy on the value.

Each legal action is scored by the value (``evaluate``) of the position it
leads to. Actions whose result would depend on something the seat cannot
see are scored without applying them: ``end_turn`` (the next roll),
``discover`` (the tile) and ``big_branch_office`` (the card drawn) get an
expected value, and ``discard`` removes the card without passing the turn.
So the policy may run on any state consistent with the seat's view, and in
the search it runs directly on a sampled world at no extra cost.

The expansion's actions are applied and valued like the base ones, except
answers to a pirate attack (``expansion.policy``: the odds of the fight against the
cost of paying), a Sea Hero tie and fighting a lair just found
(``attack_lair``: its odds-weighted worth), scored without rolling the dice.
Unknown action types are scored neutrally, like ending the turn.
"""

from ...games.anno1503.expansion.data import GEOMETRY
from ..levels import greedy
from .evaluate import GOLD, evaluate, goal_gain, goal_progress, gold_progress, tile_beliefs
from .expansion.policy import APPLIED, attack_score, respond_score, worth_taking
from .expansion.sample import is_expansion_state
from .values import HARD_INHABITANT

# A small edge for ending the turn: pointless moves are not made.
_END_TURN_EDGE = 0.002


def _discover_score(game, state, seat, action, base, beliefs, inhabitant):
    space = GEOMETRY.space_index[tuple(action["space"])]  # main-board indices are the base ones
    if seat in state.seen[space]:
        if not is_expansion_state(state):
            return _known_tile_score(game, state, seat, action, base, inhabitant)
        worth = beliefs.space_value(state, space) > 0.0
        worth = worth and worth_taking(state, seat, action["ship"], space, beliefs)
        return base + 0.2 if worth else base - 1.0
    return base + 0.25 * beliefs.space_value(state, space)


def _known_tile_score(game, state, seat, action, base, inhabitant):
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


def _bbo_score(state, seat, base):
    player = state.players[seat]
    progress = goal_progress(player, state.buildings)
    paid = gold_progress(max(player.gold - 2, 0)) - progress[GOLD]
    return base + goal_gain(progress, GOLD, paid) + 0.05


def _discard_score(state, seat, action, beliefs, inhabitant):
    world = state.clone()
    world.players[seat].hand[action["commodity"]] -= 1
    return evaluate(world, seat, beliefs, inhabitant)


def score_actions(game, state, seat, actions, inhabitant=None):
    """``[(score, index)]`` for every action, higher is better; ``inhabitant``
    is the value's table of inhabitants (medium's by default, ``evaluate``)."""
    beliefs = tile_beliefs(state, seat)
    base = evaluate(state, seat, beliefs, inhabitant)
    out = []
    for i, action in enumerate(actions):
        kind = action["type"]
        if kind == "end_turn":
            score = base + _END_TURN_EDGE
        elif kind == "discover":
            score = _discover_score(game, state, seat, action, base, beliefs, inhabitant)
        elif kind == "big_branch_office":
            score = _bbo_score(state, seat, base)
        elif kind == "discard":
            score = _discard_score(state, seat, action, beliefs, inhabitant)
        elif kind == "respond" and state.choice["kind"] in ("pirate_attack", "sea_hero"):
            score = respond_score(state, seat, action, base)
        elif kind == "attack_lair":
            score = attack_score(state, seat, base)
        elif kind not in _KNOWN:
            score = base
        else:
            after, _ = game.apply(state, seat, action)
            # Tile beliefs change only when tiles move; otherwise reuse them (speed).
            reuse = None if kind in _MOVES_TILES else beliefs
            score = evaluate(after, seat, reuse, inhabitant)
        out.append((score, i))
    return out


_MOVES_TILES = frozenset(("lose_tile", "place_reserve_tile", "take_tile", "return_tile"))
_KNOWN = (
    frozenset(
        (
            "choose_commodity",
            "lose_tile",
            "place_reserve_tile",
            "build_ship",
            "place_pioneer",
            "develop",
            "sell",
            "buy",
            "move_ship",
            "take_tile",
            "return_tile",
        )
    )
    | APPLIED
)


def hard_score_actions(game, state, seat, actions):
    """``score_actions`` with hard's inhabitant values (``HARD_INHABITANT``)."""
    return score_actions(game, state, seat, actions, HARD_INHABITANT)


# The best-scoring action; easy adds noise (``levels.greedy``).
greedy_choice = greedy(score_actions)
hard_greedy_choice = greedy(hard_score_actions)
