"""``make run``'s launcher (``python -m launcher.devserver``): a redis-server
(``redis_process``), the RQ workers and gunicorn under supervisord
(``supervision``). A developer's tool: not part of the API package and not
in the image (deploy/Dockerfile copies ``service`` and ``engine`` only).

May import ``service`` (its configuration); ``service`` never imports it.
"""
