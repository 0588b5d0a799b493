"""Live event streams: one process-wide hub on Redis pub/sub that fans each
match's events out to its subscribers (SSE and NDJSON), catching up from the
store; and the account stream (``account_stream``), woken by the same hub on
each account's live channel.

May import ``service.runtime``, ``service.storage`` and ``service.model``;
never ``http``, ``worker`` or ``play``.
"""
