"""The Anno 1452 hard player blends its rollouts with the policy's own score."""

import engine
from engine.ai.anno1452.players import SearchPlayer, sample_state
from engine.ai.anno1452.policy import distinct_scores, score_actions, settle_spots
from engine.rng import Rng, mix_seed

from . import support

GAME = engine.get_game("anno1452")


def _turns(count, seed=5):
    """Action turns with a choice, reached by medium play (2 players)."""
    states = support.positions(
        GAME,
        2,
        {"scenario": "ottokar_a"},
        seed,
        count,
        every=7,
        steps=2000,
        keep=lambda state: state.data["decision"]["kind"] == "action_turn",
    )
    return [(s, GAME.to_act(s)[0], GAME.legal_actions(s, GAME.to_act(s)[0])) for s in states]


def _policy_best(state, seat, actions):
    world = sample_state(GAME, GAME.view(state, seat), seat, Rng(mix_seed(3, seat, 0)))
    scored = score_actions(GAME, world, seat, actions)
    return actions[max(scored, key=lambda si: (si[0], -si[1]))[1]]


def test_an_overwhelming_policy_weight_follows_the_policy():
    hard = SearchPlayer(wall_cap=60.0, simulations=9)
    hard.policy_weight = 1e6
    for state, seat, actions in _turns(4):
        chosen = hard.choose(GAME, seat, GAME.view(state, seat), actions, seed=3)
        assert chosen == _policy_best(state, seat, actions)


def test_the_rollouts_decide_without_the_policy_weight_and_the_policy_with_a_large_one():
    """A fake rollout that always prefers the policy's second choice: the
    search follows it at weight 0, and the policy's first at a large weight."""
    for state, seat, actions in _turns(8):
        view = GAME.view(state, seat)
        world = sample_state(GAME, view, seat, Rng(mix_seed(3, seat, 0)))  # the search's first world
        ranked = sorted(distinct_scores(GAME, world, seat, actions), key=lambda si: (-si[0], si[1]))
        if ranked[0][0] > ranked[1][0]:
            break
    else:
        raise AssertionError("no position ranks its top two moves apart")
    first, second = actions[ranked[0][1]], actions[ranked[1][1]]

    class PrefersSecond(SearchPlayer):
        def _simulate(self, game, world, seat, action, stop, deadline):
            return 1.0 if action == second else 0.0

    search = PrefersSecond(wall_cap=60.0, simulations=9)
    search.policy_weight = 0.0
    assert search.choose(GAME, seat, view, actions, seed=3) == second
    search.policy_weight = 1e6
    assert search.choose(GAME, seat, view, actions, seed=3) == first


def _settle_counts(actions, indices):
    return [len(settle_spots(actions[i])) for i in indices if actions[i]["type"] == "settle"]


def test_the_search_weighs_distinct_moves_not_one_settle_in_several_places():
    """In 4-player positions full of settles the policy's own top six hold
    the same settle in other places; the search's candidates hold one settle
    per Citizen count, scored as the policy scores it."""
    states = support.positions(
        GAME,
        4,
        {},
        11,
        12,
        every=9,
        steps=3000,
        keep=lambda state: state.data["decision"]["kind"] == "action_turn",
    )
    hard = SearchPlayer()
    crowded = 0
    for state in states:
        seat = GAME.to_act(state)[0]
        actions = GAME.legal_actions(state, seat)
        world = sample_state(GAME, GAME.view(state, seat), seat, Rng(mix_seed(3, seat, 0)))
        policy_top = sorted(score_actions(GAME, world, seat, actions), key=lambda si: (-si[0], si[1]))
        counts = _settle_counts(actions, [i for _, i in policy_top[: hard.candidates]])
        crowded += len(counts) != len(set(counts))
        picks, _ = hard._candidates(GAME, world, seat, actions)
        counts = _settle_counts(actions, picks)
        assert len(counts) == len(set(counts)), [actions[i] for i in picks]
        assert set(distinct_scores(GAME, world, seat, actions)) <= set(policy_top)
    assert crowded, "no position where the policy's top moves repeat a settle"


def test_a_world_that_cannot_be_sampled_is_skipped():
    """Only the first world is sampled: the rest come back None and the
    search decides on that one world, as the same search with one world does."""
    worlds = []

    class OneWorld(SearchPlayer):
        @staticmethod
        def sample_state(game, view, seat, rng):
            worlds.append(rng)
            return sample_state(game, view, seat, rng) if len(worlds) == 1 else None

    class FirstOnly(SearchPlayer):
        def _worlds(self, view, candidates):
            return 1

    for state, seat, actions in _turns(3):
        view = GAME.view(state, seat)
        worlds.clear()
        chosen = OneWorld(wall_cap=60.0, simulations=30).choose(GAME, seat, view, actions, seed=3)
        assert len(worlds) > 1  # later worlds were asked for, and were None
        assert chosen == FirstOnly(wall_cap=60.0, simulations=9).choose(GAME, seat, view, actions, seed=3)
