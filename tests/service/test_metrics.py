"""GET /metrics: Prometheus text, counted by route (never the raw path) for
both lanes, refusals by code, AI decisions, queue depth, matches by status,
and multiprocess mode aggregating several processes."""

import os
import subprocess
import sys
import time

import pytest
from flask import Response
from prometheus_client.parser import text_string_to_metric_families

import service.http.move_lane as move_lane
from launcher.redis_process import RedisProcess
from service.runtime import metric_batches, metrics
from service.storage import keys as storage
from service.worker import ai_jobs
from service.worker.runner import build_worker

from .conftest import METRICS_BASE_URL, make_app, run_ai_jobs, unreachable_redis_url
from .helpers import bearer, create
from .live import ROOT, LiveServer

# Left out by `make test-fast` (-m "not slow"): seconds each: multi-process metrics.
pytestmark = pytest.mark.slow

ACTIONS = move_lane.ROUTE_RULE


def scrape(client):
    response = client.get("/metrics", base_url=METRICS_BASE_URL)
    assert response.status_code == 200
    assert response.mimetype == "text/plain"
    return response.get_data(as_text=True)


def value(text, name, **labels):
    """The sample ``name`` with exactly ``labels`` (0 when absent)."""
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name == name and sample.labels == {k: str(v) for k, v in labels.items()}:
                return sample.value
    return 0.0


class Delta:
    """``delta(name, **labels)``: how much a sample grew since this was made."""

    def __init__(self, client):
        self.client = client
        self.before = scrape(client)

    def __call__(self, name, **labels):
        return value(scrape(self.client), name, **labels) - value(self.before, name, **labels)


def _first_move(client, match_id, token):
    listed = client.get(f"/v1/matches/{match_id}/actions", headers=bearer(token)).get_json()
    return {"action": listed["actions"][0], "version": listed["version"]}


def _started(client):
    created = create(client)
    match = created["match"]
    seat = match["to_act"][0]
    return match["id"], created["tokens"][str(seat)]


def test_every_metric_is_exposed(client):
    text = scrape(client)
    names = {family.name for family in text_string_to_metric_families(text)}
    assert {
        "tabula_http_requests",
        "tabula_http_request_duration_seconds",
        "tabula_refusals",
        "tabula_moves_accepted",
        "tabula_ai_decision_seconds",
        "tabula_ai_job_pickup_seconds",
        "tabula_open_streams",
        "tabula_turn_timeouts",
        "tabula_archive",
        "tabula_ai_queue_depth",
        "tabula_matches",
        "tabula_metrics_storage_up",
    } <= names
    assert value(text, "tabula_metrics_storage_up") == 1


def test_metrics_is_exempt_from_the_rate_limit(redis_server):
    app = make_app(redis_server.url, RATE_LIMIT=2)
    try:
        client = app.test_client()
        assert all(client.get("/metrics", base_url=METRICS_BASE_URL).status_code == 200 for _ in range(5))
    finally:
        app.extensions["tabula"].close()


def test_requests_are_counted_by_route_never_by_path(client):
    delta = Delta(client)
    client.get("/v1/games/anno1503")
    client.get("/v1/games/anno1452")
    client.get("/no/such/path/123")
    rule = "/v1/games/<game_id>"
    assert delta("tabula_http_requests_total", route=rule, method="GET", status=200) == 2
    assert delta("tabula_http_request_duration_seconds_count", route=rule, method="GET") == 2
    assert delta("tabula_http_requests_total", route=metrics.UNMATCHED_ROUTE, method="GET", status=404) == 1
    assert "/no/such/path" not in scrape(client)
    assert "/v1/games/anno1503" not in scrape(client)


def test_an_accepted_move_through_the_lane_is_counted(client, monkeypatch):
    taken = []
    real = move_lane.plain_move
    monkeypatch.setattr(
        move_lane, "plain_move", lambda environ, limit: taken.append(real(environ, limit)) or taken[-1]
    )
    match_id, token = _started(client)
    delta = Delta(client)
    response = client.post(
        f"/v1/matches/{match_id}/actions", headers=bearer(token), json=_first_move(client, match_id, token)
    )
    assert response.status_code == 200 and taken[-1] is not None  # the lane answered
    assert delta("tabula_moves_accepted_total", game="anno1503") == 1
    assert delta("tabula_http_requests_total", route=ACTIONS, method="POST", status=200) == 1
    assert delta("tabula_http_request_duration_seconds_count", route=ACTIONS, method="POST") == 1


def test_a_move_through_flask_is_counted_under_the_same_route(client, monkeypatch):
    monkeypatch.setattr(move_lane, "plain_move", lambda environ, limit: None)  # Flask only
    match_id, token = _started(client)
    delta = Delta(client)
    body = _first_move(client, match_id, token)
    headers = {**bearer(token), "Idempotency-Key": "k1"}
    assert client.post(f"/v1/matches/{match_id}/actions", headers=headers, json=body).status_code == 200
    # The same request again is a replay: answered, not a second accepted move.
    assert client.post(f"/v1/matches/{match_id}/actions", headers=headers, json=body).status_code == 200
    assert delta("tabula_moves_accepted_total", game="anno1503") == 1
    assert delta("tabula_http_requests_total", route=ACTIONS, method="POST", status=200) == 2


@pytest.mark.parametrize("flask_only", [False, True])
def test_refusals_are_counted_by_code(client, monkeypatch, flask_only):
    if flask_only:
        monkeypatch.setattr(move_lane, "plain_move", lambda environ, limit: None)
    match_id, token = _started(client)
    delta = Delta(client)
    body = _first_move(client, match_id, token)
    stale = {**body, "version": body["version"] + 5}
    assert (
        client.post(f"/v1/matches/{match_id}/actions", headers=bearer(token), json=stale).status_code == 409
    )
    assert client.get("/v1/matches/nope").status_code == 404
    assert (
        client.post(
            f"/v1/matches/{match_id}/actions", headers=bearer(token), json={"action": "x"}
        ).status_code
        == 422
    )
    assert client.post(f"/v1/matches/{match_id}/actions", json=body).status_code == 401
    assert delta("tabula_refusals_total", code="version_conflict", status=409) == 1
    assert delta("tabula_refusals_total", code="not_found", status=404) == 1
    assert delta("tabula_refusals_total", code="validation_error", status=422) == 1
    assert delta("tabula_refusals_total", code="unauthorized", status=401) == 1
    assert delta("tabula_http_requests_total", route=ACTIONS, method="POST", status=409) == 1


def test_an_ai_decision_is_timed_by_game_and_level(client, services):
    delta = Delta(client)
    for seed in range(1, 50):
        created = create(
            client, seed=seed, seats=[{"kind": "ai", "level": "random"}, {"kind": "human", "name": "H"}]
        )
        if created["match"]["to_act"] == [0]:
            break
    assert services.queue.count >= 1
    run_ai_jobs(services)
    assert delta("tabula_ai_decision_seconds_count", game="anno1503", level="random") >= 1
    assert delta("tabula_moves_accepted_total", game="anno1503") >= 1


def test_job_pickup_latency_is_observed_by_the_worker(client, services):
    delta = Delta(client)
    services.queue.enqueue("service.worker.ai_jobs.play_ai_turn", "no-such-match", 0, result_ttl=0)
    ai_jobs.bind(services)
    build_worker(services).work(burst=True, logging_level="WARNING")
    assert delta("tabula_ai_job_pickup_seconds_count") == 1


def test_queue_depth_and_matches_by_status_are_read_at_scrape_time(client, services):
    create(client)
    create(client, seats=[{"kind": "human", "name": "A"}, {"kind": "open"}], seed=3)
    services.queue.enqueue("service.worker.ai_jobs.play_ai_turn", "m1", 0)
    services.queue.enqueue("service.worker.ai_jobs.play_ai_turn", "m2", 0)
    text = scrape(client)
    assert value(text, "tabula_ai_queue_depth", queue="ai") == services.queue.count == 2
    for status in storage.STATUSES:
        expected = services.redis.zcard(storage.lobby_key(status, "anno1503"))
        assert value(text, "tabula_matches", status=status, game="anno1503") == expected
    assert value(text, "tabula_matches", status="active", game="anno1503") == 1
    assert value(text, "tabula_matches", status="waiting", game="anno1503") == 1


def test_scrape_time_gauges_say_when_storage_is_down():
    app = make_app(unreachable_redis_url(), REDIS_SOCKET_TIMEOUT_S=0.5)
    try:
        text = scrape(app.test_client())
    finally:
        app.extensions["tabula"].close()
    assert value(text, "tabula_metrics_storage_up") == 0
    assert "tabula_matches{" not in text


def test_a_streamed_response_is_an_open_stream_until_closed(app):
    @app.get("/v1/test-stream/<match_id>")
    def stream(match_id):
        return Response((chunk for chunk in (b"a", b"b")), mimetype="text/event-stream")

    client = app.test_client()
    rule = "/v1/test-stream/<match_id>"
    response = client.get("/v1/test-stream/m1", buffered=False)
    assert value(scrape(client), "tabula_open_streams", route=rule) == 1
    response.close()
    assert value(scrape(client), "tabula_open_streams", route=rule) == 0


def test_turn_timeouts_have_a_counter(client):
    delta = Delta(client)
    metrics.turn_timed_out("anno1452")
    assert delta("tabula_turn_timeouts_total", game="anno1452") == 1


def test_metrics_off_records_nothing(redis_server):
    app = make_app(redis_server.url, METRICS=0)
    try:
        client = app.test_client()
        delta = Delta(client)
        client.get("/v1/games")
        metrics.move_accepted("anno1503")
        assert delta("tabula_http_requests_total", route="/v1/games", method="GET", status=200) == 0
        assert delta("tabula_moves_accepted_total", game="anno1503") == 0
        assert value(scrape(client), "tabula_metrics_storage_up") == 1
    finally:
        metrics.configure(True)
        app.extensions["tabula"].close()


_WRITER = """
import sys
from service.runtime import metrics
for _ in range(int(sys.argv[1])):
    metrics.move_accepted("anno1503")
"""


def test_multiprocess_mode_adds_up_every_process(tmp_path):
    """Two processes write into one PROMETHEUS_MULTIPROC_DIR; a third, serving
    the scrape, reports their sum."""
    env = {**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(tmp_path), "PYTHONPATH": str(ROOT)}
    for count in (2, 3):
        subprocess.run([sys.executable, "-c", _WRITER, str(count)], env=env, check=True, cwd=ROOT)
    assert len({name.rsplit("_", 1)[1] for name in os.listdir(tmp_path)}) == 2
    reader = (
        "from service.runtime import metrics\n"
        "from prometheus_client import CollectorRegistry, generate_latest, multiprocess\n"
        "assert metrics.MULTIPROCESS\n"
        "r = CollectorRegistry(); multiprocess.MultiProcessCollector(r)\n"
        "print(generate_latest(r).decode())"
    )
    out = subprocess.run(
        [sys.executable, "-c", reader], env=env, check=True, cwd=ROOT, capture_output=True, text=True
    ).stdout
    assert value(out, "tabula_moves_accepted_total", game="anno1503") == 5


def test_gunicorn_workers_are_scraped_together(tmp_path):
    """A real gunicorn with two workers: every request is counted whichever
    worker answered it and whichever answers the scrape."""
    prom = tmp_path / "prometheus"
    prom.mkdir()
    with (
        RedisProcess() as redis_server,
        LiveServer(redis_server.url, workers=2, env={"PROMETHEUS_MULTIPROC_DIR": str(prom)}) as server,
    ):
        for _ in range(12):  # a fresh connection each: both workers take some
            assert server.request("GET", "/v1/games")[0] == 200
        pids = {name.rsplit("_", 1)[1] for name in os.listdir(prom) if name.startswith("counter_")}
        # Each worker writes its counts once a flush interval
        # (service/runtime/metric_batches.py): wait that long, then every
        # scrape, whichever worker answers it, has them all.
        time.sleep(2 * metric_batches.FLUSH_S)
        texts = [server.scrape() for _ in range(4)]
    for text in texts:
        assert value(text, "tabula_http_requests_total", route="/v1/games", method="GET", status=200) == 12
    assert len(pids) >= 1


def test_a_worker_in_its_own_container_serves_its_own_metrics():
    import urllib.request

    from launcher.redis_process import free_port
    from service.runtime import metrics

    port = free_port()
    server = metrics.serve_worker_metrics(str(port))
    try:
        metrics.turn_timed_out("anno1503")
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as response:
            text = response.read().decode()
        assert "tabula_turn_timeouts_total" in text
    finally:
        if server is not None:
            server[0].shutdown()
    assert metrics.serve_worker_metrics("") is None


# --- /metrics on the internal port only (service/http/internal_port.py) ------


def test_the_public_port_answers_metrics_as_an_unknown_path(client):
    refused = client.get("/metrics")
    unknown = client.get("/no/such/path")
    assert refused.status_code == 404 and refused.get_json()["error"] == "not_found"
    assert refused.get_json()["message"] == unknown.get_json()["message"]
    assert "tabula_" not in refused.get_data(as_text=True)


def test_the_internal_port_answers_nothing_but_metrics(client):
    match_id, token = _started(client)
    body = _first_move(client, match_id, token)
    inside = {"base_url": METRICS_BASE_URL}
    assert client.get("/v1/games", **inside).status_code == 404
    assert client.get("/healthz", **inside).status_code == 404
    # Not even the move's own lane, which answers below Flask.
    moved = client.post(f"/v1/matches/{match_id}/actions", headers=bearer(token), json=body, **inside)
    assert moved.status_code == 404
    assert client.get(f"/v1/matches/{match_id}").get_json()["version"] == body["version"]


def test_no_port_serves_metrics_when_none_is_set(redis_server):
    app = make_app(redis_server.url, METRICS_PORT=0)
    try:
        client = app.test_client()
        assert client.get("/metrics").status_code == 404
        assert client.get("/metrics", base_url=METRICS_BASE_URL).status_code == 404
    finally:
        app.extensions["tabula"].close()


def test_gunicorn_serves_metrics_on_its_internal_address_only(redis_server):
    """A real gunicorn bound to both addresses: the Host header cannot move
    a request of the public port onto the internal one."""
    with LiveServer(redis_server.url) as server:
        assert server.request("GET", "/v1/games")[0] == 200
        assert 'route="/v1/games"' in server.scrape()
        spoofed = {"Host": f"127.0.0.1:{server.metrics_port}"}
        assert server.request("GET", "/metrics", headers=spoofed)[0] == 404
        assert server.request("GET", "/v1/games", port=server.metrics_port)[0] == 404
