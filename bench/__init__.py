"""Tabula's benchmarks, run from the repository root as modules
(``python -m bench.http_bench``; see bench/README.md).

``harness`` (servers, rounds of load, CPU per request) and ``move_clients``
(the clients that post moves) are shared by the HTTP benchmarks
(``http_bench``, ``stream_bench``, ``scaleout_bench``, ``capacity_figures``);
``redis_topologies`` starts the Redis Cluster and Sentinel set-ups that
``scaleout_bench`` and tests/cluster use; ``ladder`` is a package of its own.
"""
