"""Operations on matches, whoever asks (a route, the move lane, an AI job, a
turn timer): create and join (``matches``), play one move (``moves``), commit
a change with a version check (``commits``), rematches, history, boards,
idempotent retries, deadlines, what follows every commit (``follow``: the
accounts' events, then the AI's turn) and scheduling the AI's turns (``ai``).

May import ``service.runtime``, ``service.spec``, ``service.storage`` and
``service.model``; never ``http``, ``worker`` or ``live`` (no Flask request).
"""
