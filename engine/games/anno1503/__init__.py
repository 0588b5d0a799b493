"""Anno 1503 (Klaus Teuber, Kosmos 2003), base game, 2-4 players.

Full reference: ``DESIGN.md`` beside this file (state dump, actions, events,
views); printed content in ``data/*.json``; rules from the English (S1) and
Italian (S2) texts with the rulings of game-content.md §1.9 ("R#n").

Rules summary
    Each turn the active player rolls for everyone: each home island yields
    the commodity printed at that number (``?``: free choice; a branch office
    on that number's gray bridge: home or branch commodity). A 6 rolls an
    event instead: pirates (pay 1 gold per island tile, or lose one), fire
    (pay 1 gold per inhabitant outside the red area, or lose the newest) or
    golden times (any commodity; two with a Church). Then, in any order: build
    ships, place pioneers (public buildings from slot 4), develop inhabitants,
    sell one card per inhabitant, buy up to two cards, sail and discover
    island tiles (branch offices, trade agreements, treasures), use a Big
    Branch Office. At the end of one's turn the hand is cut to 5 cards.
    Victory points: 30+ gold, 4 branch offices, 3 trade agreements, 4 public
    buildings, 3 merchants. The active player holding 3 wins.

Action notation (JSON objects, as posted over HTTP)
    ``{"type": "place_pioneer"}``, ``{"type": "place_pioneer", "building": "church"}``,
    ``{"type": "develop", "slot": 2}``, ``{"type": "sell", "commodity": "cloth"}``,
    ``{"type": "move_ship", "ship": 0, "to": [1, 0]}``,
    ``{"type": "discover", "ship": 0, "space": [0, 0]}``,
    ``{"type": "take_tile", "bridge": 3}``, ``{"type": "end_turn"}``.

What each player sees
    Everything public, his own hand (others: ``hand_size``), and the identity
    of face-down tiles he looked at on their current space. Not the reserve or
    box order/content (sizes only), not the generator. A discovered tile's
    identity is in a private event part for the discoverer only; a Big Branch
    Office card only for the two seats involved.

Chance
    Every die (start player, production, event), the tile and reserve
    shuffles and the Big Branch Office draw come from the state's seeded
    ``engine.rng.Rng``; the rolls are events. Seed + actions replay exactly.

Expansion
    ``{"expansion": "pirates_aristocrats"}`` adds Aristokraten und Piraten
    (pirate sea, aristocrat island, luxuries, cannons, manor, aristocrat
    cards, six goals); see DESIGN.md "Expansion". Without it the base game
    plays exactly as in version 1. The expansion is the variant package
    ``expansion``: the base rules call it only through the hooks of
    ``variant.BaseGame`` on ``state.variant`` and never test for it.

Version history
    1: base game; the expansion option was added later without changing it.
    Rules corrections since (issue 32), still version 1: an inhabitant that
    bought and is then developed does not buy again that turn; a discovered
    pirate lair is fought only when its finder chooses ``attack_lair`` (else
    ``return_tile``). Replays of matches that relied on either may diverge.

    >>> import engine
    >>> game = engine.get_game("anno1503")
    >>> state = game.setup(3, {}, seed=5)
    >>> seat = game.to_act(state)[0]
    >>> state2, events = game.apply(state, seat, game.legal_actions(state, seat)[-1])
"""

from .game import Anno1503

__all__ = ["Anno1503"]
