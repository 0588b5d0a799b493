"""Redis: the key layout, the values stored, the transport (one round trip per
operation, routed by hash slot on a cluster), the ``Store`` every reader and
writer goes through (with the cross-slot indexes: lobby, tokens, retention),
the Lua scripts (``lua/``), the rate limit's fixed-window
counters, the three Redis modes and the circuit breaker.

May import ``service.model`` (errors) and redis-py; nothing above it (no
Flask, no play, no live).
"""
