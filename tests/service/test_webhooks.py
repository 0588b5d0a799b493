"""Webhooks (docs/webhooks.md) on a real redis-server, delivered by a real
``python -m service.worker.webhook_worker`` process to a real HTTP receiver
on loopback (tests/service/webhook_receiver.py), never an external address.

DNS rebinding is tested in-process: ``webhook_targets.resolve`` (the one
function that resolves a webhook's host) is swapped for a stand-in that
answers a public address when the webhook is set and loopback when it is
delivered.
"""

import hashlib
import hmac
import json
import os
import shutil
import ssl
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from unittest import mock

import pytest
import urllib3
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.accounts import delivery, hook_queue, webhook_targets
from service.accounts.events import publish_account_event
from service.model.webhooks import WEBHOOK_EVENT_TYPES
from service.spec.webhook_schemas import WEBHOOK_URL_PATTERN
from service.storage import accounts as stored_accounts

from .conftest import fresh_app
from .test_accounts import account_token, bearer
from .test_game_schemas import validator
from .webhook_receiver import Receiver

ROOT = Path(__file__).resolve().parents[2]
LOOPBACK_OK = {"WEBHOOK_ALLOW_HTTP": 1, "WEBHOOK_ALLOW_PRIVATE": 1}
FAST = {"WEBHOOK_RETRY_S": "1,1", "WEBHOOK_JITTER": 0, "WEBHOOK_TIMEOUT_S": 1.0, "WEBHOOK_DISABLE_AFTER": 3}

# The worked example of docs/webhooks.md ("Verifying a delivery").
EXAMPLE_SECRET = "whsec_test_secret_0123456789"
EXAMPLE_T = 1767225600
EXAMPLE_BODY = (
    b'{"id":"1767225600000-0","type":"your_turn","match_id":"m1","data":{"game":"tictactoe",'
    b'"seat":1,"version":4,"match_id":"m1"},"delivery_id":"d0123456789abcdef01234567"}'
)
EXAMPLE_SIGNATURE = "t=1767225600,v1=7a5f5c46b01b38956f264b30d1d77a99ad9eff33776f2dfb64e853ff296dc412"


def verify(secret, header, body):
    """What a receiver does: recompute the HMAC of "<t>.<raw body>"."""
    fields = dict(part.split("=", 1) for part in header.split(","))
    expected = hmac.new(secret.encode(), fields["t"].encode() + b"." + body, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, fields["v1"]) and abs(time.time() - int(fields["t"])) < 300


@pytest.fixture
def hook_app(redis_server):
    with fresh_app(redis_server.url, **LOOPBACK_OK, **FAST) as app:
        yield app


@pytest.fixture
def strict_app(redis_server):
    """An app with the defaults: https only, public addresses only."""
    with fresh_app(redis_server.url) as app:
        yield app


@pytest.fixture
def worker_env(redis_server):
    """Where the webhook worker finds Redis (tests/cluster: the deployment's)."""
    return {"REDIS_URL": redis_server.url}


@contextmanager
def hook_worker(worker_env):
    settings = {**LOOPBACK_OK, **FAST, **worker_env}
    full_env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "LOGLEVEL": os.environ.get("HOOK_WORKER_LOGLEVEL", "WARNING"),
        "METRICS": "0",
        **{k: str(v) for k, v in settings.items()},
    }
    proc = subprocess.Popen([sys.executable, "-m", "service.worker.webhook_worker"], cwd=ROOT, env=full_env)
    try:
        yield proc
    finally:
        proc.terminate()  # warm shutdown: RQ stops its scheduler process too
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def set_hook(client, token, url, **body):
    return client.put("/v1/account/webhook", json={"url": url, **body}, headers=bearer(token))


def aid_of(client, token):
    return client.get("/v1/account", headers=bearer(token)).json["id"]


def test_the_signature_scheme_matches_the_documented_example():
    assert delivery.signature(EXAMPLE_SECRET, EXAMPLE_T, EXAMPLE_BODY) == EXAMPLE_SIGNATURE
    docs = (ROOT / "docs" / "webhooks.md").read_text()
    for value in (EXAMPLE_SECRET, str(EXAMPLE_T), EXAMPLE_BODY.decode(), EXAMPLE_SIGNATURE):
        assert value in docs


@pytest.mark.parametrize(
    "url",
    [
        "https://127.0.0.1/hook",
        "https://10.0.0.8/hook",
        "https://172.16.3.4/hook",
        "https://192.168.1.10/hook",
        "https://169.254.169.254/latest/meta-data/",
        "https://[::1]/hook",
        "https://[fd00::5]/hook",
        "https://100.64.0.1/hook",
        "https://metadata.google.internal/",
        "https://localhost/hook",
        "http://93.184.216.34/hook",
    ],
)
def test_targets_the_policy_refuses_are_403_when_set(strict_app, url):
    """A well-formed URL (the schema's) the server's policy refuses: 403
    `webhook_target_forbidden` with the reason; no webhook stored."""
    client = strict_app.test_client()
    token = account_token(client)
    assert validator("WebhookSet").is_valid({"url": url})
    answer = set_hook(client, token, url)
    assert answer.status_code == 403, answer.json
    assert answer.json["error"] == "webhook_target_forbidden", answer.json
    assert answer.json["details"]["reason"] and answer.json["details"]["reason"] in answer.json["message"]
    assert client.get("/v1/account/webhook", headers=bearer(token)).status_code == 404


@pytest.mark.parametrize("answer", [OSError("Name or service not known"), []])
def test_a_host_that_resolves_to_no_address_is_403(strict_app, monkeypatch, answer):
    def resolve(host, port):
        if isinstance(answer, Exception):
            raise answer
        return answer

    monkeypatch.setattr(webhook_targets, "resolve", resolve)
    client = strict_app.test_client()
    token = account_token(client)
    refused = set_hook(client, token, "https://hooks.example.test/tabula")
    assert refused.status_code == 403 and refused.json["error"] == "webhook_target_forbidden"
    assert "does not resolve" in refused.json["details"]["reason"]
    assert client.get("/v1/account/webhook", headers=bearer(token)).status_code == 404


@pytest.mark.parametrize(
    "url",
    [
        "ftp://93.184.216.34/hook",
        "https://user:pw@93.184.216.34/hook",
        "https:///hook",
        "https://93.184.216.34:65536/hook",
        "https://[0]/hook",
        "https://[1.2.3.4]/hook",
        " https://93.184.216.34/hook",
        "https://93.184.216.34/a hook",
        "https://93.184.216.34/hook\n",
        "https://b\u00fccher.example/hook",
    ],
)
def test_malformed_urls_are_422_as_the_schema_says(strict_app, url):
    client = strict_app.test_client()
    token = account_token(client)
    assert not validator("WebhookSet").is_valid({"url": url})
    answer = set_hook(client, token, url)
    assert answer.status_code == 422, answer.json
    assert answer.json["error"] == "validation_error" and "url" in answer.json["details"]["fields"]["json"]
    assert client.get("/v1/account/webhook", headers=bearer(token)).status_code == 404


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.from_regex(WEBHOOK_URL_PATTERN, fullmatch=True).filter(lambda url: len(url) <= 2048))
def test_every_url_of_the_schema_s_pattern_is_well_formed_to_the_server(url):
    """No schema-valid URL is refused as malformed (422): the server refuses
    one only by its policy (TargetForbidden, 403). DNS stands in: every name
    resolves to a public address."""
    with mock.patch.object(webhook_targets, "resolve", lambda host, port: ["93.184.216.34"]):
        try:
            webhook_targets.check_url(url, allow_http=False, allow_private=False)
        except webhook_targets.TargetForbidden:
            pass


def test_metadata_stays_refused_when_private_targets_are_allowed(hook_app):
    client = hook_app.test_client()
    token = account_token(client)
    refused = set_hook(client, token, "http://169.254.169.254/")
    assert refused.status_code == 403 and refused.json["error"] == "webhook_target_forbidden"
    assert set_hook(client, token, "http://127.0.0.1:9/hook").status_code == 200


def test_set_read_and_delete(hook_app):
    client = hook_app.test_client()
    token = account_token(client)
    answer = set_hook(client, token, "http://127.0.0.1:9/hook", events=["your_turn"])
    assert answer.status_code == 200 and answer.json["secret"].startswith("whsec_")
    read = client.get("/v1/account/webhook", headers=bearer(token))
    assert read.status_code == 200 and "secret" not in read.json
    assert read.json["events"] == ["your_turn"] and read.json["enabled"] is True
    assert read.json["consecutive_failures"] == 0 and read.json["disabled_reason"] is None
    chosen = set_hook(client, token, "http://127.0.0.1:9/hook", secret="s" * 20)
    assert chosen.json["secret"] == "s" * 20 and len(chosen.json["events"]) == len(WEBHOOK_EVENT_TYPES)
    assert client.delete("/v1/account/webhook", headers=bearer(token)).status_code == 204
    assert client.get("/v1/account/webhook", headers=bearer(token)).status_code == 404
    assert client.delete("/v1/account/webhook", headers=bearer(token)).status_code == 404


@pytest.mark.parametrize("held", ["account:read", "account:write"])
def test_scopes(hook_app, held):
    client = hook_app.test_client()
    owner = account_token(client)
    assert set_hook(client, owner, "http://127.0.0.1:9/hook").status_code == 200
    minted = client.post("/v1/account/tokens", json={"label": "x", "scopes": [held]}, headers=bearer(owner))
    h = bearer(minted.json["token"])
    calls = {
        "account:read": [
            lambda: client.get("/v1/account/webhook", headers=h),
            lambda: client.get("/v1/account/webhook/deliveries", headers=h),
        ],
        "account:write": [
            lambda: client.put("/v1/account/webhook", json={"url": "http://127.0.0.1:9/"}, headers=h),
            lambda: client.post("/v1/account/webhook/ping", headers=h),
            lambda: client.delete("/v1/account/webhook", headers=h),
        ],
    }
    for needed, routes in calls.items():
        for call in routes:
            answer = call()
            if needed == held:
                assert answer.status_code in (200, 202, 204), answer.json
            else:
                assert answer.status_code == 403 and answer.json["details"]["missing_scope"] == needed
    assert client.get("/v1/account/webhook").status_code == 401


def test_no_webhook_or_another_type_enqueues_nothing(hook_app):
    client = hook_app.test_client()
    services = hook_app.extensions["tabula"]
    token = account_token(client)
    aid = aid_of(client, token)
    ai_jobs = services.queue.count
    publish_account_event(services, aid, "your_turn", {"seat": 0}, match_id="m1")
    set_hook(client, token, "http://127.0.0.1:9/hook", events=["match_finished"])
    publish_account_event(services, aid, "your_turn", {"seat": 0}, match_id="m1")
    assert services.webhook_queue.count == 0
    publish_account_event(services, aid, "match_finished", {"seat": 0}, match_id="m1")
    assert services.webhook_queue.count == 1 and services.queue.count == ai_jobs  # not the AI queue


def test_delivered_signed_retried_after_500_and_timeout_deduplicated(hook_app, worker_env):
    client = hook_app.test_client()
    services = hook_app.extensions["tabula"]
    token = account_token(client)
    aid = aid_of(client, token)
    with Receiver([500, ("sleep", 2.5, 200)]) as receiver, hook_worker(worker_env):
        secret = set_hook(client, token, receiver.url).json["secret"]
        event_id = publish_account_event(services, aid, "your_turn", {"seat": 1}, match_id="m7")
        requests = receiver.wait_for(3)
        time.sleep(0.5)  # the attempt is logged just after the answer
    ids = {headers["Tabula-Delivery"] for headers, _ in requests}
    # The slow 200 (past WEBHOOK_TIMEOUT_S) was processed; its retry is the
    # same delivery, de-duplicated on the delivery id.
    assert len(ids) == 1 and receiver.processed == list(ids) and receiver.duplicates == 1
    for headers, body in requests:
        assert verify(secret, headers["Tabula-Signature"], body)
        assert headers["Tabula-Event"] == "your_turn" and headers["Content-Type"] == "application/json"
        sent = json.loads(body)
        assert sent == {
            "id": event_id,
            "type": "your_turn",
            "match_id": "m7",
            "data": {"seat": 1, "match_id": "m7"},
            "delivery_id": headers["Tabula-Delivery"],
        }
    log = client.get("/v1/account/webhook/deliveries", headers=bearer(token)).json
    assert [(e["attempt"], e["status_code"]) for e in log] == [(3, 200), (2, None), (1, 500)]
    assert "timed out" in log[1]["error"].lower() and log[2]["next_attempt_at"] is not None
    assert log[0]["next_attempt_at"] is None and log[0]["error"] is None
    assert client.get("/v1/account/webhook", headers=bearer(token)).json["consecutive_failures"] == 0


def test_switched_off_after_a_run_of_failures_and_said_on_the_account_stream(hook_app, worker_env):
    client = hook_app.test_client()
    services = hook_app.extensions["tabula"]
    token = account_token(client)
    aid = aid_of(client, token)
    with Receiver([500] * 10) as receiver, hook_worker(worker_env):
        set_hook(client, token, receiver.url)
        publish_account_event(services, aid, "match_started", {"seat": 0}, match_id="m2")
        receiver.wait_for(3)
        deadline = time.monotonic() + 10
        while client.get("/v1/account/webhook", headers=bearer(token)).json["enabled"]:
            assert time.monotonic() < deadline
            time.sleep(0.1)
        hook = client.get("/v1/account/webhook", headers=bearer(token)).json
        assert hook["disabled_reason"] == "3 failed attempts in a row"
        events = stored_accounts.read_account_events(services.redis, aid, "0", 10)
        assert [e["type"] for e in events] == ["match_started", "webhook_disabled"]
        publish_account_event(services, aid, "your_turn", {"seat": 0}, match_id="m2")
        assert services.webhook_queue.count == 0  # switched off: nothing enqueued
        set_hook(client, token, receiver.url)  # a new PUT switches it on again
        assert client.get("/v1/account/webhook", headers=bearer(token)).json["enabled"] is True
        publish_account_event(services, aid, "your_turn", {"seat": 0}, match_id="m2")
        receiver.wait_for(4)


def test_ping_and_the_deliveries_log(hook_app, worker_env):
    client = hook_app.test_client()
    token = account_token(client)
    assert client.post("/v1/account/webhook/ping", headers=bearer(token)).status_code == 404
    assert client.get("/v1/account/webhook/deliveries", headers=bearer(token)).json == []
    with Receiver() as receiver, hook_worker(worker_env):
        set_hook(client, token, receiver.url)
        pinged = client.post("/v1/account/webhook/ping", headers=bearer(token))
        assert pinged.status_code == 202
        headers, body = receiver.wait_for(1)[0]
        assert headers["Tabula-Event"] == "ping" and headers["Tabula-Delivery"] == pinged.json["delivery_id"]
        assert json.loads(body)["id"] == pinged.json["event_id"]
        deadline = time.monotonic() + 5
        while not client.get("/v1/account/webhook/deliveries", headers=bearer(token)).json:
            assert time.monotonic() < deadline
            time.sleep(0.1)
    (entry,) = client.get("/v1/account/webhook/deliveries", headers=bearer(token)).json
    assert entry["id"] == pinged.json["delivery_id"] and entry["event_type"] == "ping"
    assert entry["status_code"] == 200 and entry["duration_ms"] >= 0 and entry["attempt"] == 1


def test_a_name_that_resolves_to_loopback_only_at_delivery_is_refused(strict_app, monkeypatch):
    """DNS rebinding: public when set, loopback when delivered: refused then,
    before any connection (the receiver on loopback hears nothing)."""
    client = strict_app.test_client()
    services = strict_app.extensions["tabula"]
    token = account_token(client)
    aid = aid_of(client, token)
    with Receiver() as receiver:
        port = receiver.server.server_address[1]
        monkeypatch.setattr(webhook_targets, "resolve", lambda host, port: ["93.184.216.34"])
        assert set_hook(client, token, f"https://hooks.example.test:{port}/hook").status_code == 200
        monkeypatch.setattr(webhook_targets, "resolve", lambda host, port: ["127.0.0.1"])
        sent = hook_queue.new_delivery("1-0", "your_turn", {"match_id": "m1"})
        assert delivery.deliver(services, aid, sent, 1) == "failed"
        time.sleep(0.2)
        assert receiver.requests == []
    (entry,) = client.get("/v1/account/webhook/deliveries", headers=bearer(token)).json
    assert entry["error"].startswith("refused: hooks.example.test resolves to 127.0.0.1, a loopback")


def _tls_receiver(tmp_path, name):
    """A Receiver behind TLS with a self-signed certificate for ``name``;
    returns ``(receiver, certificate path)``."""
    if shutil.which("openssl") is None:
        pytest.skip("openssl is needed to make a certificate")
    key, cert = tmp_path / "key.pem", tmp_path / "cert.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert]
        + ["-days", "1", "-subj", f"/CN={name}", "-addext", f"subjectAltName=DNS:{name}"],
        check=True,
        capture_output=True,
    )
    receiver = Receiver()
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    receiver.server.socket = context.wrap_socket(receiver.server.socket, server_side=True)
    return receiver, cert


def test_https_is_pinned_to_the_checked_address_and_checks_the_name(tmp_path, monkeypatch):
    """urllib3 connects to the checked IP, with the name as Host, SNI and
    the certificate's name: trusted and matching, delivered; another name or
    an untrusted certificate, refused by TLS."""
    receiver, cert = _tls_receiver(tmp_path, "hooks.test")
    with receiver:
        port = receiver.server.server_address[1]
        target = webhook_targets.Target("https", "hooks.test", port, "/hook", ("127.0.0.1",))
        with pytest.raises(urllib3.exceptions.SSLError, match="CERTIFICATE_VERIFY_FAILED"):
            delivery.post(target, b"{}", {}, 2.0)
        monkeypatch.setenv("SSL_CERT_FILE", str(cert))
        assert delivery.post(target, b"{}", {"Content-Type": "application/json"}, 2.0) == 200
        other = webhook_targets.Target("https", "other.test", port, "/hook", ("127.0.0.1",))
        with pytest.raises(urllib3.exceptions.SSLError):
            delivery.post(other, b"{}", {}, 2.0)
    (headers, _), *_ = receiver.requests
    assert headers["Host"] == f"hooks.test:{port}"
