"""Anno 1503 AI: greedy ``easy``/``medium`` players and a searching ``hard``.

``make_player(level, **options)`` is what ``engine.ai.get_player`` calls.
Modules: ``sample`` (a state consistent with a view), ``evaluate`` (the
heuristic value; its parts ``goals``, goal progress and score, and ``hand``,
the cards' worth, remembered), ``policy`` (one-step greedy on the value), ``outlook``
(hard's leaf value: one production roll ahead), ``players``;
a variant answers the hooks of ``variant.BaseAI`` (``variants``); the
Pirates & Aristocrats expansion's answers are in the package ``expansion``.
"""

from ..levels import level_factory
from .players import GreedyPlayer, SearchPlayer

# easy: noisy scores and one random move in five (deliberate mistakes)
_EASY = {"noise": 0.3, "blunder_rate": 0.2}


make_player = level_factory("anno1503", GreedyPlayer, SearchPlayer, _EASY)
