"""A random agent that only picks unmasked actions, and the loop that plays
an AEC environment to the end with it.

Uniform play in Anno 1503 mostly moves ships and buys, and a match can run
to 100k+ actions (the engine suite's tests/engine/support/anno1503 measured
the same): type weights, as there, keep play random but bring matches to an
end within the suite's time budget. Anno 1452 is played uniformly.
"""

import numpy as np

# The engine suite's weights (progress actions weigh more, ships drawn east
# to the pirate board): one table for both suites.
from tests.engine.support.anno1503.matches import BASE_WEIGHTS as ANNO1503_BASE
from tests.engine.support.anno1503.matches import EXPANSION_WEIGHTS as ANNO1503_EXPANSION
from tests.engine.support.anno1503.matches import PIRATE_BOARD_FIRST_COL


def type_weights(variant):
    if variant.game != "anno1503":
        return None
    return ANNO1503_EXPANSION if variant.options.get("expansion") != "none" else ANNO1503_BASE


class MaskedRandomAgent:
    """Draws an index where the mask is 1, weighted by the action's type."""

    def __init__(self, codec, seed, weights=None):
        self.rng = np.random.default_rng(seed)
        self.weight_of = None
        if weights:
            self.weight_of = np.array([self._weight(weights, a) for a in codec.actions])

    @staticmethod
    def _weight(weights, action):
        weight = weights.get(action["type"], 1.0)
        if action["type"] == "move_ship" and "move_ship" in weights and "discover" in weights:
            weight *= 4.0 if action["to"][1] >= PIRATE_BOARD_FIRST_COL else 1.0
        return weight

    def act(self, mask):
        legal = np.flatnonzero(mask)
        if legal.size == 0:
            raise AssertionError("no legal action in the mask")
        if self.weight_of is None:
            return int(self.rng.choice(legal))
        p = self.weight_of[legal]
        return int(self.rng.choice(legal, p=p / p.sum()))


def play_out(env, agent, max_steps=1_000_000):
    """Step ``env`` (already reset) with ``agent`` until every agent is done;
    returns the number of actions taken and each agent's total reward."""
    totals = dict.fromkeys(env.possible_agents, 0.0)
    steps = 0
    for name in env.agent_iter(max_steps):
        _, reward, terminated, truncated, _ = env.last(observe=False)
        totals[name] += reward
        if terminated or truncated:
            env.step(None)
            continue
        env.step(agent.act(env.action_mask(name)))
        steps += 1
    return steps, totals
