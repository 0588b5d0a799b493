"""The baseline for bench/http_bench.py: the cheapest useful Flask endpoint.

``POST /echo`` parses a small JSON body and returns it, so the benchmark can
compare a real move (schema checks, engine, Redis) with pure
gunicorn + Flask + JSON overhead under the same server configuration.

    gunicorn -c deploy/gunicorn.conf.py 'bench.trivial_app:create_app()'
"""

from flask import Flask, jsonify, request


def create_app():
    app = Flask(__name__)

    @app.get("/healthz")
    def healthz():
        return {"status": "ok"}

    @app.post("/echo")
    def echo():
        body = request.get_json()
        return jsonify({"ok": True, "echo": body})

    return app
