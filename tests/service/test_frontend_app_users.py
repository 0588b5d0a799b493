"""Issue 42's frontend scenario, end to end: an app key makes accounts for
two of the app's own users (``PUT /v1/apps/accounts/{external_id}``), both
sit in one match (one creates it, the other joins, each with the token the
app minted for it), and a real webhook receiver on loopback gets each one's
``your_turn``, signed with that account's own secret, delivered by a real
``python -m service.worker.webhook_worker``.
"""

import json
import time

import pytest

from service.model.accounts import SCOPES

from .conftest import fresh_app
from .helpers import bearer
from .test_account_seats import new_match
from .test_webhooks import FAST, LOOPBACK_OK, hook_worker, set_hook, verify
from .webhook_receiver import Receiver

APP_KEY = "front-key"
MOVES_CAP = 40  # a turn passes from seat to seat well within this many moves
DELIVERY_WAIT_S = 15


@pytest.fixture
def front_app(redis_server):
    with fresh_app(redis_server.url, TABULA_APP_KEYS=f"front={APP_KEY}", **LOOPBACK_OK, **FAST) as app:
        yield app


def app_user(client, external_id, name):
    """The app's call for one of its users: the account (made once) and a token."""
    body = {"name": name, "kind": "human", "scopes": list(SCOPES), "label": "front"}
    made = client.put(f"/v1/apps/accounts/{external_id}", json=body, headers=bearer(APP_KEY))
    assert made.status_code == 201, made.json
    assert made.json["account"]["app"] == "front" and made.json["account"]["external_id"] == external_id
    return made.json["token"]


def play_until_both_had_a_turn(client, match_id, tokens):
    """Each seat's first listed action, whoever is to act, until both seats acted."""
    acted = set()
    for _ in range(MOVES_CAP):
        for seat, token in tokens.items():
            listed = client.get(f"/v1/matches/{match_id}/actions", headers=bearer(token)).json
            if listed["actions"]:
                body = {"action": listed["actions"][0], "version": listed["version"]}
                moved = client.post(f"/v1/matches/{match_id}/actions", json=body, headers=bearer(token))
                assert moved.status_code == 200, moved.json
                acted.add(seat)
        if acted == set(tokens):
            return
    raise AssertionError(f"only seats {sorted(acted)} acted in {MOVES_CAP} rounds")


def turns_delivered(receiver, secret, match_id):
    """The versions of ``your_turn`` deliveries for ``match_id`` signed with ``secret``."""
    versions = set()
    for headers, body in list(receiver.requests):
        if headers.get("Tabula-Event") == "your_turn" and verify(secret, headers["Tabula-Signature"], body):
            sent = json.loads(body)
            if sent["match_id"] == match_id:
                versions.add(sent["data"]["version"])
    return versions


def test_an_app_seats_two_of_its_users_and_each_gets_its_your_turn_webhook(front_app, redis_server):
    client = front_app.test_client()
    ada, bo = app_user(client, "user-1", "Ada"), app_user(client, "user-2", "Bo")
    with Receiver() as receiver, hook_worker({"REDIS_URL": redis_server.url}):
        secrets = {
            name: set_hook(client, token, receiver.url, events=["your_turn"]).json["secret"]
            for name, token in (("Ada", ada), ("Bo", bo))
        }
        assert secrets["Ada"] != secrets["Bo"]
        match_id = new_match(client, ada)["match"]["id"]
        joined = client.post(f"/v1/matches/{match_id}/join", json={"name": "Bo"}, headers=bearer(bo))
        assert joined.status_code == 201, joined.json
        seats = client.get(f"/v1/matches/{match_id}").json["seats"]
        assert [s.get("account", {}).get("name") for s in seats] == ["Ada", "Bo"]
        play_until_both_had_a_turn(client, match_id, {0: ada, 1: bo})
        deadline = time.monotonic() + DELIVERY_WAIT_S
        while not all(turns_delivered(receiver, secret, match_id) for secret in secrets.values()):
            assert time.monotonic() < deadline, f"deliveries: {[h for h, _ in receiver.requests]}"
            time.sleep(0.1)
    # Each account's deliveries carry its own seat only, and only your_turn.
    for name, seat in (("Ada", 0), ("Bo", 1)):
        for headers, body in receiver.requests:
            if verify(secrets[name], headers["Tabula-Signature"], body):
                sent = json.loads(body)
                assert sent["type"] == "your_turn" and sent["data"]["seat"] == seat
