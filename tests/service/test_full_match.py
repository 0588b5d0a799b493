"""A complete Anno 1503 match over HTTP: one random human, three AI seats
played by a real ``python -m service.worker`` process."""

import hashlib
import random
import signal
import time

import pytest

import engine
from engine.runner import replay

from .helpers import bearer, worker_process
from .simulate import short_match_seed

# Left out by `make test-fast` (-m "not slow"): starts a whole stack.
pytestmark = pytest.mark.slow

LEVELS = [None, "random", "random", "random"]  # seat 0 is the human
# Seeds whose random match is short (2,000-2,800 actions with the rules of
# today); the search falls through to the next if the rules change.
CANDIDATE_SEEDS = [29, 9, 27, 18, 12, *range(40, 80)]


@pytest.fixture
def worker(redis_server, app):
    with worker_process(REDIS_URL=redis_server.url) as proc:
        yield proc


def _wait_for_ready(client, deadline):
    while client.get("/readyz").status_code != 200:
        assert time.monotonic() < deadline, "the worker never beat"
        time.sleep(0.1)


def _play(client, match_id, token, rng, deadline):
    """The random human plays whenever it is to act; returns the final Match."""
    human_moves = 0
    while True:
        assert time.monotonic() < deadline, "match did not finish in time"
        match = client.get(f"/v1/matches/{match_id}", headers=bearer(token)).get_json()
        if match["status"] == "finished":
            return match, human_moves
        if match["to_act"] != [0]:
            time.sleep(0.005)
            continue
        listed = client.get(f"/v1/matches/{match_id}/actions", headers=bearer(token)).get_json()
        action = rng.choice(listed["actions"])
        response = client.post(
            f"/v1/matches/{match_id}/actions",
            headers=bearer(token),
            json={"action": action, "version": listed["version"]},
        )
        assert response.status_code == 200, response.get_json()
        human_moves += 1


def test_random_human_against_three_ai_workers(client, worker):
    seed, expected, count = short_match_seed("anno1503", LEVELS, CANDIDATE_SEEDS, 3000)
    deadline = time.monotonic() + 90
    _wait_for_ready(client, deadline)
    created = client.post(
        "/v1/matches",
        json={
            "game": "anno1503",
            "seed": seed,
            "dice": "reproducible",
            "seats": [{"kind": "human", "name": "Rand"}]
            + [{"kind": "ai", "level": lvl} for lvl in LEVELS[1:]],
        },
    ).get_json()
    match_id, token = created["match"]["id"], created["tokens"]["0"]

    final, human_moves = _play(client, match_id, token, random.Random(seed), deadline)

    assert human_moves > 0
    assert final["version"] == count
    assert final["result"]["winners"] == expected["winners"]
    assert final["result"]["scores"] == expected["scores"]
    post = client.post(
        f"/v1/matches/{match_id}/actions", headers=bearer(token), json={"action": {"type": "end_turn"}}
    )
    assert post.status_code == 409 and post.get_json()["error"] == "game_over"
    resign = client.post(f"/v1/matches/{match_id}/resign", headers=bearer(token))
    assert resign.status_code == 409 and resign.get_json()["error"] == "game_over"

    rep = client.get(f"/v1/matches/{match_id}/replay").get_json()
    assert len(rep["actions"]) == count and rep["seed"] == seed
    assert hashlib.sha256(str(rep["seed"]).encode()).hexdigest() == final["seed_commitment"]
    game = engine.get_game("anno1503")
    recorded = [(a["seat"], a["action"]) for a in rep["actions"]]
    state, _ = replay(game, 4, rep["options"], rep["seed"], recorded)
    assert game.outcome(state) == expected

    log = client.get(f"/v1/matches/{match_id}/events?limit=1000").get_json()
    assert [e["seq"] for e in log["events"]] == list(range(1, len(log["events"]) + 1))
    assert log["events"][-1]["version"] <= count

    worker.send_signal(signal.SIGTERM)
    assert worker.wait(timeout=20) == 0
