"""Pirates & Aristocrats (Aristokraten und Piraten), the Anno 1503 expansion,
as a variant package: option ``{"expansion": "pirates_aristocrats"}``.

The base rules read as the base game; they reach the variant of a match as
``state.variant`` (``variant.BaseGame`` in the base game, whose hooks do
nothing) and call it at named hook points. ``hooks.Expansion`` answers them
for this expansion; the full list is in ``variant.py`` and DESIGN.md
"Expansion". Modules:

``data``
    printed content (``data/expansion.json``) and the two-board geometry.
``state``
    the typed state part: ``AristocratIsland`` (``Player.part``) and
    ``ExpansionPiles`` (``State.part``), with fast clones and the dump form.
``setup``
    the expansion's setup, after the base layout.
``rules``
    derived quantities (prices, goals, cannons), card draws, the expansion reserve.
``combat``
    sea battles: pirate cards and pirate lairs.
``actions``, ``actions_cards``, ``vocabulary``
    the expansion's action specs (the aristocrat island; cards, battles and
    lairs); ``widen`` (the base actions'
    parameters in an expansion match's vocabulary).
``view``
    the aristocrat islands and expansion piles as a seat sees them.
``hooks``
    ``Expansion``, the hook implementations.
"""
