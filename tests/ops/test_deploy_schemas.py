"""Schema validation of the Kubernetes manifests (base and cluster overlay)
against the OpenAPI schemas of a pinned Kubernetes version, bundled by the
PyPI package kubernetes-validate (strict: unknown fields fail).

kustomize is not installed here, so the overlay is rendered by
``render_overlay``: base resources, minus the ``$patch: delete`` targets, plus
the overlay's resources, with the ConfigMap patch merged into ``data``. That
covers exactly the patch kinds the overlay uses, nothing more."""
import json
from pathlib import Path

import jsonschema
import kubernetes_validate
import pytest
import yaml

from service.redis_modes import check_roles

K8S_VERSION = "1.31.0"
BASE = Path(__file__).resolve().parents[2] / "deploy" / "k8s"
OVERLAY = BASE / "overlays" / "cluster"
# Custom resources: not in the Kubernetes schemas (KEDA's CRD schema is not vendored yet).
CUSTOM_KINDS = {"ScaledObject", "TriggerAuthentication"}


def load_docs(path):
    return [d for d in yaml.safe_load_all(path.read_text()) if d]


def key(doc):
    return doc["kind"], doc["metadata"]["name"]


def build(directory):
    kustomization = yaml.safe_load((directory / "kustomization.yaml").read_text())
    docs = []
    for entry in kustomization.get("resources", []):
        target = directory / entry
        docs += build(target) if target.is_dir() else load_docs(target)
    for patch in kustomization.get("patches", []):
        docs = apply_patch(docs, load_docs(directory / patch["path"]))
    return docs


def apply_patch(docs, patch_docs):
    for patch in patch_docs:
        if patch.get("$patch") == "delete":
            docs = [d for d in docs if key(d) != key(patch)]
            continue
        target = next(d for d in docs if key(d) == key(patch))
        target.setdefault("data", {}).update(patch.get("data", {}))
    return docs


def render_overlay():
    return build(OVERLAY)


@pytest.mark.parametrize("directory", [BASE, OVERLAY], ids=["base", "cluster"])
def test_every_manifest_validates_against_kubernetes_schema(directory):
    docs = build(directory)
    assert docs
    for doc in docs:
        if doc["kind"] in CUSTOM_KINDS:
            continue
        kubernetes_validate.validate(doc, K8S_VERSION, strict=True)


def test_a_typo_in_a_field_fails_validation():
    statefulset = next(d for d in render_overlay() if d["kind"] == "StatefulSet")
    statefulset["spec"]["replicass"] = statefulset["spec"].pop("replicas")
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(statefulset, K8S_VERSION, strict=True)


def test_a_wrong_type_fails_validation():
    statefulset = next(d for d in render_overlay() if d["kind"] == "StatefulSet")
    statefulset["spec"]["replicas"] = "six"
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(statefulset, K8S_VERSION, strict=True)


def test_overlay_replaces_worker_hpa_with_keda_and_points_at_cluster():
    docs = {key(d): d for d in render_overlay()}
    assert ("HorizontalPodAutoscaler", "tabula-worker") not in docs
    assert ("HorizontalPodAutoscaler", "tabula-api") in docs
    scaled = docs[("ScaledObject", "tabula-worker")]
    assert scaled["apiVersion"] == "keda.sh/v1alpha1"
    assert ("Deployment", scaled["spec"]["scaleTargetRef"]["name"]) in docs
    trigger = scaled["spec"]["triggers"][0]
    assert trigger["type"] == "redis-sentinel"
    config = docs[("ConfigMap", "tabula-config")]["data"]
    assert trigger["metadata"]["listName"] == "rq:queue:" + config.get("AI_QUEUE", "ai")
    assert config["REDIS_MODE"] == "cluster"
    assert config["RQ_REDIS_URL"].startswith("redis+sentinel://")
    assert ("StatefulSet", "tabula-redis") not in docs


def test_overlay_config_is_accepted_by_the_service():
    config = {key(d): d for d in render_overlay()}[("ConfigMap", "tabula-config")]["data"]
    check_roles(config)


# KEDA's CRD schema (vendored, see its $comment). The API server prunes unknown
# fields of a custom resource silently; closing every object here makes a typo
# fail the test instead, as kubeconform -strict does.
KEDA_SCHEMA = Path(__file__).with_name("schemas") / "keda-scaledobject-v1alpha1.json"


def closed(schema):
    if isinstance(schema, dict):
        schema = {k: closed(v) for k, v in schema.items()}
        if "properties" in schema and "additionalProperties" not in schema:
            schema["additionalProperties"] = False
    return schema


def scaled_object_validator():
    return jsonschema.Draft7Validator(closed(json.loads(KEDA_SCHEMA.read_text())))


def scaled_object():
    return next(d for d in render_overlay() if d["kind"] == "ScaledObject")


def test_scaled_object_validates_against_keda_crd_schema():
    scaled_object_validator().validate(scaled_object())


def test_scaled_object_with_typo_or_wrong_type_fails():
    validator = scaled_object_validator()
    typo = scaled_object()
    typo["spec"]["maxReplicaCounts"] = typo["spec"].pop("maxReplicaCount")
    wrong_type = scaled_object()
    wrong_type["spec"]["triggers"][0]["metadata"]["listLength"] = 5
    for doc in (typo, wrong_type):
        with pytest.raises(jsonschema.ValidationError):
            validator.validate(doc)


# The one-host scale-out topology (docker compose is not installed here, and
# the Compose Specification schema is not vendored: cross-references only).
COMPOSE_CLUSTER = BASE.parent / "docker-compose.cluster.yml"


def compose_services():
    return yaml.safe_load(COMPOSE_CLUSTER.read_text())["services"]


def url_hosts(url):
    netloc = url.split("://", 1)[1].split("/", 1)[0].rsplit("@", 1)[-1]
    return [part.rsplit(":", 1)[0] for part in netloc.split(",")]


def test_compose_cluster_env_urls_and_depends_on_name_existing_services():
    services = compose_services()
    for name, service in services.items():
        env = service.get("environment", {})
        for variable in ("REDIS_URL", "RQ_REDIS_URL"):
            if variable in env:
                assert set(url_hosts(env[variable])) <= services.keys(), (name, variable)
        assert set(service.get("depends_on", {})) <= services.keys(), name


def test_compose_cluster_topology_and_app_config():
    services = compose_services()
    nodes = [n for n in services if n.startswith("redis-node-")]
    assert len(nodes) == 6
    assert all(n in services["cluster-create"]["command"][-1] for n in nodes)
    assert len([n for n in services if n.startswith("sentinel-")]) == 3
    for app in ("api", "worker"):
        env = services[app]["environment"]
        assert env["REDIS_MODE"] == "cluster"
        assert env["RQ_REDIS_URL"].startswith("redis+sentinel://")
        check_roles(env)


def compose_validator():
    schema = json.loads((KEDA_SCHEMA.parent / "compose-spec.json").read_text())
    # The vendored schema predates the top-level project name (see schemas/README.md).
    schema["properties"]["name"] = {"type": "string"}
    return jsonschema.Draft7Validator(schema)


@pytest.mark.parametrize("path", [BASE.parent / "docker-compose.yml", COMPOSE_CLUSTER], ids=["base", "cluster"])
def test_compose_files_validate_against_compose_spec(path):
    compose_validator().validate(yaml.safe_load(path.read_text()))


def test_compose_typo_fails_compose_spec():
    doc = yaml.safe_load(COMPOSE_CLUSTER.read_text())
    doc["services"]["api"]["depends_onn"] = doc["services"]["api"].pop("depends_on")
    with pytest.raises(jsonschema.ValidationError):
        compose_validator().validate(doc)
