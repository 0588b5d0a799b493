"""The baseline for bench/http_bench.py: the cheapest useful Flask endpoint.

``POST /echo`` parses a small JSON body and returns it, so the benchmark can
compare a real move (schema checks, engine, Redis) with pure
gunicorn + Flask + JSON overhead under the same server configuration.

``POST /echo/redis`` does the same after one Redis round trip (an ``INCR``
on ``REDIS_URL``): the least any accepted move must add, since a move is
stored before it is answered. Its rate over ``/echo``'s is the ceiling of
the move path's ratio on the machine measured (``http_bench --floor``).

    gunicorn -c deploy/gunicorn.conf.py 'bench.trivial_app:create_app()'
"""

import os

import redis
from flask import Flask, jsonify, request


def create_app():
    app = Flask(__name__)
    store = redis.Redis.from_url(os.environ["REDIS_URL"]) if os.environ.get("REDIS_URL") else None

    @app.get("/healthz")
    def healthz():
        return {"status": "ok"}

    @app.post("/echo")
    def echo():
        body = request.get_json()
        return jsonify({"ok": True, "echo": body})

    @app.post("/echo/redis")
    def echo_after_a_round_trip():
        body = request.get_json()
        if store is None:
            return jsonify({"error": "no REDIS_URL"}), 503
        return jsonify({"ok": True, "echo": body, "count": store.incr("bench:echo")})

    return app
