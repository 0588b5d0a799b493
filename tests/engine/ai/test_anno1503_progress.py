"""Medium always makes progress in the Anno 1503 base game.

Regression tests for stalls: positions where medium kept selling,
discarding and ending its turn for thousands of actions because its value
gave no gradient towards a next goal (cards valued at one coin's margin at
29 gold, settlers counted towards three merchants, a ship never worth its
cards, a seen tile discovered and returned for ever).
"""

import pytest

import engine
from engine.ai import get_player
from engine.ai.anno1503.goals import GOLD, MERCHANTS, goal_progress
from engine.ai.anno1503.hand import hand_value
from engine.ai.anno1503.policy import greedy_choice, score_actions
from engine.ai.anno1503.values import merchant_progress
from engine.rng import mix_seed

GAME = engine.get_game("anno1503")
# Far above a normal match (medium against medium or random: 250-400
# actions); the stalls ran to the 5000-action cap.
PROGRESS_LIMIT = 1500


def play(levels, seed, limit=PROGRESS_LIMIT, seat_in_seed=False):
    """The number of actions until the match ends (``limit`` if it does not)."""
    players = [get_player(level) for level in levels]
    state = GAME.setup(len(levels), {}, seed)
    for n in range(limit):
        if GAME.outcome(state) is not None:
            return n
        seat = GAME.to_act(state)[0]
        decision_seed = mix_seed(seed, n, seat) if seat_in_seed else mix_seed(seed, n)
        actions = GAME.legal_actions(state, seat)
        action = players[seat].choose(GAME, seat, GAME.view(state, seat), actions, seed=decision_seed)
        state, _ = GAME.apply(state, seat, action)
    return limit


@pytest.mark.parametrize(
    "levels, seed, seat_in_seed",
    [
        (("medium", "medium"), 2, False),  # both hoarded at 29-34 gold
        (("medium", "medium"), 17, False),
        (("medium", "medium"), 18, False),
        (("medium", "random"), 1, True),  # the set-up (decision seeds by seat)
        (("medium", "random"), 2, True),
        (("medium", "random"), 4, True),
    ],
)
def test_medium_finishes_matches_that_used_to_stall(levels, seed, seat_in_seed):
    assert play(levels, seed, seat_in_seed=seat_in_seed) < PROGRESS_LIMIT


def _position(gold, hand, slots):
    """A 2-player main-phase position for seat 0 with the given holdings."""
    dump = GAME.dump(GAME.setup(2, {}, 5))
    player = dump["players"][0]
    player["gold"] = gold
    player["hand"] = {**dict.fromkeys(player["hand"], 0), **hand}
    player["slots"] = slots + [None] * (7 - len(slots))
    dump["phase"], dump["active"], dump["choice"], dump["queue"] = "main", 0, None, []
    return GAME.load(dump)


def test_selling_the_card_that_reaches_30_gold_beats_holding_it():
    # At 29 gold every card used to be valued at the 30th coin's margin,
    # so five cards looked worth more than the goal they would complete.
    state = _position(29, {"tobacco": 5}, ["merchant", "citizen", "settler"])
    scores = {
        (a["type"], a.get("commodity")): s
        for s, a in (
            (s, GAME.legal_actions(state, 0)[i])
            for s, i in score_actions(GAME, state, 0, GAME.legal_actions(state, 0))
        )
    }
    assert scores[("sell", "tobacco")] > scores[("end_turn", None)]


def test_cards_are_worth_less_than_the_gold_goal_they_would_complete():
    state = _position(29, {"tobacco": 5}, ["merchant", "citizen", "settler"])
    player = state.players[0]
    progress = goal_progress(player, state.buildings)
    sold = _position(33, {"tobacco": 4}, ["merchant", "citizen", "settler"])
    assert progress[GOLD] < 1.0 <= goal_progress(sold.players[0], sold.buildings)[GOLD]
    assert hand_value(player, progress) < 0.5


def test_only_the_three_best_inhabitants_count_towards_merchants():
    # two merchants and four settlers are one development short, not 95% done
    assert merchant_progress(["merchant", "merchant", "settler", "settler", "settler", "settler"]) < 0.9
    assert merchant_progress(["merchant", "merchant", "merchant", "settler"]) == 1.0


def test_the_third_merchant_is_developed_within_the_turn():
    # It used to be worth less than the cards it costs (settlers made the
    # goal look nearly done already): the turn ended with the cards held.
    state = _position(
        13,
        {"tobacco": 3, "spice": 2, "stone": 1},
        ["merchant", "merchant", "citizen", "settler", "settler", "settler"],
    )
    for _ in range(10):
        action = greedy_choice(GAME, state, 0, GAME.legal_actions(state, 0))
        if action["type"] == "end_turn":
            break
        state, _ = GAME.apply(state, 0, action)
    assert goal_progress(state.players[0])[MERCHANTS] == 1.0
