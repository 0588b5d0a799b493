"""Anno 1452 (Gerhard E. Kodys, Piatnik 1999), 2-4 players (2: Ottokar's scenario).

Full reference: ``DESIGN.md`` beside this file (state dump, actions, events,
views); printed content in ``data/*.json``; rules from the expert rules (S4)
with the rulings of game-content.md §3.6 ("R#n").

Rules summary
    Nobles of the Holy Roman Empire compete over the 14 rows of the time
    table. Each epoch has up to three action rounds; before the second and
    the third the dice are rolled and any 6 ends the epoch early. In an
    action round each seat in turn order takes one action: build an Estate,
    settle Citizens, build a City, take a Title, marry, inherit, attack,
    play a Special Action card, or pass. The evaluation round (ER) follows:
    cards, income, prestige, marriages' end, the coronation of a King (on
    coronation rows), turn order; the expert rules add Trade & Agreements.
    After the final ER, Estates + Citizens/2 + Cities + Principality cards +
    gold/10 + prestige wins; ties: prestige, then gold.

Action notation (JSON objects, as posted over HTTP)
    ``{"type": "place_estate", "region": "Lothringen"}``,
    ``{"type": "settle", "at": [2, 0]}`` (an Estate: region index, slot),
    ``{"type": "attack", "target": [4, 0], "from": [2, 0]}``,
    ``{"type": "build_city", "card": 30, "at": [14, 0]}``, ``{"type": "marry", "card": 10}``,
    ``{"type": "draft_add", "side": "give", "item": "gold", "amount": 1}`` (expert trade),
    ``{"type": "discard", "card": 12}``, ``{"type": "keep_hand"}``, ``{"type": "pass"}``.

What each player sees
    Everything public (the map, gold, prestige, titles, marriages, the open
    cards and the discard, battles), his own hand (others: ``hand_size``),
    and a trade offer's content only as one of its two parties. Never the
    generator, the deck order, other hands or the step queue.

Chance
    The turn order, the deck, the further-round dice, battle dice and ties
    come from the state's seeded generator (``engine.rng.Rng`` on ``data["rng"]``);
    every roll and draw is an event (a drawn card private to its drawer).
    Seed + actions replay exactly.

Version history
    1: basic and expert rules, the Ottokar scenarios A and B.

    >>> import engine
    >>> game = engine.get_game("anno1452")
    >>> state = game.setup(3, {}, seed=1)
    >>> game.view(state, game.to_act(state)[0])["decision"]["kind"]
    'place_initial'
"""

# The compiled rules (engine.native) when a build matches these sources.
from ...native import package_path

__path__ = package_path(__name__, __path__)

from .game import Anno1452  # (after the path is chosen)

__all__ = ["Anno1452"]
