"""What the API accepts and answers: the one description of each game's
actions (``actions``), the marshmallow schemas of every resource
(``schemas``), the per-game schemas (``games``), the OpenAPI components and
the document built from them (``components``, ``document``).

May import ``engine`` and ``service.model``; no storage, no Flask app.
"""
