"""The public API for bot authors: ``engine.ai.sample_state`` and
``engine.ai.evaluate`` (engine/ai/bot_api.py; its ``>>>`` example runs in
tests/ops/test_doctests.py).

Positions come from real matches played by the AI (a fixed seed each), and
the views a bot is given go through JSON first, as they arrive over HTTP.
"""

import json

import pytest

import engine
from engine.ai import WIN_VALUE, evaluate, get_player, sample_state

# (game, options, players): both games, their variants, 2 to 4 seats.
VARIANTS = [
    ("anno1452", {"scenario": "ottokar_a", "end_year": 1314}, 2),
    ("anno1452", {"rules": "expert"}, 4),
    ("anno1503", {}, 3),
    ("anno1503", {"expansion": "pirates_aristocrats"}, 2),
]
# Positions checked per variant: every STRIDE-th decision of one match.
POSITIONS = 12
STRIDE = 5


def positions(game, options, players, seed=1, count=POSITIONS, stride=STRIDE):
    """``(state, seat)`` pairs of one match played by the easy AI, the seat to act."""
    state = game.setup(num_players=players, options=options, seed=seed)
    player = get_player("easy")
    found, step = [], 0
    while game.outcome(state) is None and len(found) < count:
        seat = game.to_act(state)[0]
        actions = game.legal_actions(state, seat)
        if step % stride == 0:
            found.append((state, seat))
        action = player.choose(game, seat, game.view(state, seat), actions, seed=step)
        state, _ = game.apply(state, seat, action)
        step += 1
    return found


def as_json(value):
    return json.loads(json.dumps(value))


def play_out(game, options, players, seed):
    """The last state of a whole match between medium players."""
    state = game.setup(num_players=players, options=options, seed=seed)
    player = get_player("medium")
    step = 0
    while game.outcome(state) is None:
        seat = game.to_act(state)[0]
        actions = game.legal_actions(state, seat)
        state, _ = game.apply(
            state, seat, player.choose(game, seat, game.view(state, seat), actions, seed=step)
        )
        step += 1
    return state


@pytest.mark.parametrize(
    ("game_id", "options", "players"),
    VARIANTS,
    ids=[f"{g}-{'-'.join(map(str, o.values())) or 'base'}-{n}p" for g, o, n in VARIANTS],
)
def test_a_sampled_state_shows_the_seat_exactly_its_view(game_id, options, players):
    game = engine.get_game(game_id)
    found = positions(game, options, players)
    assert len(found) == POSITIONS
    for state, seat in found:
        view = as_json(game.view(state, seat))
        world = sample_state(game, view, seat, seed=3)
        assert world is not None, (game_id, view.get("phase"))
        assert as_json(game.view(world, seat)) == view
        # What the seat may do is what the rules let it do in the real state.
        assert game.legal_actions(world, seat) == game.legal_actions(state, seat)


@pytest.mark.parametrize(
    ("game_id", "options", "players"),
    [VARIANTS[1], VARIANTS[2]],
    ids=["anno1452-expert-4p", "anno1503-base-3p"],
)
def test_what_the_view_hides_is_drawn_from_the_seed(game_id, options, players):
    game = engine.get_game(game_id)
    state, seat = positions(game, options, players, count=3)[-1]
    view = as_json(game.view(state, seat))
    dumps = [json.dumps(game.dump(sample_state(game, view, seat, seed=s)), sort_keys=True) for s in range(6)]
    again = json.dumps(game.dump(sample_state(game, view, seat, seed=0)), sort_keys=True)
    assert again == dumps[0]  # reproducible
    assert len(set(dumps)) > 1  # and not one fixed guess


def test_a_view_that_cannot_be_completed_gives_none():
    game = engine.get_game("anno1452")
    state, seat = positions(game, *VARIANTS[0][1:], count=1)[0]
    view = as_json(game.view(state, seat))
    view["deck_size"] += 1  # more cards than the game has
    assert sample_state(game, view, seat, seed=0) is None


@pytest.mark.parametrize(
    ("game_id", "options", "players"), [VARIANTS[0], ("anno1503", {}, 2)], ids=["anno1452", "anno1503"]
)
def test_a_finished_match_is_worth_more_to_its_winner_than_any_position(game_id, options, players):
    game = engine.get_game(game_id)
    final = play_out(game, options, players, seed=4)
    winners = game.outcome(final)["winners"]
    losers = [s for s in range(players) if s not in winners]
    assert winners and losers
    assert all(evaluate(game, final, s) == WIN_VALUE for s in winners)
    assert all(evaluate(game, final, s) == -WIN_VALUE for s in losers)
    for state, seat in positions(game, options, players, count=6):
        value = evaluate(game, state, seat)
        assert isinstance(value, float)
        assert -WIN_VALUE < value < WIN_VALUE


def test_evaluate_is_relative_to_the_others():
    """Gold is worth something in both games: more for the seat is better
    for it and worse for its rival, on the same state otherwise."""
    game = engine.get_game("anno1452")
    state, seat = positions(game, *VARIANTS[0][1:], count=4)[-1]
    rival = 1 - seat
    richer = game.load(as_json(game.dump(state)))
    richer.data["players"][seat]["gold"] += 10
    assert evaluate(game, richer, seat) > evaluate(game, state, seat)
    assert evaluate(game, richer, rival) < evaluate(game, state, rival)


class PublicPointsOnly:
    """A game without an AI package: only the contract's view fields."""

    id = "no_ai_module"

    def outcome(self, state):
        return state.get("outcome")

    def view(self, state, seat):
        return {"players": [{"seat": s, "victory_points": p} for s, p in enumerate(state["points"])]}


def test_a_game_without_an_ai_package_is_valued_by_public_victory_points():
    game = PublicPointsOnly()
    assert sample_state(game, {"players": []}, 0, seed=1) is None
    assert evaluate(game, {"points": [5, 2, 7]}, 0) == -2.0
    assert evaluate(game, {"points": [5, 2, 7]}, 2) == 2.0
    assert evaluate(game, {"points": [0, 0], "outcome": {"winners": [1]}}, 1) == WIN_VALUE
