"""Redis: the key layout, the values stored, the transport (one round trip per
operation, routed by hash slot on a cluster), the ``Store`` every reader and
writer goes through, the Lua scripts (``lua/``), the three Redis modes and the
circuit breaker.

May import ``service.model`` (errors) and redis-py; nothing above it (no
Flask, no play, no live).
"""
