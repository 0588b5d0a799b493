"""``make run``'s launcher (``python -m launcher.devserver``): its settings and
checks before anything starts (``preflight``), a private redis-server
(``redis_process``), the RQ workers and gunicorn under supervisord
(``supervision``), each program started through a shim that waits before a
restart (``shim``). A developer's tool: not part of the API package and not
in the image (deploy/Dockerfile copies ``service`` and ``engine`` only).

May import ``service`` (its configuration); ``service`` never imports it.
"""
