"""X-Request-ID (honoured when sane, echoed on every response of both
lanes), one JSON request log line per request, and JSON worker logs."""

import io
import json
import logging
import os
import re
import subprocess
import sys
import time

import pytest
import redis
from rq import Queue
from rq.job import Job
from rq.serializers import JSONSerializer

import service.http.move_lane as move_lane
from service.runtime import logs

from .conftest import make_app
from .helpers import bearer, create
from .live import ROOT

NEW_ID = re.compile(r"[0-9a-f]{32}")


@pytest.fixture
def captured():
    """The process's logs as JSON lines in a buffer (as gunicorn's post_fork sets up)."""
    root = logging.getLogger()
    level = root.level
    buffer = io.StringIO()
    handler = logs.configure(fmt="json", stream=buffer, level="INFO")
    yield buffer
    root.removeHandler(handler)
    root.setLevel(level)
    logs._configured.clear()


def request_lines(buffer):
    lines = [json.loads(line) for line in buffer.getvalue().splitlines()]
    return [line for line in lines if line["logger"] == logs.REQUEST_LOGGER]


def _started(client):
    created = create(client)
    seat = created["match"]["to_act"][0]
    match_id, token = created["match"]["id"], created["tokens"][str(seat)]
    listed = client.get(f"/v1/matches/{match_id}/actions", headers=bearer(token)).get_json()
    return match_id, token, {"action": listed["actions"][0], "version": listed["version"]}


@pytest.mark.parametrize("flask_only", [False, True])
def test_a_sane_request_id_is_echoed_on_both_lanes(client, monkeypatch, flask_only):
    taken = []
    real = move_lane.plain_move
    monkeypatch.setattr(
        move_lane,
        "plain_move",
        lambda environ, limit: None if flask_only else taken.append(real(environ, limit)) or taken[-1],
    )
    match_id, token, body = _started(client)
    headers = {**bearer(token), "X-Request-ID": "trace-42.a:b/c"}
    response = client.post(f"/v1/matches/{match_id}/actions", headers=headers, json=body)
    assert response.status_code == 200
    assert response.headers["X-Request-ID"] == "trace-42.a:b/c"
    assert bool(taken and taken[-1]) == (not flask_only)
    # ...and on a refusal.
    response = client.post(f"/v1/matches/{match_id}/actions", headers=headers, json=body)
    assert response.status_code == 409
    assert response.headers["X-Request-ID"] == "trace-42.a:b/c"


@pytest.mark.parametrize("given", [None, "", "x" * 129, "bad id", "é", "a\tb", "<script>"])
def test_a_missing_or_odd_request_id_is_replaced(client, given):
    headers = {} if given is None else {"X-Request-ID": given}
    first = client.get("/healthz", headers=headers).headers["X-Request-ID"]
    second = client.get("/healthz", headers=headers).headers["X-Request-ID"]
    assert NEW_ID.fullmatch(first) and NEW_ID.fullmatch(second) and first != second


def test_every_response_has_a_request_id(client):
    for path in ("/healthz", "/metrics", "/openapi.json", "/v1/games", "/no/such/path"):
        assert NEW_ID.fullmatch(client.get(path).headers["X-Request-ID"]), path
    assert client.delete("/v1/games").headers["X-Request-ID"]  # 405


@pytest.mark.parametrize("flask_only", [False, True])
def test_one_json_line_per_request(client, monkeypatch, captured, flask_only):
    if flask_only:
        monkeypatch.setattr(move_lane, "plain_move", lambda environ, limit: None)
    match_id, token, body = _started(client)
    captured.seek(0)
    captured.truncate()
    client.post(
        f"/v1/matches/{match_id}/actions",
        json=body,
        headers={**bearer(token), "X-Request-ID": "move-1"},
        environ_base={"REMOTE_ADDR": "10.1.2.3"},
    )
    client.get(f"/v1/matches/{match_id}/events")
    client.get("/v1/games")
    client.get("/nothing/here")
    lines = request_lines(captured)
    assert len(lines) == 4
    move, events, games, missing = lines
    assert move == {
        **move,
        "event": "request",
        "request_id": "move-1",
        "method": "POST",
        "route": "/v1/matches/<match_id>/actions",
        "match_id": match_id,
        "status": 200,
        "client": "10.1.2.3",
        "level": "info",
        "path": f"/v1/matches/{match_id}/actions",
    }
    assert isinstance(move["duration_ms"], float) and move["duration_ms"] > 0
    assert move["timestamp"].endswith("Z")
    assert events["route"] == "/v1/matches/<match_id>/events" and events["match_id"] == match_id
    assert games["route"] == "/v1/games" and games["match_id"] is None
    assert missing["route"] == "<unmatched>" and missing["status"] == 404
    assert NEW_ID.fullmatch(games["request_id"])


def test_app_log_lines_carry_the_request_id(client, monkeypatch, captured):
    def explode(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(move_lane, "play_move", explode)
    match_id, token, body = _started(client)
    response = client.post(
        f"/v1/matches/{match_id}/actions", json=body, headers={**bearer(token), "X-Request-ID": "boom-1"}
    )
    assert response.status_code == 500
    lines = [json.loads(line) for line in captured.getvalue().splitlines()]
    error = [line for line in lines if line["event"] == "unexpected error"]
    assert error and error[0]["request_id"] == "boom-1" and error[0]["level"] == "error"
    assert "RuntimeError: boom" in error[0]["exception"]


def test_request_log_off(redis_server, captured):
    app = make_app(redis_server.url, REQUEST_LOG=0)
    try:
        response = app.test_client().get("/healthz", headers={"X-Request-ID": "quiet"})
    finally:
        app.extensions["tabula"].close()
    assert response.headers["X-Request-ID"] == "quiet"
    assert request_lines(captured) == []


def test_console_format_is_for_people(captured):
    buffer = io.StringIO()
    handler = logs.configure(fmt="console", stream=buffer)
    try:
        logging.getLogger("service.test").info("hello %s", "there")
        logs.request_line({"request_id": "r1", "status": 200})
    finally:
        logging.getLogger().removeHandler(handler)
    text = buffer.getvalue()
    assert "hello there" in text and "request_id=r1" in text
    assert not text.lstrip().startswith("{")


def test_worker_log_lines_are_json_with_the_job(redis_server, tmp_path):
    client = redis.Redis.from_url(redis_server.url)
    client.flushdb()
    log_path = tmp_path / "worker.log"
    env = {
        **os.environ,
        "REDIS_URL": redis_server.url,
        "RQ_REDIS_URL": redis_server.url,
        "LOG_FORMAT": "json",
        "LOGLEVEL": "INFO",
        "SWEEP_S": "60",
        "PYTHONUNBUFFERED": "1",
        "PYTHONPATH": str(ROOT),
    }
    env.pop("PROMETHEUS_MULTIPROC_DIR", None)
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "service.worker"], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT
        )
    try:
        queue = Queue("ai", connection=client, serializer=JSONSerializer)
        job = queue.enqueue("service.worker.ai_jobs.play_ai_turn", "no-such-match", 0, result_ttl=60)
        deadline = time.monotonic() + 20
        while Job.fetch(job.id, connection=client, serializer=JSONSerializer).get_status() != "finished":
            assert time.monotonic() < deadline and proc.poll() is None, log_path.read_text()
            time.sleep(0.1)
        time.sleep(0.3)
    finally:
        proc.terminate()
        proc.wait(15)
    text = log_path.read_text()
    lines = [json.loads(line) for line in text.splitlines() if line.strip()]  # every line is JSON
    assert lines and all({"event", "level", "logger", "timestamp"} <= line.keys() for line in lines)
    in_job = [line for line in lines if line.get("job_id") == job.id]
    assert in_job, text
    assert all(line["match_id"] == "no-such-match" for line in in_job)


_MANY_WRITERS = """
import logging, sys, threading
from service.runtime import logs
logs.configure(fmt="json", level="INFO")  # stderr: a file here
assert logs._configured["direct_fd"] == sys.stderr.fileno()
def write(n):
    for i in range(300):
        logs.request_line({"request_id": f"{n}-{i}", "path": "/x" * (i % 50), "status": 200})
        if i % 50 == 0:
            logging.getLogger("service.test").info("between %s", i)
threads = [threading.Thread(target=write, args=(n,)) for n in range(4)]
for t in threads: t.start()
for t in threads: t.join()
"""


def test_request_lines_written_to_a_file_stay_whole_among_threads(tmp_path):
    """Where stderr is a file, a request line is one os.write (logs._write_line):
    four threads' lines and the app's own lines, none cut into another."""
    path = tmp_path / "stderr.log"
    with open(path, "wb") as stderr:
        subprocess.run(
            [sys.executable, "-c", _MANY_WRITERS],
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            stderr=stderr,
            check=True,
            timeout=60,
        )
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    requests = [line for line in lines if line["logger"] == logs.REQUEST_LOGGER]
    assert sorted(line["request_id"] for line in requests) == sorted(
        f"{n}-{i}" for n in range(4) for i in range(300)
    )
    assert all(
        re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z", line["timestamp"]) for line in requests
    )
    assert sum(line["event"].startswith("between") for line in lines) == 4 * 6
