"""Accounts and personal access tokens (docs/accounts.md) on a real redis-server.

The scope matrix: every account route refused with 403 naming the missing
scope, served with it; revoked and expired tokens 401 on two apps sharing one
Redis (two API processes) at once; unknown tokens counted against the address;
names (case, full width, look-alikes, reserved); sign-up modes; app accounts.
"""

import time

import pytest
import redis

from service.accounts.events import publish_account_event
from service.model.accounts import SCOPES
from service.storage import accounts as stored

from .conftest import make_app

APP_KEYS = "app1=secret-one,app2=secret-two"
OPERATOR = "operator-key-1"
LIMITED = {"RATE_LIMIT": 3, "RATE_LIMIT_WINDOW_S": 3600}


def bearer(token):
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def two_apps(redis_server):
    """Two apps on one Redis: two API processes, as far as tokens go."""
    redis.Redis.from_url(redis_server.url).flushdb()
    apps = [make_app(redis_server.url, TABULA_APP_KEYS=APP_KEYS) for _ in range(2)]
    yield [a.test_client() for a in apps]
    for a in apps:
        a.extensions["tabula"].close()


@pytest.fixture
def limited_client(redis_server):
    """An app allowing 3 requests per hour per token or address."""
    redis.Redis.from_url(redis_server.url).flushdb()
    app = make_app(redis_server.url, **LIMITED)
    yield app.test_client()
    app.extensions["tabula"].close()


def sign_up(client, name="Ada", kind="human", headers=None):
    return client.post("/v1/accounts", json={"name": name, "kind": kind}, headers=headers or {})


def account_token(client, name="Ada", scopes=SCOPES, expires_in_s=None):
    signed = sign_up(client, name)
    assert signed.status_code == 201, signed.json
    if tuple(scopes) == SCOPES and expires_in_s is None:
        return signed.json["token"]
    body = {"label": "t", "scopes": list(scopes), "expires_in_s": expires_in_s}
    minted = client.post("/v1/account/tokens", json=body, headers=bearer(signed.json["token"]))
    assert minted.status_code == 201, minted.json
    return minted.json["token"]


def test_sign_up_answers_the_account_and_a_token_shown_once(client):
    answer = sign_up(client, "Ada", "bot")
    assert answer.status_code == 201
    account = answer.json["account"]
    assert account["name"] == "Ada" and account["kind"] == "bot" and account["status"] == "active"
    assert account["id"].startswith("a") and len(account["id"]) == 21
    assert answer.json["token"].startswith("tab_pat_")
    me = client.get("/v1/account", headers=bearer(answer.json["token"]))
    assert me.status_code == 200 and me.json == account
    listed = client.get("/v1/account/tokens", headers=bearer(answer.json["token"])).json
    assert [t["label"] for t in listed] == ["sign-up"] and listed[0]["scopes"] == list(SCOPES)
    assert "token" not in listed[0] and answer.json["token_id"] == listed[0]["id"]


def _routes(client, token_id):
    return {
        "getOwnAccount": ("account:read", lambda h: client.get("/v1/account", headers=h), 200),
        "listTokens": ("account:read", lambda h: client.get("/v1/account/tokens", headers=h), 200),
        "createToken": (
            "account:write",
            lambda h: client.post(
                "/v1/account/tokens", json={"label": "x", "scopes": ["match:read"]}, headers=h
            ),
            201,
        ),
        "revokeToken": (
            "account:write",
            lambda h: client.delete(f"/v1/account/tokens/{token_id}", headers=h),
            204,
        ),
        "closeAccount": ("account:write", lambda h: client.delete("/v1/account", headers=h), 204),
        "listOwnMatches": ("match:read", lambda h: client.get("/v1/account/matches", headers=h), 200),
    }


@pytest.mark.parametrize(
    "operation",
    ["getOwnAccount", "listTokens", "createToken", "revokeToken", "closeAccount", "listOwnMatches"],
)
@pytest.mark.parametrize("held", SCOPES)
def test_scope_matrix(client, operation, held):
    owner = account_token(client, "Ada")
    spare = client.post(
        "/v1/account/tokens", json={"label": "s", "scopes": ["match:read"]}, headers=bearer(owner)
    )
    scoped = client.post("/v1/account/tokens", json={"label": "m", "scopes": [held]}, headers=bearer(owner))
    needed, call, served = _routes(client, spare.json["id"])[operation]
    answer = call(bearer(scoped.json["token"]))
    if held == needed:
        assert answer.status_code == served, answer.json
    else:
        assert answer.status_code == 403
        assert answer.json["error"] == "forbidden" and answer.json["details"]["missing_scope"] == needed
        assert needed in answer.json["message"]


@pytest.mark.parametrize("path", ["/v1/account", "/v1/account/tokens"])
def test_no_token_unknown_token_and_seat_token_are_401(client, path):
    assert client.get(path).status_code == 401
    assert client.get(path, headers=bearer("tab_pat_madeup")).status_code == 401
    assert client.get(path, headers=bearer("tab_seat-token")).status_code == 401


def test_a_revoked_token_is_401_on_every_process_at_once(two_apps):
    one, other = two_apps
    owner = account_token(one, "Ada")
    doomed = one.post(
        "/v1/account/tokens", json={"label": "d", "scopes": ["account:read"]}, headers=bearer(owner)
    )
    assert other.get("/v1/account", headers=bearer(doomed.json["token"])).status_code == 200
    assert one.delete(f"/v1/account/tokens/{doomed.json['id']}", headers=bearer(owner)).status_code == 204
    for client in (one, other):
        assert client.get("/v1/account", headers=bearer(doomed.json["token"])).status_code == 401
    assert one.delete(f"/v1/account/tokens/{doomed.json['id']}", headers=bearer(owner)).status_code == 404


def test_an_expired_token_is_401_on_every_process(two_apps, monkeypatch):
    one, other = two_apps
    short = account_token(one, "Ada", scopes=["account:read"], expires_in_s=60)
    assert other.get("/v1/account", headers=bearer(short)).status_code == 200
    later = time.time() + 61
    monkeypatch.setattr("service.accounts.auth.time.time", lambda: later)
    for client in (one, other):
        assert client.get("/v1/account", headers=bearer(short)).status_code == 401


def test_closing_revokes_every_token_and_keeps_the_name_reserved(two_apps):
    one, other = two_apps
    owner = account_token(one, "Ada")
    second = one.post(
        "/v1/account/tokens", json={"label": "x", "scopes": list(SCOPES)}, headers=bearer(owner)
    )
    aid = one.get("/v1/account", headers=bearer(owner)).json["id"]
    assert other.delete("/v1/account", headers=bearer(owner)).status_code == 204
    for client in (one, other):
        for token in (owner, second.json["token"]):
            assert client.get("/v1/account", headers=bearer(token)).status_code == 401
    assert one.get("/v1/accounts/Ada").status_code == 404
    neutral = one.get(f"/v1/accounts/closed-{aid[-8:]}")
    assert neutral.status_code == 200 and neutral.json["status"] == "closed"
    assert sign_up(one, "ada").status_code == 409


def test_public_profile(client):
    account_token(client, "Ada")
    profile = client.get("/v1/accounts/ADA")
    assert profile.status_code == 200
    assert profile.json["name"] == "Ada" and profile.json["games"] == {} and profile.json["recent"] == []
    assert client.get("/v1/accounts/nobody").status_code == 404


@pytest.mark.parametrize(
    ("first", "second"), [("Ada", "ada"), ("Ada", "\uff21\uff24\uff21"), ("bo_t-1", "BO_T-1")]
)
def test_names_that_differ_by_case_or_width_collide(client, first, second):
    assert sign_up(client, first).status_code == 201
    taken = sign_up(client, second)
    assert taken.status_code == 409 and taken.json["error"] == "name_taken"


@pytest.mark.parametrize(
    "name",
    [
        "\u0410da",
        "Ad\u03bf",
        "Ada\ufb01",  # a ligature NFKC would fold into "fi": refused, not folded
        "a",
        "x" * 25,
        "has space",
        "admin",
        "ADMIN",
        "ai",
        "ai-hard",
        "AI-Whatever",
        "closed-1",
    ],
)
def test_refused_names(client, name):
    answer = sign_up(client, name)
    assert answer.status_code == 422 and answer.json["error"] == "validation_error"
    fields = answer.json["details"]["fields"]
    assert (fields.get("json") or fields)["name"]  # the schema's pattern, or the rules after NFKC


def test_full_width_names_fold_into_ascii(client):
    assert sign_up(client, "\uff22\uff4f\uff42").json["account"]["name"] == "Bob"


def test_closed_sign_up_needs_the_operator_key(redis_server):
    redis.Redis.from_url(redis_server.url).flushdb()
    app = make_app(redis_server.url, TABULA_SIGNUP="closed", TABULA_OPERATOR_KEY=OPERATOR)
    client = app.test_client()
    try:
        assert sign_up(client, "Ada").status_code == 403
        assert sign_up(client, "Ada", headers=bearer("wrong")).status_code == 403
        assert sign_up(client, "Ada", headers=bearer(OPERATOR)).status_code == 201
    finally:
        app.extensions["tabula"].close()


def test_sign_ups_count_against_the_address(redis_server):
    redis.Redis.from_url(redis_server.url).flushdb()
    app = make_app(redis_server.url, SIGNUP_RATE_LIMIT=2)
    client = app.test_client()
    try:
        assert [sign_up(client, f"p{i}").status_code for i in range(3)] == [201, 201, 429]
    finally:
        app.extensions["tabula"].close()


def test_unknown_account_tokens_count_against_the_address(redis_server):
    redis.Redis.from_url(redis_server.url).flushdb()
    app = make_app(redis_server.url, RATE_LIMIT=3, RATE_LIMIT_WINDOW_S=3600)
    client = app.test_client()
    try:
        codes = [client.get("/v1/account", headers=bearer(f"tab_pat_guess{i}")).status_code for i in range(4)]
        assert codes == [401, 401, 401, 429]
        assert client.get("/v1/account").status_code == 429  # the same address, no token
    finally:
        app.extensions["tabula"].close()


def test_app_accounts_are_made_once_and_mint_a_token_each_call(two_apps):
    one, other = two_apps
    body = {"name": "Cy", "kind": "human", "scopes": ["match:play", "account:read"], "label": "web"}
    made = one.put("/v1/apps/accounts/user-7", json=body, headers=bearer("secret-one"))
    found = other.put("/v1/apps/accounts/user-7", json=body, headers=bearer("secret-one"))
    assert (made.status_code, found.status_code) == (201, 200)
    assert made.json["account"] == found.json["account"] and made.json["token"] != found.json["token"]
    assert made.json["account"]["app"] == "app1" and made.json["account"]["external_id"] == "user-7"
    me = one.get("/v1/account", headers=bearer(found.json["token"]))
    assert me.status_code == 200
    denied = one.post(
        "/v1/account/tokens",
        json={"label": "x", "scopes": ["match:read"]},
        headers=bearer(found.json["token"]),
    )
    assert denied.json["details"]["missing_scope"] == "account:write"
    other_app = one.put(
        "/v1/apps/accounts/user-7", json={**body, "name": "Cy2"}, headers=bearer("secret-two")
    )
    assert other_app.status_code == 201 and other_app.json["account"]["id"] != made.json["account"]["id"]
    assert one.put("/v1/apps/accounts/user-7", json=body, headers=bearer("nope")).status_code == 401
    assert one.put("/v1/apps/accounts/user-8", json=body, headers=bearer("secret-one")).status_code == 409


def test_last_used_is_noted_at_most_once_a_minute(client, services):
    token = account_token(client, "Ada")
    client.get("/v1/account", headers=bearer(token))
    (listed,) = client.get("/v1/account/tokens", headers=bearer(token)).json
    assert listed["last_used_at"] is not None
    aid = client.get("/v1/account", headers=bearer(token)).json["id"]
    assert services.redis.ttl(stored.used_gate_key(aid, listed["id"])) > 0


def test_account_events_append_and_read(services):
    aid = "atestaccount00000000000"
    first = stored.append_account_event(services.redis, aid, "your_turn", {"match": "m1", "version": 3})
    second = stored.append_account_event(services.redis, aid, "match_finished", {"match": "m1"})
    events = stored.read_account_events(services.redis, aid, "0", 10)
    assert [e["id"] for e in events] == [first, second]
    assert events[0] == {"id": first, "type": "your_turn", "data": {"match": "m1", "version": 3}}
    assert stored.read_account_events(services.redis, aid, first, 10) == events[1:]
    assert stored.read_account_events(services.redis, aid, second, 10) == []


def test_a_published_event_names_its_match(services):
    aid = "atestaccount00000000002"
    entry = publish_account_event(
        services, aid, "your_turn", {"game": "anno1452", "version": 4}, match_id="m9"
    )
    (event,) = stored.read_account_events(services.redis, aid, "0", 10)
    assert event == {
        "id": entry,
        "type": "your_turn",
        "data": {"game": "anno1452", "version": 4, "match_id": "m9"},
    }


def test_an_appended_event_is_published_on_the_account_live_channel(services):
    aid = "atestaccount00000000001"
    pubsub = services.redis.pubsub()
    pubsub.ssubscribe(stored.account_live_channel(aid))
    try:
        deadline = time.monotonic() + 5
        while pubsub.get_message(timeout=0.1) is None and time.monotonic() < deadline:
            pass  # the subscription's confirmation
        entry = stored.append_account_event(services.redis, aid, "your_turn", {"match": "m1"})
        message = None
        while message is None and time.monotonic() < deadline:
            message = pubsub.get_message(timeout=0.1, ignore_subscribe_messages=True)
        assert message is not None and message["data"].decode() == entry
    finally:
        pubsub.close()


def test_a_live_account_token_counts_against_its_own_window(limited_client):
    client = limited_client
    token = sign_up(client, "Ada").json["token"]  # the address's first request
    codes = [client.get("/v1/account", headers=bearer(token)).status_code for _ in range(4)]
    assert codes == [200, 200, 200, 429]
    assert client.get("/v1/games").status_code == 200  # the address's second
