"""Challenges (service/meet/challenges.py): invite, accept, decline, cancel,
expiry, the rate limit, the `challenge` event, the scope matrix, and at most
one match per challenge when accepts and a cancel race in one process's
threads (tests/service/test_meet_races.py races them on gunicorn)."""

import json
import time

import pytest

from service.model.accounts import SCOPES
from service.storage import accounts as stored_accounts

from .conftest import fresh_app
from .helpers import bearer
from .test_accounts import account_token
from .test_game_schemas import validator


def challenge(client, token, *names, game="anno1452", rated=False, **extra):
    seats = [{"kind": "account", "name": name} for name in names]
    body = {"game": game, "seats": seats, "rated": rated, **extra}
    return client.post("/v1/challenges", json=body, headers=bearer(token))


def events(services, name):
    aid = stored_accounts.holder(services.redis, stored_accounts.name_claim_key(name.lower()))
    return stored_accounts.read_account_events(services.redis, aid, "0", 100)


def test_challenge_accepted_by_every_invitee_starts_one_match(client, services):
    ada, bob, cy = (account_token(client, n) for n in ("Ada", "Bob", "Cy"))
    made = challenge(client, ada, "Bob", "Cy", rated=True)
    assert made.status_code == 201, made.json
    body = made.json
    assert body["status"] == "pending" and body["match_id"] is None and body["rated"] is True
    assert [s["name"] for s in body["seats"]] == ["Ada", "Bob", "Cy"]
    (event,) = [e for e in events(services, "Bob") if e["type"] == "challenge"]
    assert event["data"]["id"] == body["id"] and event["data"]["challenger"]["name"] == "Ada"
    once = client.post(f"/v1/challenges/{body['id']}/accept", headers=bearer(bob))
    assert once.status_code == 200 and once.json["status"] == "pending"
    again = client.post(f"/v1/challenges/{body['id']}/accept", headers=bearer(bob))
    assert again.status_code == 200 and again.json["status"] == "pending"
    last = client.post(f"/v1/challenges/{body['id']}/accept", headers=bearer(cy))
    assert last.status_code == 200 and last.json["status"] == "started"
    match_id = last.json["match_id"]
    match = client.get(f"/v1/matches/{match_id}", headers=bearer(ada)).json
    assert match["status"] == "active" and match["rated"] is True and match["pool"] == "anno1452-basic"
    assert [s["account"]["name"] for s in match["seats"]] == ["Ada", "Bob", "Cy"]
    assert match["you"] == 0
    for name in ("Ada", "Bob", "Cy"):
        started = [e for e in events(services, name) if e["type"] == "match_started"]
        assert [e["data"]["match_id"] for e in started] == [match_id], name
    # a late cancel changes nothing
    late = client.delete(f"/v1/challenges/{body['id']}", headers=bearer(ada))
    assert late.status_code == 409 and late.json["details"]["state"] == "started"


def test_decline_and_cancel_end_a_challenge(client):
    ada, bob = account_token(client, "Ada"), account_token(client, "Bob")
    first = challenge(client, ada, "Bob").json
    declined = client.post(f"/v1/challenges/{first['id']}/decline", headers=bearer(bob))
    assert declined.status_code == 200 and declined.json["status"] == "declined"
    accept = client.post(f"/v1/challenges/{first['id']}/accept", headers=bearer(bob))
    assert accept.status_code == 409 and accept.json["error"] == "conflict"
    second = challenge(client, ada, "Bob").json
    not_his = client.delete(f"/v1/challenges/{second['id']}", headers=bearer(bob))
    assert not_his.status_code == 403
    cancelled = client.delete(f"/v1/challenges/{second['id']}", headers=bearer(ada))
    assert cancelled.status_code == 200 and cancelled.json["status"] == "cancelled"
    assert client.post(f"/v1/challenges/{second['id']}/accept", headers=bearer(bob)).status_code == 409
    mine = client.get("/v1/challenges", headers=bearer(bob)).json
    assert [c["status"] for c in mine] == ["cancelled", "declined"]


def test_outsiders_see_404_and_cannot_accept(client):
    ada, _, eve = (account_token(client, n) for n in ("Ada", "Bob", "Eve"))
    made = challenge(client, ada, "Bob").json
    assert client.get(f"/v1/challenges/{made['id']}", headers=bearer(eve)).status_code == 404
    assert client.post(f"/v1/challenges/{made['id']}/accept", headers=bearer(eve)).status_code == 404
    assert client.get("/v1/challenges/nope", headers=bearer(ada)).status_code == 404


@pytest.mark.parametrize(
    ("seats", "field"),
    [
        ([{"kind": "account", "name": "Ada"}], "seats"),
        ([{"kind": "account", "name": "Bob"}, {"kind": "account", "name": "Bob"}], "seats"),
        ([{"kind": "open"}], "rated"),
        ([{"kind": "ai"}] * 4, "seats"),
        ([{"kind": "ai", "name": "Bob"}], "name"),
        ([{"kind": "account"}], "name"),
    ],
)
def test_bad_challenges_are_422_and_store_nothing(client, services, seats, field):
    ada = account_token(client, "Ada")
    account_token(client, "Bob")
    body = {"game": "anno1452", "seats": seats, "rated": True}
    answer = client.post("/v1/challenges", json=body, headers=bearer(ada))
    assert answer.status_code == 422, answer.json
    assert field in json.dumps(answer.json["details"]["fields"])
    assert client.get("/v1/challenges", headers=bearer(ada)).json == []


def test_a_challenged_name_nobody_holds_is_404_and_stores_nothing(client, services):
    """As GET /v1/accounts/{name}: 404 `not_found` naming it; no challenge,
    no event to the account that was named too."""
    ada, bob = account_token(client, "Ada"), account_token(client, "Bob")
    answer = challenge(client, ada, "Bob", "Nobody")
    assert answer.status_code == 404, answer.json
    assert answer.json["error"] == "not_found" and answer.json["details"] == {"name": "Nobody"}
    assert "Nobody" in answer.json["message"]
    assert client.get("/v1/accounts/Nobody").json["error"] == "not_found"
    assert client.get("/v1/challenges", headers=bearer(ada)).json == []
    assert client.get("/v1/challenges", headers=bearer(bob)).json == []
    assert [e for e in events(services, "Bob") if e["type"] == "challenge"] == []


AI = {"kind": "ai"}
OPEN = {"kind": "open"}


@pytest.mark.parametrize(
    ("body", "documented"),
    [
        ({"seats": [AI], "rated": True}, True),
        ({"seats": [OPEN]}, True),
        ({"seats": [{"kind": "ai", "level": "hard"}, OPEN]}, True),
        ({"seats": [OPEN], "rated": True}, False),  # a rated challenge names every seat
        ({"seats": [AI, OPEN], "rated": True}, False),
        ({"seats": [{"kind": "ai", "name": "Bo"}]}, False),
        ({"seats": [{"kind": "open", "level": "easy"}]}, False),
        ({"seats": [{"kind": "account"}]}, False),
        ({"seats": [AI], "options": {"expansion": "pirates_aristocrats"}}, True),
        ({"seats": [AI], "options": {"colour": "red"}}, False),  # no such option
        ({"seats": [AI] * 3}, True),
        ({"seats": [AI] * 4}, False),  # five players
        ({"game": "anno1452", "seats": [AI], "options": {"scenario": "standard"}}, False),  # 2 players
        ({"game": "anno1452", "seats": [AI, AI], "options": {"scenario": "standard"}}, True),
    ],
)
def test_the_server_accepts_exactly_the_documented_challenge_bodies(client, body, documented):
    body = {"game": "anno1503", **body}
    assert validator("CreateChallenge").is_valid(body) == documented
    answer = client.post("/v1/challenges", json=body, headers=bearer(account_token(client, "Ada")))
    assert answer.status_code == (201 if documented else 422), answer.json


def test_an_unknown_game_is_404(client):
    body = {"game": "chess", "seats": [AI]}
    assert not validator("CreateChallenge").is_valid(body)
    answer = client.post("/v1/challenges", json=body, headers=bearer(account_token(client, "Ada")))
    assert answer.status_code == 404 and answer.json["error"] == "not_found"


def test_a_challenge_of_ai_seats_only_starts_at_once(client):
    ada = account_token(client, "Ada")
    body = {"game": "anno1503", "seats": [{"kind": "ai", "level": "easy"}], "rated": True}
    made = client.post("/v1/challenges", json=body, headers=bearer(ada))
    assert made.status_code == 201 and made.json["status"] == "started"
    match = client.get(f"/v1/matches/{made.json['match_id']}").json
    assert match["seats"][1]["kind"] == "ai" and match["seats"][1]["level"] == "easy"


def test_a_challenge_expires(client, services):
    ada, bob = account_token(client, "Ada"), account_token(client, "Bob")
    made = challenge(client, ada, "Bob", expires_in_s=1).json
    key = f"challenge:{{{made['id']}}}"
    time.sleep(1.05)
    read = client.get(f"/v1/challenges/{made['id']}", headers=bearer(bob)).json
    assert read["status"] == "expired"
    late = client.post(f"/v1/challenges/{made['id']}/accept", headers=bearer(bob))
    assert late.status_code == 409 and late.json["details"]["state"] == "expired"
    assert services.redis.pttl(key) > 0  # kept CHALLENGE_KEEP_S, then gone


def test_challenges_are_rate_limited_per_account(redis_server):
    with fresh_app(redis_server.url, CHALLENGE_RATE_LIMIT=2, CHALLENGE_RATE_WINDOW_S=3600) as app:
        client = app.test_client()
        ada = account_token(client, "Ada")
        account_token(client, "Bob")
        assert challenge(client, ada, "Bob").status_code == 201
        assert challenge(client, ada, "Bob").status_code == 201
        third = challenge(client, ada, "Bob")
        assert third.status_code == 429 and third.json["error"] == "rate_limited"
        assert int(third.headers["Retry-After"]) >= 1
        other = account_token(client, "Cy")
        assert challenge(client, other, "Bob").status_code == 201  # per account


def _scoped(client, owner, scope):
    minted = client.post("/v1/account/tokens", json={"label": "m", "scopes": [scope]}, headers=bearer(owner))
    return minted.json["token"]


def _challenge_routes(client, cid):
    body = {"game": "anno1452", "seats": [{"kind": "account", "name": "Bob"}]}
    return {
        "createChallenge": (
            "match:create",
            lambda h: client.post("/v1/challenges", json=body, headers=h),
            201,
        ),
        "listChallenges": ("match:read", lambda h: client.get("/v1/challenges", headers=h), 200),
        "getChallenge": ("match:read", lambda h: client.get(f"/v1/challenges/{cid}", headers=h), 200),
        "cancelChallenge": ("match:create", lambda h: client.delete(f"/v1/challenges/{cid}", headers=h), 200),
        "acceptChallenge": (
            "match:play",
            lambda h: client.post(f"/v1/challenges/{cid}/accept", headers=h),
            200,
        ),
        "declineChallenge": (
            "match:play",
            lambda h: client.post(f"/v1/challenges/{cid}/decline", headers=h),
            200,
        ),
    }


@pytest.mark.parametrize(
    "operation",
    [
        "createChallenge",
        "listChallenges",
        "getChallenge",
        "cancelChallenge",
        "acceptChallenge",
        "declineChallenge",
    ],
)
@pytest.mark.parametrize("held", SCOPES)
def test_challenge_scope_matrix(client, operation, held):
    ada, bob = account_token(client, "Ada"), account_token(client, "Bob")
    made = challenge(client, ada, "Bob").json
    actor = bob if operation in ("acceptChallenge", "declineChallenge") else ada
    needed, call, served = _challenge_routes(client, made["id"])[operation]
    answer = call(bearer(_scoped(client, actor, held)))
    if held == needed:
        assert answer.status_code == served, answer.json
    else:
        assert answer.status_code == 403
        assert answer.json["details"]["missing_scope"] == needed


def test_no_token_is_401(client):
    assert client.get("/v1/challenges").status_code == 401
    assert (
        client.post("/v1/challenges", json={"game": "anno1452", "seats": [{"kind": "open"}]}).status_code
        == 401
    )


def test_the_challenge_document_keeps_no_token(client, services):
    ada = account_token(client, "Ada")
    account_token(client, "Bob")
    made = challenge(client, ada, "Bob").json
    raw = services.redis.hget(f"challenge:{{{made['id']}}}", "doc")
    assert "tab_" not in raw.decode() and json.loads(raw)["id"] == made["id"]


def test_the_challenge_event_goes_to_the_invitees_webhook(redis_server):
    with fresh_app(redis_server.url, WEBHOOK_ALLOW_PRIVATE=1, WEBHOOK_ALLOW_HTTP=1) as app:
        client, services = app.test_client(), app.extensions["tabula"]
        ada, bob = account_token(client, "Ada"), account_token(client, "Bob")
        hook = {"url": "https://93.184.216.34/hook", "events": ["challenge"]}
        assert client.put("/v1/account/webhook", json=hook, headers=bearer(bob)).status_code == 200
        made = challenge(client, ada, "Bob").json
        (job,) = services.webhook_queue.get_jobs()
        delivery = job.args[1] if len(job.args) > 1 else job.kwargs
        assert "challenge" in json.dumps(delivery) and made["id"] in json.dumps(delivery)
