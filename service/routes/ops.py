"""Operations: liveness, readiness, the spec and its offline docs page."""

from importlib import resources

import redis
from flask import Response, jsonify
from flask.views import MethodView
from flask_smorest import Blueprint

from .. import ai
from ..openapi import spec_dict, spec_yaml
from ..schemas import HealthSchema
from .common import services

blp = Blueprint("operations", __name__, url_prefix="", description="Health and readiness.")


@blp.route("/healthz")
class Health(MethodView):
    @blp.doc(operationId="healthz")
    @blp.response(200, HealthSchema)
    def get(self):
        """Liveness: the process answers (no storage check)."""
        return {"status": "ok", "checks": {}}


@blp.route("/readyz")
class Ready(MethodView):
    @blp.doc(operationId="readyz")
    @blp.response(200, HealthSchema)
    @blp.alt_response(503, schema=HealthSchema, description="Storage unreachable or no worker seen.")
    def get(self):
        """Readiness: storage reachable and an AI worker seen within `WORKER_SEEN_S`."""
        checks = _readiness_checks()
        ready = all(value == "ok" for value in checks.values())
        return {"status": "ok" if ready else "unavailable", "checks": checks}, 200 if ready else 503


def _readiness_checks():
    svc = services()
    checks = {}
    try:
        svc.redis.ping()
        checks["storage"] = "ok"
    except redis.RedisError as error:
        checks["storage"] = f"unreachable: {type(error).__name__}"
    try:
        age = ai.last_beat_age(svc)
        if age is None:
            checks["worker"] = "never seen"
        elif age > svc.config["WORKER_SEEN_S"]:
            checks["worker"] = f"last seen {int(age)} s ago"
        else:
            checks["worker"] = "ok"
    except redis.RedisError as error:
        checks["worker"] = f"queue storage unreachable: {type(error).__name__}"
    return checks


def register_plain_routes(app, api):
    """The spec and /docs: served by the app itself, no CDN, not in the spec."""
    cache = {}

    @app.get("/openapi.yaml")
    def openapi_yaml():
        if "yaml" not in cache:
            cache["yaml"] = spec_yaml(app)
        return Response(cache["yaml"], mimetype="application/yaml")

    @app.get("/openapi.json")
    def openapi_json():
        return jsonify(spec_dict(app))

    @app.get("/docs")
    def docs():
        page = resources.files("service").joinpath("static/docs.html").read_text()
        return Response(page, mimetype="text/html")
