"""The RQ worker process (``python -m service.worker``): the worker loop
(``runner``), the AI's turn (``ai_jobs``), the sweeper of due matches
(``sweeper``) and the turn timers it fires (``timers``).

May import ``service.play`` and everything below it; never ``http`` (no
Flask) or ``live``.
"""
