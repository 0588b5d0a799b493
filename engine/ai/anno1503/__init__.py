"""Anno 1503 AI: greedy ``easy``/``medium`` players and a searching ``hard``.

``make_player(level, **options)`` is what ``engine.ai.get_player`` calls.
Modules: ``sample`` (a state consistent with a view), ``evaluate`` (the
heuristic value), ``policy`` (one-step greedy on the value), ``players``;
the Pirates & Aristocrats expansion adds ``xsample``, ``xevaluate`` and
``xpolicy`` (used whenever the state or view has the expansion).
"""

from .players import GreedyPlayer, SearchPlayer

# easy: noisy scores and one random move in five (deliberate mistakes)
_EASY = {"noise": 0.3, "blunder_rate": 0.2}


def make_player(level, time_budget=1.0, **options):
    if level == "easy":
        return GreedyPlayer("easy", **{**_EASY, **options})
    if level == "medium":
        return GreedyPlayer("medium", **options)
    if level == "hard":
        return SearchPlayer(time_budget=time_budget, **options)
    raise ValueError(f"no {level!r} player for anno1503")
