"""Without the option the base game plays exactly as before the expansion.

The digest below was recorded from the base game *before* the expansion was
added: six seeded random playthroughs (2-4 players, up to 400 actions each),
hashing every step's events, dump, every seat's and the spectator's view and
the next legal actions. Any change to base behaviour changes the digest.
Keys added to the view since then (public information only) are left out of
the digest, so the recording still proves that nothing else changed.

One base rule was corrected on purpose since (issue 32: an inhabitant that
bought and is then developed has bought as its new kind too, S1 "Sell
commodities"). The digest with that correction is ``RENEWED_FOR_SALES``;
with the correction undone the playthroughs still give the recording made
before the expansion, so the expansion itself still changes nothing.
"""

import hashlib
import json

import pytest

from engine.games.anno1503.state import Player
from engine.rng import Rng

from .helpers import game

# Left out by `make test-fast` (-m "not slow"): plays fixed long matches.
pytestmark = pytest.mark.slow

RECORDED_BEFORE_THE_EXPANSION = "39101328f6be55f610326d371f9c055581d5ecc2dca78fd293043fc86b0442c0"
RENEWED_FOR_SALES = "81e2c9ff893af0f4ee6267b754ef0229f93f5c5686dc46f51fea459bde8812f2"
# Public view keys added after the recording, for AIs that must rebuild a
# consistent state from a view: the options, the start player, the seats
# still to resolve the current roll or event.
VIEW_KEYS_ADDED_SINCE = ("options", "start_player", "queue")


def _recorded_view(view):
    return {k: v for k, v in view.items() if k not in VIEW_KEYS_ADDED_SINCE}


def _digest():
    g = game()
    h = hashlib.sha256()
    for seed in range(6):
        n = 2 + seed % 3
        s, ev = g.setup_with_events(n, {}, seed=seed)
        h.update(json.dumps(ev, sort_keys=True).encode())
        pick = Rng(seed + 99)
        for _ in range(400):
            if g.outcome(s):
                break
            seat = g.to_act(s)[0]
            acts = g.legal_actions(s, seat)
            s, ev = g.apply(s, seat, acts[pick.below(len(acts))])
            views = [_recorded_view(g.view(s, v)) for v in [None] + list(range(n))]
            nxt = g.legal_actions(s, g.to_act(s)[0]) if g.to_act(s) else []
            h.update(json.dumps([ev, g.dump(s), views, nxt], sort_keys=True).encode())
    return h.hexdigest()


def test_base_playthroughs_are_unchanged():
    assert _digest() == RENEWED_FOR_SALES


def test_only_the_sale_correction_changed_the_base_game(monkeypatch):
    """Undo the one corrected rule (a developed buyer's purchase moves to its
    new kind): the playthroughs are those recorded before the expansion."""
    monkeypatch.setattr(Player, "move_sale", lambda player, before, after: None)
    assert _digest() == RECORDED_BEFORE_THE_EXPANSION
