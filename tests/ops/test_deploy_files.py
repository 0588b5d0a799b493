"""The deployment files cannot be run here (no Docker engine, no cluster):
check that they parse, agree with each other and name real entry points."""

import gc
import importlib.util
import re
import runpy
from pathlib import Path
from types import SimpleNamespace

import pytest
import yaml

from service.runtime import heap

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
# The base manifests; overlays/ and components/ are checked by test_deploy_schemas.py.
K8S_BASE = DEPLOY / "k8s" / "base"
API_COMMAND = ["gunicorn", "-c", "/etc/tabula/gunicorn.conf.py", "service:create_app()"]
WORKER_COMMAND = ["python", "-m", "service.worker"]
WEBHOOK_WORKER_COMMAND = ["python", "-m", "service.worker.webhook_worker"]


def _k8s_documents():
    docs = []
    for path in sorted(K8S_BASE.glob("*.yaml")):
        if path.name == "kustomization.yaml":  # kustomize's input, not an object
            continue
        docs += [doc for doc in yaml.safe_load_all(path.read_text()) if doc]
    return docs


def _by_kind(kind):
    return {doc["metadata"]["name"]: doc for doc in _k8s_documents() if doc["kind"] == kind}


def _container(deployment):
    (container,) = deployment["spec"]["template"]["spec"]["containers"]
    return container


def test_entry_points_exist():
    assert importlib.util.find_spec("service.worker") is not None
    import service

    assert callable(service.create_app)


def test_gunicorn_config_reads_the_environment(monkeypatch):
    monkeypatch.setenv("TABULA_BIND", "127.0.0.1:9999")
    monkeypatch.setenv("WEB_CONCURRENCY", "3")
    monkeypatch.setenv("GUNICORN_ACCESSLOG", "off")
    conf = runpy.run_path(str(DEPLOY / "gunicorn.conf.py"))
    assert conf["bind"] == ["127.0.0.1:9999"]
    monkeypatch.setenv("METRICS_PORT", "9401")
    assert runpy.run_path(str(DEPLOY / "gunicorn.conf.py"))["bind"] == ["127.0.0.1:9999", "127.0.0.1:9401"]
    assert conf["workers"] == 3
    # gevent (open event streams are greenlets), answering gunicorn's own
    # errors in JSON (service/gunicorn_worker.py)
    assert conf["worker_class"] == "service.gunicorn_worker.JsonErrorGeventWorker"
    monkeypatch.setenv("GUNICORN_WORKER_CLASS", "gthread")
    assert runpy.run_path(str(DEPLOY / "gunicorn.conf.py"))["worker_class"] == "gthread"
    assert conf["accesslog"] is None
    assert conf["control_socket_disable"] is True


def test_gunicorn_config_defaults(monkeypatch):
    for name in (
        "TABULA_BIND",
        "BIND",
        "WEB_CONCURRENCY",
        "GUNICORN_THREADS",
        "GUNICORN_ACCESSLOG",
        "METRICS_PORT",
    ):
        monkeypatch.delenv(name, raising=False)
    conf = runpy.run_path(str(DEPLOY / "gunicorn.conf.py"))
    assert conf["bind"] == ["0.0.0.0:8000"]  # no metrics address unless METRICS_PORT is set
    assert conf["workers"] >= 1 and conf["threads"] >= 1
    # The app's JSON request log (stdout) replaces gunicorn's access log.
    assert conf["accesslog"] is None and conf["errorlog"] == "-"
    assert conf["timeout"] > 0 and conf["graceful_timeout"] > 0


def test_a_worker_freezes_its_loaded_objects(monkeypatch):
    """Once a worker has loaded the app, its objects leave the collector's
    scans and young collections come less often (service/runtime/heap.py)."""
    monkeypatch.delenv("GUNICORN_READY_DIR", raising=False)
    conf = runpy.run_path(str(DEPLOY / "gunicorn.conf.py"))
    threshold = gc.get_threshold()
    gc.unfreeze()
    try:
        conf["post_worker_init"](SimpleNamespace(pid=0))
        assert gc.get_freeze_count() > 0
        assert gc.get_threshold() == (heap.YOUNG_THRESHOLD, *threshold[1:])
    finally:
        gc.unfreeze()
        gc.set_threshold(*threshold)


def test_metrics_reach_prometheus_from_api_and_worker_containers():
    text = (DEPLOY / "Dockerfile").read_text()
    assert "PROMETHEUS_MULTIPROC_DIR=" in text and "WORKER_METRICS_PORT=9100" in text
    api, worker = (
        _container(_by_kind("Deployment")["tabula-api"]),
        _container(_by_kind("Deployment")["tabula-worker"]),
    )
    assert {"name": "PROMETHEUS_MULTIPROC_DIR", "value": "/tmp/tabula-metrics"} in api["env"]
    assert {"name": "metrics", "containerPort": 9100} in worker["ports"]
    # The API's metrics on their internal port, which the Service does not expose.
    assert "METRICS_PORT=9400" in text and "METRICS_HOST=0.0.0.0" in text
    assert {"name": "METRICS_PORT", "value": "9400"} in api["env"]
    assert {"name": "metrics", "containerPort": 9400} in api["ports"]
    service_ports = _by_kind("Service")["tabula-api"]["spec"]["ports"]
    assert [p["targetPort"] for p in service_ports] == ["http"]
    for name, port in (("tabula-api", "9400"), ("tabula-worker", "9100")):
        annotations = _by_kind("Deployment")[name]["spec"]["template"]["metadata"]["annotations"]
        assert annotations["prometheus.io/port"] == port and annotations["prometheus.io/scrape"] == "true"


def test_dockerfile_stages_and_commands():
    text = (DEPLOY / "Dockerfile").read_text()
    stages = re.findall(r"^FROM\s+\S+\s+AS\s+(\w+)", text, flags=re.MULTILINE | re.IGNORECASE)
    assert {"build", "api", "worker"} <= set(stages)
    assert "COPY --from=build /venv /venv" in text
    assert "COPY deploy/gunicorn.conf.py /etc/tabula/gunicorn.conf.py" in text
    assert 'CMD ["gunicorn", "-c", "/etc/tabula/gunicorn.conf.py", "service:create_app()"]' in text
    assert 'CMD ["python", "-m", "service.worker"]' in text
    for source in re.findall(r"^COPY (?!--)(\S+)", text, flags=re.MULTILINE):
        assert (ROOT / source).exists(), source


def test_compose_services():
    compose = yaml.safe_load((DEPLOY / "docker-compose.yml").read_text())
    # The default profile (services without ``profiles``): the standalone stack.
    services = {name: s for name, s in compose["services"].items() if not s.get("profiles")}
    assert set(services) == {"redis", "api", "worker", "webhook-worker"}
    assert "--appendonly" in services["redis"]["command"]
    assert "ports" not in services["redis"]  # Redis stays off the host network
    assert services["api"]["command"] == API_COMMAND
    assert services["worker"]["command"] == WORKER_COMMAND
    for name in ("api", "worker"):
        service = services[name]
        assert service["build"]["target"] == name
        assert service["environment"]["REDIS_URL"].startswith("redis://redis:")
        assert service["depends_on"]["redis"]["condition"] == "service_healthy"
    hooks = services["webhook-worker"]
    assert hooks["command"] == WEBHOOK_WORKER_COMMAND and hooks["build"]["target"] == "worker"
    assert hooks["environment"]["REDIS_URL"].startswith("redis://redis:")


def test_k8s_webhook_worker_deployment():
    """Webhook deliveries have pods of their own (docs/webhooks.md)."""
    assert _container(_by_kind("Deployment")["tabula-webhook-worker"])["command"] == WEBHOOK_WORKER_COMMAND
    assert importlib.util.find_spec("service.worker.webhook_worker") is not None


def test_k8s_api_deployment_probes_and_command():
    api = _by_kind("Deployment")["tabula-api"]
    container = _container(api)
    assert container["command"] == API_COMMAND
    assert container["readinessProbe"]["httpGet"]["path"] == "/readyz"
    assert container["livenessProbe"]["httpGet"]["path"] == "/healthz"
    port_names = {p["name"] for p in container["ports"]}
    assert container["readinessProbe"]["httpGet"]["port"] in port_names
    service = _by_kind("Service")["tabula-api"]
    assert service["spec"]["ports"][0]["targetPort"] in port_names
    labels = api["spec"]["template"]["metadata"]["labels"]
    assert service["spec"]["selector"].items() <= labels.items()


def test_k8s_worker_and_references():
    deployments = _by_kind("Deployment")
    assert _container(deployments["tabula-worker"])["command"] == WORKER_COMMAND
    config = _by_kind("ConfigMap")["tabula-config"]["data"]
    assert "REDIS_URL" in config
    for deployment in deployments.values():
        for source in _container(deployment)["envFrom"]:
            assert source["configMapRef"]["name"] == "tabula-config"
    for hpa in _by_kind("HorizontalPodAutoscaler").values():
        assert hpa["spec"]["scaleTargetRef"]["name"] in deployments


@pytest.mark.parametrize("doc", _k8s_documents(), ids=lambda d: f"{d['kind']}/{d['metadata']['name']}")
def test_k8s_documents_are_well_formed(doc):
    assert doc["apiVersion"] and doc["kind"] and doc["metadata"]["name"]


def test_kustomization_lists_every_manifest():
    listed = set(yaml.safe_load((K8S_BASE / "kustomization.yaml").read_text())["resources"])
    present = {p.name for p in K8S_BASE.glob("*.yaml")} - {"kustomization.yaml"}
    assert listed == present


def test_container_configs_name_their_cors_origins():
    compose = yaml.safe_load((DEPLOY / "docker-compose.yml").read_text())
    assert "CORS_ORIGINS" in compose["services"]["api"]["environment"]
    (config,) = _by_kind("ConfigMap").values()
    origins = config["data"]["CORS_ORIGINS"]
    assert origins and origins != "*"
