"""The values every layer shares: the API's errors (``errors``), the match
document and its events (``documents``), seat tokens (``tokens``) and the
dice proofs (``dice``).

Owns no I/O. May import ``engine`` and the standard library only: nothing
else of ``service``.
"""
