"""The generic random-match invariants, for the Pirates & Aristocrats expansion.

``tests/engine/test_random_match_invariants.py`` plays every game with
default options only, so the expansion is checked here with the same
machinery (``support.playout.play_checked``, the ``anno1503`` support
module, which recognises expansion dumps and adds the 30 luxury cards, the
21 crown tiles and both decks to the conservation checks).

Uniform random expansion matches are long (tens of thousands of actions:
random play rarely saves 10 gold for a luxury), so by default 300 matches
(100 per player count) get every per-step check over their first
``CHECKED_STEPS`` actions, and ``FULL_MATCHES`` further matches per player
count are played to the end with sampled bookkeeping (winner, goals,
replay). ``ANNO1503_X_FULL=1`` plays the 300 checked ones to the end too
(hours of CPU).
"""

import os

import pytest

import engine
from engine.rng import mix_seed
from engine.games.anno1503.game import Anno1503
from engine.runner import replay
from tests.engine.support import anno1503 as support
from tests.engine.support.playout import Sampler, play_checked

from .xhelpers import OPTIONS

MATCHES_PER_COUNT = 100
CHECKED_STEPS = 300
FULL_MATCHES = 1  # per player count, played to the end
BOOKKEEPING_EVERY = 250
FIRST_SEED = 5000
ALL_FULL = os.environ.get("ANNO1503_X_FULL") == "1"


class ExpansionAnno1503(Anno1503):
    """The same game with the expansion option forced on (the playout sets
    matches up with default options)."""

    def setup(self, num_players, options=None, seed=0):
        return super().setup(num_players, OPTIONS, seed)


GAME = ExpansionAnno1503()
X_SUPPORT = type("XSupport", (), {
    name: staticmethod(getattr(support, name))
    for name in ("state_problems", "victory_points", "perturbations", "view_leaks", "event_leaks")
})
X_SUPPORT.PERTURBATIONS = support.PERTURBATIONS + support.PERTURBATIONS_EXPANSION

CASES = [
    (n, FIRST_SEED + i)
    for i in range(MATCHES_PER_COUNT)
    for n in (2, 3, 4)
]


@pytest.mark.parametrize("num_players, seed", CASES, ids=[f"{n}p-seed{s}" for n, s in CASES])
def test_expansion_match_keeps_invariants(num_players, seed, record_property):
    """Every per-step check of the generic suite over the first actions."""
    cap = None if ALL_FULL else CHECKED_STEPS
    match = play_checked(GAME, num_players, seed, X_SUPPORT, Sampler(), max_actions=cap)
    record_property("match_length", [f"anno1503+x {num_players}p", len(match.actions)])
    assert match.probed and match.refusals > 0
    if ALL_FULL:
        _assert_won(match.final_dump, match.outcome)


def _assert_won(dump, outcome):
    winners = outcome["winners"]
    assert len(winners) == 1
    final = dump["players"][winners[0]]
    assert support.expansion_has_won(final), f"winner holds {support.expansion_goals(final)}"
    assert outcome["scores"] == {str(s): v for s, v in enumerate(support.victory_points(dump))}


FULL_CASES = [(n, FIRST_SEED + 900 + i) for i in range(FULL_MATCHES) for n in (2, 3, 4)]


@pytest.mark.parametrize("num_players, seed", FULL_CASES, ids=[f"{n}p-seed{s}" for n, s in FULL_CASES])
def test_expansion_match_ends_with_a_winner(num_players, seed, record_property):
    """Played to the end with the random player: bookkeeping every
    ``BOOKKEEPING_EVERY`` actions, a winner holding 1 home + 2 aristocrat
    goals, and seed + actions replaying to the same end."""
    player = engine.ai.get_player("random")
    state = GAME.setup(num_players, {}, seed)
    actions, events, step = [], [], 0
    while GAME.outcome(state) is None:
        seat = GAME.to_act(state)[0]
        action = player.choose(GAME, seat, None, GAME.legal_actions(state, seat), seed=mix_seed(seed, step))
        state, new = GAME.apply(state, seat, action)
        actions.append((seat, action))
        events += new
        step += 1
        if step % BOOKKEEPING_EVERY == 0:
            problems = support.state_problems(GAME.dump(state))
            assert not problems, f"step {step}: {problems}"
    record_property("match_length", [f"anno1503+x full {num_players}p", step])
    dump = GAME.dump(state)
    assert not support.state_problems(dump)
    _assert_won(dump, GAME.outcome(state))
    again, again_events = replay(GAME, num_players, {}, seed, actions)
    assert GAME.dump(again) == dump and again_events == events


def test_secrecy_probes_cover_the_expansion_perturbations():
    """At least one capped match exercises every hidden-info perturbation."""
    from collections import Counter
    done = Counter()
    for seed in range(FIRST_SEED, FIRST_SEED + 4):
        match = play_checked(GAME, 3, seed, X_SUPPORT, Sampler(every=5, dense_until=600), max_actions=600)
        done.update(match.perturbations)
    missing = [name for name in X_SUPPORT.PERTURBATIONS if done[name] == 0]
    assert not missing, f"never applied: {missing}"
