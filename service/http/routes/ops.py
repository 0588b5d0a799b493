"""Operations: liveness, readiness, metrics (on the internal port:
service/http/internal_port.py), the spec and its offline docs page."""

from importlib import resources
from typing import Any

import redis
from flask import Flask, Response, abort, jsonify, send_from_directory
from flask.views import MethodView
from flask_smorest import Blueprint

from service.http.routes.common import services
from service.play import ai
from service.runtime import metrics
from service.spec.document import spec_dict, spec_yaml
from service.spec.schemas import HealthSchema

# Swagger UI's files that /docs loads, served from the installed flask-swagger-ui
# (its dist folder; its blueprint is not used).
DOCS_ASSETS_PREFIX = "/docs/assets/"
DOCS_ASSETS = frozenset({"swagger-ui.css", "swagger-ui-bundle.js"})
# The page's own script and style, files for its CSP (service/static/docs/).
OWN_DOCS_ASSETS = frozenset({"tabula-docs.js", "tabula-docs.css"})

blp = Blueprint("operations", __name__, url_prefix="", description="Health and readiness.")


@blp.route("/healthz")
class Health(MethodView):
    @blp.doc(operationId="healthz")
    @blp.response(200, HealthSchema)
    def get(self) -> dict[str, Any]:
        """Liveness: the process answers (no storage check)."""
        return {"status": "ok", "checks": {}}


@blp.route("/readyz")
class Ready(MethodView):
    @blp.doc(operationId="readyz")
    @blp.response(200, HealthSchema)
    @blp.alt_response(503, schema=HealthSchema, description="Storage unreachable or no worker seen.")
    def get(self) -> Any:
        """Readiness: storage reachable and `READY_MIN_WORKERS` AI workers seen within
        `WORKER_SEEN_S`; answers within 2 s even when storage hangs."""
        checks, alive = _readiness_checks()
        ready = all(value == "ok" for value in checks.values())
        body = {"status": "ok" if ready else "unavailable", "checks": checks, "workers_alive": alive}
        return body, 200 if ready else 503


def _readiness_checks() -> tuple[dict[str, str], int | None]:
    """``(checks, live workers or None)``, on the short-timeout probe clients."""
    svc = services()
    storage, queue = svc.probe_clients()
    checks, alive = {}, None
    try:
        storage.ping()
        checks["storage"] = "ok"
    except redis.RedisError as error:
        checks["storage"] = f"unreachable: {type(error).__name__}"
        if queue is storage:  # the same server: do not wait for it twice
            checks["worker"] = "queue storage unreachable"
            return checks, alive
    try:
        alive = ai.alive_workers(svc, queue)
    except redis.RedisError as error:
        checks["worker"] = f"queue storage unreachable: {type(error).__name__}"
        return checks, alive
    wanted = svc.config["READY_MIN_WORKERS"]
    checks["worker"] = "ok" if alive >= wanted else f"{alive} of {wanted} workers alive"
    return checks, alive


def register_plain_routes(app: Flask, api: Any) -> None:
    """The spec, /docs (Swagger UI) and /metrics: served by the app itself,
    no CDN, not in the spec (/metrics answers only on the internal port)."""
    cache = {}

    @app.get("/metrics")
    def prometheus_metrics() -> Response:
        body, content_type = metrics.exposition(services())
        return Response(body, content_type=content_type)

    @app.get("/openapi.yaml")
    def openapi_yaml() -> Response:
        if "yaml" not in cache:
            cache["yaml"] = spec_yaml(app)
        return Response(cache["yaml"], mimetype="application/yaml")

    @app.get("/openapi.json")
    def openapi_json() -> Response:
        return jsonify(spec_dict(app))

    @app.get("/docs")
    def docs() -> Response:
        page = resources.files("service").joinpath("static/docs.html").read_text()
        return Response(page, mimetype="text/html")

    @app.get(DOCS_ASSETS_PREFIX + "<path:name>")
    def docs_asset(name: str) -> Response:
        if name in OWN_DOCS_ASSETS:
            return send_from_directory(str(resources.files("service") / "static" / "docs"), name)
        if name not in DOCS_ASSETS:
            abort(404)
        return send_from_directory(str(resources.files("flask_swagger_ui") / "dist"), name)
