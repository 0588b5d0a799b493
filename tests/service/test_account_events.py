"""Account events after each commit (service/play/follow.py), the history
indexes and the profile's figures: each event once per (match, version,
type, account) even when the after-commit path runs again, nothing private
in them, a finished match counted once.
"""

import json

from service.accounts.seats import bound_seats
from service.play.follow import notify_accounts
from service.storage import accounts as stored

from .conftest import run_ai_jobs
from .helpers import bearer
from .test_accounts import account_token

PUBLIC_KEYS = {"game", "seat", "version", "deadline", "reason", "result", "match_id"}


def vs_ai(client, token, seed=3):
    body = {
        "game": "anno1503",
        "seats": [{"kind": "human", "name": "Ada"}, {"kind": "ai", "level": "random"}],
        "seed": seed,
        "dice": "reproducible",
    }
    created = client.post("/v1/matches", json=body, headers=bearer(token))
    assert created.status_code == 201, created.json
    return created.json["match"]["id"]


def play_some(client, services, match_id, token, moves):
    """Play ``moves`` of the account's decisions (the AI's in between); the first action each time."""
    for _ in range(moves):
        run_ai_jobs(services)
        listed = client.get(f"/v1/matches/{match_id}/actions", headers=bearer(token)).json
        if not listed["actions"]:
            return
        body = {"action": listed["actions"][0], "version": listed["version"]}
        moved = client.post(f"/v1/matches/{match_id}/actions", json=body, headers=bearer(token))
        assert moved.status_code == 200, moved.json


def finish(client, services, match_id, token):
    assert client.post(f"/v1/matches/{match_id}/resign", headers=bearer(token)).status_code == 200
    run_ai_jobs(services)
    match = client.get(f"/v1/matches/{match_id}").json
    assert match["status"] == "finished"
    return match


def aid_of(client, token):
    return client.get("/v1/account", headers=bearer(token)).json["id"]


def test_a_match_against_the_ai_sends_each_event_once_and_nothing_private(client, services):
    ada = account_token(client, "Ada")
    match_id = vs_ai(client, ada)
    play_some(client, services, match_id, ada, 4)
    match = finish(client, services, match_id, ada)
    events = stored.read_account_events(services.redis, aid_of(client, ada), "0", 1000)
    types = [e["type"] for e in events]
    assert types[0] == "match_started" and types[-1] == "match_finished"
    assert types.count("match_started") == types.count("match_finished") == 1
    assert types.count("seat_handed_to_ai") == 1 and "your_turn" in types
    keys = [(e["type"], e["data"]["version"]) for e in events]
    assert len(keys) == len(set(keys))
    for event in events:
        assert set(event["data"]) <= PUBLIC_KEYS and event["data"]["match_id"] == match_id
        assert event["data"]["seat"] == 0 and event["data"]["game"] == "anno1503"
    handed = next(e for e in events if e["type"] == "seat_handed_to_ai")
    assert handed["data"]["reason"] == "resign"
    assert events[-1]["data"]["result"] == match["result"]
    public_versions = {
        e["version"] for e in client.get(f"/v1/matches/{match_id}/events?limit=1000").json["events"]
    }
    assert {e["data"]["version"] for e in events if e["type"] == "your_turn"} <= public_versions | {0}


def test_running_the_after_commit_path_again_sends_and_counts_nothing_more(client, services):
    ada = account_token(client, "Ada")
    aid = aid_of(client, ada)
    match_id = vs_ai(client, ada)
    play_some(client, services, match_id, ada, 2)
    finish(client, services, match_id, ada)
    before = stored.read_account_events(services.redis, aid, "0", 1000)
    profile = client.get("/v1/accounts/Ada").json
    assert profile["games"] == {"anno1503": {"played": 1, "won": 0}}
    assert [r["match_id"] for r in profile["recent"]] == [match_id] and not profile["recent"][0]["won"]
    doc = services.store.load_doc(match_id)
    notify_accounts(services, doc, bound_seats(doc))
    notify_accounts(services, doc, bound_seats(doc))
    assert stored.read_account_events(services.redis, aid, "0", 1000) == before
    assert client.get("/v1/accounts/Ada").json == profile


def test_anonymous_matches_send_no_account_events(client, services):
    ada = account_token(client, "Ada")
    aid = aid_of(client, ada)
    body = {"game": "anno1503", "seats": [{"kind": "human"}, {"kind": "ai", "level": "random"}]}
    assert client.post("/v1/matches", json=body).status_code == 201
    run_ai_jobs(services)
    assert stored.read_account_events(services.redis, aid, "0", 10) == []


def test_own_matches_filter_and_page_and_the_public_history(client, services):
    ada = account_token(client, "Ada")
    ids = [vs_ai(client, ada, seed) for seed in (3, 4, 5)]
    run_ai_jobs(services)
    finish(client, services, ids[0], ada)
    mine = client.get("/v1/account/matches?page_size=2", headers=bearer(ada))
    assert mine.status_code == 200 and [m["id"] for m in mine.json] == ids[::-1][:2]
    assert '"total": 3' in mine.headers["X-Pagination"]
    second = client.get("/v1/account/matches?page_size=2&page=2", headers=bearer(ada)).json
    assert [m["id"] for m in second] == [ids[0]]
    finished = client.get("/v1/account/matches?status=finished", headers=bearer(ada)).json
    assert [m["id"] for m in finished] == [ids[0]]
    to_act = client.get("/v1/account/matches?to_act=true", headers=bearer(ada)).json
    assert {m["id"] for m in to_act} == set(ids[1:])
    public = client.get("/v1/accounts/ada/matches")
    assert public.status_code == 200 and [m["id"] for m in public.json] == [ids[0]]
    exported = client.get("/v1/accounts/Ada/matches", headers={"Accept": "application/x-ndjson"})
    assert exported.mimetype == "application/x-ndjson"
    text = exported.get_data(as_text=True)
    assert "account_id" not in text and "account_id" not in public.get_data(as_text=True)
    lines = [line for line in text.split("\n") if line]
    assert [json.loads(line)["id"] for line in lines] == [ids[0]]
    assert client.get("/v1/accounts/nobody/matches").status_code == 404
    assert client.get("/v1/account/matches").status_code == 401


def test_a_page_far_past_the_end_is_empty(client):
    account_token(client, "Ada")
    far = client.get("/v1/accounts/Ada/matches?page=10000")  # MAX_PAGE
    assert far.status_code == 200 and far.json == []
    assert client.get("/v1/accounts/Ada/matches?page=161692185982009081856").status_code == 422
