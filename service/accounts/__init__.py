"""Players: accounts, their names, and personal access tokens with scopes.

Owns who a request is (``auth.authenticate`` -> ``Principal``, and
``auth.require_scope``), the sign-up and app-account operations
(``accounts``), names and what makes two names one (``names``), and the
token operations (``tokens``), and the one way an account event is made
(``events.publish_account_event``); the seats accounts hold and how an
account token acts for its seat (``seats``), the events a committed match
calls for (``match_events``), and the history and profile figures
(``history``). docs/accounts.md is the user's page; the
Redis key layout is service/storage/accounts.py.

A layer between ``service.play | service.live`` and ``service.runtime``: may
import ``service.runtime``, ``service.spec``, ``service.storage`` and
``service.model``; ``play``, ``live``, ``http`` and ``worker`` may import it.
"""
