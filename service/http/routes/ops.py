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
from service.spec.health import HealthSchema
from service.storage import redis_modes
from service.storage.replicas import shard_report

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
        `WORKER_SEEN_S`; answers within 2 s even when storage hangs. With
        `REDIS_WAIT_REPLICAS` > 0, `shards` lists each storage primary's in-sync
        replicas: one with fewer than required makes the status `degraded`, still
        200 (reads and the other shards' moves are served; every API process sees
        the same shards, so taking them out of service would refuse everything)."""
        checks, alive = _readiness_checks()
        body: dict[str, Any] = {"checks": checks, "workers_alive": alive}
        if services().store.replicas is not None and checks.get("storage") == "ok":
            body["shards"] = _replica_check(checks)
        ready = all(value == "ok" for name, value in checks.items() if name != "replicas")
        degraded = checks.get("replicas", "ok") != "ok"
        body["status"] = "unavailable" if not ready else "degraded" if degraded else "ok"
        return body, 200 if ready else 503


def _readiness_checks() -> tuple[dict[str, str], int | None]:
    """``(checks, live workers or None)``, on the short-timeout probe clients."""
    svc = services()
    storage, queue = svc.probe_clients()
    checks, alive = {}, None
    try:
        _ping(storage)
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


def _ping(storage: Any) -> None:
    """PING storage; on a cluster whose node did not answer, once more after
    reading the slot map again (after a failover the probe client still
    knows the dead primary: one probe would say unreachable)."""
    try:
        storage.ping()
    except redis.ConnectionError:
        if not redis_modes.is_cluster_client(storage):
            raise
        redis_modes.refresh_topology(storage, reconnect=False)
        storage.ping()


def _replica_check(checks: dict[str, str]) -> list[dict[str, Any]]:
    """Each storage primary's in-sync replicas (``shards`` of /readyz); sets
    ``checks["replicas"]``."""
    svc = services()
    wanted, max_lag_s = svc.config["REDIS_WAIT_REPLICAS"], svc.config["REDIS_REPLICA_MAX_LAG_S"]
    try:
        report = shard_report(svc.probe_clients()[0], max_lag_s)
    except redis.RedisError as error:
        checks["replicas"] = f"unknown: {type(error).__name__}"
        return []
    short = [f"{shard.node} {shard.status(wanted)}" for shard in report if shard.status(wanted) != "ok"]
    checks["replicas"] = (
        f"{len(short)} of {len(report)} primaries with fewer than {wanted} in-sync replicas: "
        f"{', '.join(short)}"
        if short
        else "ok"
    )
    return [
        {
            "node": shard.node,
            "replicas": shard.in_sync,
            "required_replicas": wanted,
            "status": shard.status(wanted),
        }
        for shard in report
    ]


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
