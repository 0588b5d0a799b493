"""Redis stopped mid-match: 503 and nothing changes; restarted, play goes on."""

import random

import pytest

from launcher.redis_process import RedisProcess

from .conftest import make_app
from .helpers import bearer, create

# Left out by `make test-fast` (-m "not slow"): starts a whole stack.
pytestmark = pytest.mark.slow


def _play_one(client, match_id, tokens, rng):
    match = client.get(f"/v1/matches/{match_id}").get_json()
    token = tokens[str(match["to_act"][0])]
    listed = client.get(f"/v1/matches/{match_id}/actions", headers=bearer(token)).get_json()
    response = client.post(
        f"/v1/matches/{match_id}/actions",
        headers=bearer(token),
        json={"action": rng.choice(listed["actions"]), "version": listed["version"]},
    )
    assert response.status_code == 200, response.get_json()
    return response.get_json()["version"]


def test_storage_outage_then_recovery(tmp_path):
    server = RedisProcess(persist_dir=tmp_path).start()
    try:
        app = make_app(server.url, REDIS_SOCKET_TIMEOUT_S=1.0)
        client = app.test_client()
        created = create(client)
        match_id, tokens = created["match"]["id"], created["tokens"]
        rng = random.Random(3)
        for _ in range(5):
            version = _play_one(client, match_id, tokens, rng)
        token = tokens["0"]

        server.stop()
        for response in (
            client.get(f"/v1/matches/{match_id}"),
            client.get(f"/v1/matches/{match_id}/actions", headers=bearer(token)),
            client.post(
                f"/v1/matches/{match_id}/actions",
                headers=bearer(token),
                json={"action": {"type": "end_turn"}},
            ),
            client.get(f"/v1/matches/{match_id}/events"),
            client.post("/v1/matches", json={"game": "anno1503", "seats": [{"kind": "human"}] * 2}),
            client.get("/v1/matches"),
        ):
            assert response.status_code == 503
            assert response.get_json()["error"] == "unavailable"
        assert client.get("/healthz").status_code == 200
        assert client.get("/readyz").status_code == 503

        server = RedisProcess(port=server.port, persist_dir=tmp_path).start()
        match = client.get(f"/v1/matches/{match_id}").get_json()
        assert match["version"] == version
        for _ in range(5):
            version = _play_one(client, match_id, tokens, rng)
        assert version == match["version"] + 5
        events = client.get(f"/v1/matches/{match_id}/events").get_json()["events"]
        assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    finally:
        server.stop()
