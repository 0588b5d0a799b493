"""Small HTTP helpers for the service tests."""

import os
import random
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path


def bearer(token):
    return {"Authorization": f"Bearer {token}"}


def create(client, seats=None, seed=7, game="anno1503", **extra):
    """POST a match; returns the response JSON (asserting 201)."""
    seats = seats or [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}]
    body = {"game": game, "seats": seats, **extra}
    if seed is not None:
        # A test that names a seed wants the match it fixes.
        body.update(seed=seed, dice="reproducible")
    response = client.post("/v1/matches", json=body)
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def humans(n):
    return [{"kind": "human", "name": f"P{i}"} for i in range(n)]


def seat_to_act(client, match_id):
    match = client.get(f"/v1/matches/{match_id}").get_json()
    return match["to_act"][0] if match["to_act"] else None, match


def play_random(client, match_id, token, rng):
    """GET /actions and POST one at random; returns the POST response."""
    listed = client.get(f"/v1/matches/{match_id}/actions", headers=bearer(token)).get_json()
    assert listed["actions"], "play_random called for a seat with nothing to decide"
    action = rng.choice(listed["actions"])
    return client.post(
        f"/v1/matches/{match_id}/actions",
        headers=bearer(token),
        json={"action": action, "version": listed["version"]},
    )


def new_rng(seed=1):
    return random.Random(seed)


@contextmanager
def worker_process(**env):
    """``python -m service.worker`` (what `make run` starts) with ``env`` on
    top of this process's environment, sweeping every second; killed after."""
    root = Path(__file__).resolve().parents[2]
    full_env = {**os.environ, "SWEEP_S": "1", "PYTHONPATH": str(root), "LOGLEVEL": "WARNING", **env}
    proc = subprocess.Popen(
        [sys.executable, "-m", "service.worker"],
        cwd=root,
        env=full_env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    try:
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def redis_contents(server, pattern="*"):
    """Every key matching ``pattern``: its type and contents, read by type.

    Not DUMP: DUMP's bytes follow a hash's or set's internal order, which
    Redis's incremental rehashing changes on reads alone, so two DUMPs of an
    unchanged hash can differ (a full suite's run saw it once)."""
    readers = {
        "string": server.get,
        "hash": server.hgetall,
        "list": lambda key: server.lrange(key, 0, -1),
        "set": lambda key: sorted(server.smembers(key)),
        "zset": lambda key: server.zrange(key, 0, -1, withscores=True),
        "stream": server.xrange,
    }
    contents = {}
    for key in sorted(server.scan_iter(match=pattern)):
        kind = server.type(key)
        kind = kind.decode() if isinstance(kind, bytes) else kind
        contents[key] = (kind, readers[kind](key))
    return contents
