"""Anno 1452 AI: greedy ``easy``/``medium`` players and a searching ``hard``.

``make_player(level, **options)`` is what ``engine.ai.get_player`` calls.
Modules: ``sample`` (a state consistent with a view), ``evaluate`` (the
heuristic value), ``cards`` (a card's worth), ``battle_odds``, ``policy``
(one-step greedy on the value), ``decisions`` (battle, cards, trade),
``players``.
"""

from ..levels import level_factory
from .players import GreedyPlayer, SearchPlayer

# easy: noisy scores and about one random move in three (deliberate mistakes)
_EASY = {"noise": 2.0, "blunder_rate": 0.3}


make_player = level_factory("anno1452", GreedyPlayer, SearchPlayer, _EASY)
