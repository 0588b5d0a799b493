"""What ``make deploy-check`` (launcher/deploy_check.py) checks on the running
containers: readiness, a whole match through the client library, the edge's
headers, and where the metrics answer."""

from __future__ import annotations

import random
import socket
import subprocess
import time
from collections.abc import Iterator

import httpx

from tabula_client import Client

PUBLIC_PORT = 8000  # the compose file publishes the API on 127.0.0.1:8000
METRICS_PORT = 9400  # the API image's internal metrics port (not published)
BASE = f"http://127.0.0.1:{PUBLIC_PORT}"
READY_TIMEOUT_S = 90
MATCH_TIMEOUT_S = 600


def check_port_free(port: int) -> None:
    with socket.socket() as sock:
        if sock.connect_ex(("127.0.0.1", port)) == 0:
            raise SystemExit(
                f"[deploy-check] 127.0.0.1:{port} is taken (a `make run`?): the compose file publishes the API there"
            )


def check(project: str) -> Iterator[str]:
    """Each check in turn; a line saying what passed (raises on a failure)."""
    alive = wait_ready()
    yield f"/readyz ready, {alive} AI workers alive"
    moves, winners = play_a_match()
    yield f"an Anno 1452 match against the AI played to its end through the client: {moves} moves, winners {winners}"
    yield check_headers()
    yield check_metrics(f"{project}_api_1")


def wait_ready() -> int:
    deadline = time.monotonic() + READY_TIMEOUT_S
    while True:
        try:
            body = httpx.get(f"{BASE}/readyz", timeout=5).json()
            if body["status"] == "ok" and body["workers_alive"] >= 2:
                return int(body["workers_alive"])
        except (httpx.HTTPError, ValueError):
            body = None
        if time.monotonic() > deadline:
            raise SystemExit(f"[deploy-check] not ready after {READY_TIMEOUT_S} s: {body}")
        time.sleep(1)


def play_a_match(seed: int = 1452) -> tuple[int, list[int]]:
    """A person (random legal moves) against the easy AI, to the end."""
    rng = random.Random(seed)
    with Client(BASE, timeout=30) as api:
        created = api.create_match(
            "anno1452", [{"kind": "human", "name": "Check"}, {"kind": "ai", "level": "easy"}], seed=seed
        )
        match_id = created["match"]["id"]
        me = api.with_token(created["tokens"]["0"])
        deadline, moves = time.monotonic() + MATCH_TIMEOUT_S, 0
        while (match := me.get_match(match_id)) is not None and match["status"] != "finished":
            if time.monotonic() > deadline:
                raise SystemExit(f"[deploy-check] match {match_id} unfinished after {MATCH_TIMEOUT_S} s")
            actions = me.list_actions(match_id)["actions"] if 0 in match["to_act"] else []
            if actions:
                me.post_action(match_id, rng.choice(actions))
                moves += 1
            else:
                time.sleep(0.1)  # the AI's turn, computed by a worker container
        assert match is not None and match["result"] is not None
        return moves, list(match["result"]["winners"])


def check_headers() -> str:
    page = httpx.get(f"{BASE}/play/", timeout=10)
    answer = httpx.get(f"{BASE}/v1/games", timeout=10)
    policy = page.headers.get("Content-Security-Policy", "")
    assert "script-src 'self'" in policy and "frame-ancestors 'none'" in policy, policy
    assert answer.headers.get("Content-Security-Policy", "").startswith("default-src 'none'"), answer.headers
    for response in (page, answer):
        assert response.headers.get("X-Content-Type-Options") == "nosniff", response.headers
        assert response.headers.get("Referrer-Policy") == "no-referrer", response.headers
    assert "RateLimit" in answer.headers, answer.headers
    return "security headers: the page's CSP, the API's policy, nosniff, no-referrer, RateLimit"


def container_address(name: str) -> str:
    return subprocess.run(
        ["docker", "inspect", "-f", "{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}", name],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()


def check_metrics(container: str) -> str:
    address = container_address(container)
    public = httpx.get(f"{BASE}/metrics", timeout=10)
    inside = httpx.get(f"http://{address}:{METRICS_PORT}/metrics", timeout=10)
    assert public.status_code == 404, public.status_code
    assert inside.status_code == 200 and "tabula_moves_accepted_total" in inside.text, inside.status_code
    published = subprocess.run(
        ["docker", "port", container], capture_output=True, text=True, check=True
    ).stdout
    assert str(METRICS_PORT) not in published, published
    return f"/metrics: 404 on the published port, 200 on {address}:{METRICS_PORT} (not published)"
