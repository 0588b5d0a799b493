"""The process: configuration (``config``), the shared handles built from it
(``services.Services``: the Redis clients, the store, the AI queue, the
engine-state cache), structured logs and Prometheus metrics.

May import ``service.storage``, ``service.spec`` and ``service.model``;
nothing that handles a request or a job (``http``, ``worker``, ``play``,
``live``).
"""
